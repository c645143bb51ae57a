/// @file upload_resources.hpp
/// @brief Host resources that make S's preprocessing cheap when it is repeated: page-locked
/// host scratch kept per thread, and a second stream on which S's values are copied while
/// the GPU checks its indices.
///
/// Step 5, approach 4 (going further, "Preprocessing: S on the device"): pinned scratch and
/// the side stream. Read first: panel_pattern_upload.cu (their main user).
///
/// Both are created on first use in a thread and kept until the thread ends, so a program
/// that prepares many patterns (the benchmark, a training loop) pays cudaHostAlloc and
/// cudaStreamCreate once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace course::step5 {

/// @brief Which per-thread page-locked buffer to use: each has its own contents.
enum class PinnedUse {
  verdict,  ///< the flags and panel spans that csr_pattern_kernel writes (mapped, zero-copy)
  staging   ///< approach 4's panel tables on their way to the device
};

/// @brief The calling thread's page-locked, device-mapped host buffer for @p use, at least
/// @p bytes long. Its contents survive until the next call for the same use grows it.
/// Device code may read and write it through the same pointer (unified addressing).
/// Throws course::CudaError when the allocation fails.
/// @param use which buffer
/// @param bytes bytes needed
/// @return the buffer (host and device address)
void* pinned_scratch(PinnedUse use, std::size_t bytes);

/// @brief The calling thread's non-blocking stream for copies that overlap the default
/// stream's work (it does not wait for the legacy default stream), on the current device.
/// @return the stream
cudaStream_t side_copy_stream();

/// @brief Makes side_copy_stream() wait for the work queued so far on the default stream
/// (a stream-ordered allocation, for instance) without blocking the host.
void side_stream_waits_for_default();

}  // namespace course::step5
