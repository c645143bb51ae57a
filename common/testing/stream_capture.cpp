/// @file stream_capture.cpp
/// @brief run_captured(): the capture, the graph and their clean-up.
#include "common/testing/stream_capture.hpp"

#include "common/cuda_check.hpp"
#include "common/graph_capture.hpp"

namespace course::testing {
namespace {

/// The capture's stream, destroyed whatever happens (after the graph: declared first).
struct OwnedStream {
  cudaStream_t stream = nullptr;
  OwnedStream() = default;
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  ~OwnedStream() {
    if (stream != nullptr) {
      cudaStreamDestroy(stream);  // no check: a destructor must not throw
    }
  }
};

}  // namespace

void run_captured(const std::function<void(cudaStream_t stream)>& work) {
  OwnedStream owned;
  // A blocking stream (no cudaStreamNonBlocking): the legacy default stream would have to wait
  // for it, so queuing work there while it is captured is an error, not a silent escape.
  CUDA_CHECK(cudaStreamCreate(&owned.stream));
  course::GraphCapture capture;
  capture.begin(owned.stream);
  work(owned.stream);
  const cudaGraphExec_t exec = capture.finish();
  CUDA_CHECK(cudaGraphLaunch(exec, owned.stream));
  CUDA_CHECK(cudaStreamSynchronize(owned.stream));
}

}  // namespace course::testing
