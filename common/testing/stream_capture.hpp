/// @file stream_capture.hpp
/// @brief run_captured(): a test that a launcher puts all its work on the stream it is given.
///
/// A launcher that takes a stream but queues one kernel (or a cuBLAS call, or a copy) on the
/// default stream still computes the right result in a test that waits for the whole device.
/// run_captured() catches it: it records the work into a CUDA graph from a blocking stream
/// (stream capture), and while a blocking stream is being captured, any work queued on the
/// legacy default stream fails with cudaErrorStreamCaptureImplicit (the launcher's
/// CUDA_CHECK_LAUNCH then throws). The graph is then launched on the same stream and waited
/// for, so the caller checks the result as usual.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

namespace course::testing {

/// @brief Captures @p work on a new blocking stream, then runs the graph and waits for it.
/// Throws course::CudaError when @p work queued anything outside the stream (or when the
/// capture or the graph fails); the stream and the graph are freed either way.
/// Precondition: @p work makes no synchronous CUDA call on the device (a capture forbids it).
/// @param work the launches to check, given the stream to use
void run_captured(const std::function<void(cudaStream_t stream)>& work);

}  // namespace course::testing
