/// @file upload_resources.cu
/// @brief Per-thread page-locked scratch and side stream (see upload_resources.hpp).
///
/// Step 5, approach 4 (going further): pinned scratch and the side stream.
/// Read first: upload_resources.hpp.
#include "step5_tensor_core_sddmm/going_further/upload_resources.hpp"

#include "common/cuda_check.hpp"

#include <algorithm>

namespace course::step5 {
namespace {

/// A page-locked, mapped host buffer released when its thread ends.
struct PinnedBuffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() {
    if (data != nullptr) {
      cudaFreeHost(data);  // no check: at thread exit the runtime may be gone
    }
  }
};

/// The stream and event of side_copy_stream, created for one device.
struct SideStream {
  int device = -1;
  cudaStream_t stream = nullptr;
  cudaEvent_t default_done = nullptr;  ///< recorded on the default stream, waited for
  SideStream() = default;
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;
  ~SideStream() { release(); }
  void release() {
    // No checks: at thread exit the runtime may be gone.
    if (stream != nullptr) {
      cudaStreamDestroy(stream);
    }
    if (default_done != nullptr) {
      cudaEventDestroy(default_done);
    }
    stream = nullptr;
    default_done = nullptr;
  }
};

/// The calling thread's side stream for the current device (created, or re-created after
/// a change of device).
SideStream& side_stream() {
  thread_local SideStream side;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (side.device != device) {
    side.release();
    CUDA_CHECK(cudaStreamCreateWithFlags(&side.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreateWithFlags(&side.default_done, cudaEventDisableTiming));
    side.device = device;
  }
  return side;
}

}  // namespace

void* pinned_scratch(PinnedUse use, std::size_t bytes) {
  thread_local PinnedBuffer buffers[2];
  PinnedBuffer& buffer = buffers[use == PinnedUse::verdict ? 0 : 1];
  if (buffer.bytes < bytes) {
    if (buffer.data != nullptr) {
      CUDA_CHECK(cudaFreeHost(buffer.data));
      buffer.data = nullptr;
      buffer.bytes = 0;
    }
    const std::size_t grown = std::max<std::size_t>(bytes, 8192);
    // Portable: usable from every device; mapped: kernels may write it directly.
    CUDA_CHECK(cudaHostAlloc(&buffer.data, grown, cudaHostAllocPortable | cudaHostAllocMapped));
    buffer.bytes = grown;
  }
  return buffer.data;
}

cudaStream_t side_copy_stream() {
  return side_stream().stream;
}

void side_stream_waits_for_default() {
  SideStream& side = side_stream();
  CUDA_CHECK(cudaEventRecord(side.default_done, nullptr));
  CUDA_CHECK(cudaStreamWaitEvent(side.stream, side.default_done, 0));
}

}  // namespace course::step5
