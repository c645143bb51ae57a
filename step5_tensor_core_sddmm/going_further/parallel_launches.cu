/// @file parallel_launches.cu
/// @brief The calling thread's side streams and events, and the fork and join of
/// ParallelLaunches (see parallel_launches.hpp).
///
/// Step 5, approach 4 (going further): the plan's launches side by side.
/// Read first: parallel_launches.hpp.
#include "step5_tensor_core_sddmm/going_further/parallel_launches.hpp"

#include "common/cuda_check.hpp"

#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

/// The side streams of one thread on one device, with the fork's event and one join event
/// per side stream (all without timing: they only order work).
struct SideStreams {
  int device = -1;
  cudaStream_t streams[kMaxSideStreams] = {};
  cudaEvent_t fork = nullptr;
  cudaEvent_t joins[kMaxSideStreams] = {};
  SideStreams() = default;
  SideStreams(const SideStreams&) = delete;
  SideStreams& operator=(const SideStreams&) = delete;
  ~SideStreams() { release(); }
  void release() {
    // No checks: at thread exit the runtime may be gone.
    for (int side = 0; side < kMaxSideStreams; ++side) {
      if (streams[side] != nullptr) {
        cudaStreamDestroy(streams[side]);
      }
      if (joins[side] != nullptr) {
        cudaEventDestroy(joins[side]);
      }
      streams[side] = nullptr;
      joins[side] = nullptr;
    }
    if (fork != nullptr) {
      cudaEventDestroy(fork);
    }
    fork = nullptr;
    device = -1;
  }
};

/// The calling thread's side streams for the current device (created, or re-created after a
/// change of device). Non-blocking: they never wait for the legacy default stream by
/// themselves, only for the fork.
SideStreams& side_streams() {
  thread_local SideStreams side;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (side.device != device) {
    side.release();
    CUDA_CHECK(cudaEventCreateWithFlags(&side.fork, cudaEventDisableTiming));
    for (int index = 0; index < kMaxSideStreams; ++index) {
      CUDA_CHECK(cudaStreamCreateWithFlags(&side.streams[index], cudaStreamNonBlocking));
      CUDA_CHECK(cudaEventCreateWithFlags(&side.joins[index], cudaEventDisableTiming));
    }
    side.device = device;
  }
  return side;
}

}  // namespace

ParallelLaunches::ParallelLaunches(cudaStream_t origin) : origin_(origin) {
  // Recorded before the run's first kernel, so the side streams wait for what came before
  // the run, not for that kernel.
  CUDA_CHECK(cudaEventRecord(side_streams().fork, origin_));
}

cudaStream_t ParallelLaunches::next() {
  if (used_ > kMaxSideStreams) {
    throw std::logic_error("a run launches at most " + std::to_string(1 + kMaxSideStreams) +
                           " kernels side by side");
  }
  const int index = used_++;
  if (index == 0) {
    return origin_;
  }
  SideStreams& side = side_streams();
  cudaStream_t stream = side.streams[index - 1];
  CUDA_CHECK(cudaStreamWaitEvent(stream, side.fork, 0));
  return stream;
}

void ParallelLaunches::join() {
  SideStreams& side = side_streams();
  for (int index = 1; index < used_; ++index) {
    CUDA_CHECK(cudaEventRecord(side.joins[index - 1], side.streams[index - 1]));
    CUDA_CHECK(cudaStreamWaitEvent(origin_, side.joins[index - 1], 0));
  }
}

}  // namespace course::step5
