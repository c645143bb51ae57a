/// @file stream_capture.cpp
/// @brief run_captured(): the capture, the graph and their clean-up.
#include "common/testing/stream_capture.hpp"

#include "common/cuda_check.hpp"

namespace course::testing {
namespace {

/// The stream, the graph and its executable form, freed in reverse order whatever happens.
struct Capture {
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  bool capturing = false;

  ~Capture() {
    // No checks here: a destructor must not throw, and a failed capture is reported by the
    // call that found it.
    if (capturing) {
      cudaGraph_t abandoned = nullptr;
      cudaStreamEndCapture(stream, &abandoned);
      if (abandoned != nullptr) {
        cudaGraphDestroy(abandoned);
      }
      cudaGetLastError();  // the invalidated capture's error is not the next call's
    }
    if (exec != nullptr) {
      cudaGraphExecDestroy(exec);
    }
    if (graph != nullptr) {
      cudaGraphDestroy(graph);
    }
    if (stream != nullptr) {
      cudaStreamDestroy(stream);
    }
  }
};

}  // namespace

void run_captured(const std::function<void(cudaStream_t stream)>& work) {
  Capture capture;
  // A blocking stream (no cudaStreamNonBlocking): the legacy default stream would have to wait
  // for it, so queuing work there while it is captured is an error, not a silent escape.
  CUDA_CHECK(cudaStreamCreate(&capture.stream));
  // Relaxed: calls that are not stream work (cudaFuncSetAttribute, attribute queries) stay
  // allowed, as the launchers make them.
  CUDA_CHECK(cudaStreamBeginCapture(capture.stream, cudaStreamCaptureModeRelaxed));
  capture.capturing = true;
  work(capture.stream);
  capture.capturing = false;
  CUDA_CHECK(cudaStreamEndCapture(capture.stream, &capture.graph));
  CUDA_CHECK(cudaGraphInstantiate(&capture.exec, capture.graph, 0));
  CUDA_CHECK(cudaGraphLaunch(capture.exec, capture.stream));
  CUDA_CHECK(cudaStreamSynchronize(capture.stream));
}

}  // namespace course::testing
