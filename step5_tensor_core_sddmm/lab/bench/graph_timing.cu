/// @file graph_timing.cu
/// @brief time_plain_or_graph (see graph_timing.hpp).
///
/// Step 5, the benchmark (the lab): the baselines' fair timing.
/// Read first: graph_timing.hpp.
#include "step5_tensor_core_sddmm/lab/bench/graph_timing.hpp"

#include "common/cuda_check.hpp"

#include <exception>
#include <iostream>

namespace course::step5::bench {
namespace {

/// A capture's stream, graph and executable graph, freed in reverse order whatever happens.
struct GraphCapture {
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  bool capturing = false;
  GraphCapture() = default;
  GraphCapture(const GraphCapture&) = delete;
  GraphCapture& operator=(const GraphCapture&) = delete;
  ~GraphCapture() {
    // No checks: a destructor must not throw, and a failed capture is reported by its call.
    if (capturing) {
      cudaGraph_t abandoned = nullptr;
      cudaStreamEndCapture(stream, &abandoned);
      if (abandoned != nullptr) {
        cudaGraphDestroy(abandoned);
      }
      cudaGetLastError();  // the abandoned capture's error is not the next call's
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

course::TimingStats time_plain_or_graph(const std::function<void()>& work,
                                        const std::function<void(cudaStream_t)>& use_stream,
                                        int repeats) {
  const course::TimingStats plain = course::time_gpu(work, 1, repeats);
  GraphCapture capture;
  try {
    CUDA_CHECK(cudaStreamCreateWithFlags(&capture.stream, cudaStreamNonBlocking));
    use_stream(capture.stream);
    // Relaxed: the libraries' calls that are not stream work (attribute queries) stay allowed.
    CUDA_CHECK(cudaStreamBeginCapture(capture.stream, cudaStreamCaptureModeRelaxed));
    capture.capturing = true;
    work();
    capture.capturing = false;
    CUDA_CHECK(cudaStreamEndCapture(capture.stream, &capture.graph));
    use_stream(nullptr);
    CUDA_CHECK(cudaGraphInstantiate(&capture.exec, capture.graph, 0));
  } catch (const std::exception& error) {
    use_stream(nullptr);
    std::cerr << "a baseline's capture into a graph failed, timed call by call only: "
              << error.what() << "\n";
    return plain;
  }
  // Launched where approach 4's runs go in the benchmark: the default stream.
  const course::TimingStats graph =
      course::time_gpu([&] { CUDA_CHECK(cudaGraphLaunch(capture.exec, nullptr)); }, 1, repeats);
  return graph.median_ms < plain.median_ms ? graph : plain;
}

}  // namespace course::step5::bench
