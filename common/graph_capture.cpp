/// @file graph_capture.cpp
/// @brief GraphCapture (see graph_capture.hpp).
#include "common/graph_capture.hpp"

#include "common/cuda_check.hpp"

namespace course {

GraphCapture::~GraphCapture() {
  // No checks: a destructor must not throw, and a failed capture is reported by the call that
  // found it.
  if (capturing_) {
    cudaGraph_t abandoned = nullptr;
    cudaStreamEndCapture(stream_, &abandoned);
    if (abandoned != nullptr) {
      cudaGraphDestroy(abandoned);
    }
    cudaGetLastError();  // the abandoned capture's error is not the next call's
  }
  if (exec_ != nullptr) {
    cudaGraphExecDestroy(exec_);
  }
  if (graph_ != nullptr) {
    cudaGraphDestroy(graph_);
  }
}

void GraphCapture::begin(cudaStream_t stream) {
  stream_ = stream;
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  capturing_ = true;
}

cudaGraphExec_t GraphCapture::finish() {
  capturing_ = false;
  CUDA_CHECK(cudaStreamEndCapture(stream_, &graph_));
  CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  return exec_;
}

cudaGraphExec_t GraphCapture::release() {
  cudaGraphExec_t exec = exec_;
  exec_ = nullptr;
  return exec;
}

}  // namespace course
