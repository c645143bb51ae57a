/// @file run_graph.cu
/// @brief RunGraph's capture and replay (see run_graph.hpp).
///
/// Step 5, approach 4 (going further): the plan's launches as one graph.
/// Read first: run_graph.hpp.
#include "step5_tensor_core_sddmm/going_further/run_graph.hpp"

#include "common/cuda_check.hpp"
#include "common/graph_capture.hpp"

namespace course::step5 {
namespace {

/// The calling thread's stream to capture on, for the current device. Non-blocking, so that
/// another thread's work on the legacy default stream never joins (and so breaks) a capture.
cudaStream_t capture_stream() {
  struct CaptureStream {
    int device = -1;
    cudaStream_t stream = nullptr;
    ~CaptureStream() {
      if (stream != nullptr) {
        cudaStreamDestroy(stream);  // no check: at thread exit the runtime may be gone
      }
    }
  };
  thread_local CaptureStream capture;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  if (capture.device != device) {
    if (capture.stream != nullptr) {
      CUDA_CHECK(cudaStreamDestroy(capture.stream));
      capture.stream = nullptr;
    }
    CUDA_CHECK(cudaStreamCreateWithFlags(&capture.stream, cudaStreamNonBlocking));
    capture.device = device;
  }
  return capture.stream;
}

}  // namespace

bool same_run(const RunGraphKey& left, const RunGraphKey& right) {
  const DenseOperands& a = left.operands;
  const DenseOperands& b = right.operands;
  return left.device == right.device && left.output == right.output && a.rows == b.rows &&
         a.cols == b.cols && a.inner == b.inner && a.a == b.a && a.lda == b.lda &&
         a.b_transposed == b.b_transposed && a.ldb == b.ldb;
}

RunGraph::~RunGraph() {
  if (exec_ != nullptr) {
    cudaGraphExecDestroy(exec_);  // no check: a destructor must not throw
  }
}

void RunGraph::run(const RunGraphKey& key, cudaStream_t stream,
                   const std::function<void(cudaStream_t)>& queue) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  if (status != cudaStreamCaptureStatusNone) {
    queue(stream);  // the caller's own graph takes the launches
    return;
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  if (exec_ == nullptr || !same_run(key_, key)) {
    capture(key, queue);
  }
  CUDA_CHECK(cudaGraphLaunch(exec_, stream));
}

void RunGraph::capture(const RunGraphKey& key, const std::function<void(cudaStream_t)>& queue) {
  if (exec_ != nullptr) {
    // A launch still in flight finishes: the runtime frees the graph after it.
    CUDA_CHECK(cudaGraphExecDestroy(exec_));
    exec_ = nullptr;
  }
  const cudaStream_t stream = capture_stream();
  course::GraphCapture capture;  // ends the capture if queue throws
  capture.begin(stream);
  queue(stream);
  capture.finish();
  exec_ = capture.release();
  key_ = key;
}

}  // namespace course::step5
