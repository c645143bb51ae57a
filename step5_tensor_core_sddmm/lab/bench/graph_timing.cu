/// @file graph_timing.cu
/// @brief time_plain_or_graph (see graph_timing.hpp).
///
/// Step 5, the benchmark (the lab): the baselines' fair timing.
/// Read first: graph_timing.hpp.
#include "step5_tensor_core_sddmm/lab/bench/graph_timing.hpp"

#include "common/cuda_check.hpp"
#include "common/graph_capture.hpp"

#include <exception>
#include <iostream>

namespace course::step5::bench {

course::TimingStats time_plain_or_graph(const std::function<void()>& work,
                                        const std::function<void(cudaStream_t)>& use_stream,
                                        int repeats) {
  const course::TimingStats plain = course::time_gpu(work, 1, repeats);
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraphExec_t exec = nullptr;
  try {
    use_stream(stream);
    course::GraphCapture capture;  // ends the capture before the handler below, if work throws
    capture.begin(stream);
    work();
    capture.finish();
    exec = capture.release();
    use_stream(nullptr);
  } catch (const std::exception& error) {
    use_stream(nullptr);
    cudaStreamDestroy(stream);  // no check: the capture's error is being reported
    std::cerr << "a baseline's capture into a graph failed, timed call by call only: "
              << error.what() << "\n";
    return plain;
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
  // Launched where approach 4's runs go in the benchmark: the default stream.
  const course::TimingStats graph =
      course::time_gpu([&] { CUDA_CHECK(cudaGraphLaunch(exec, nullptr)); }, 1, repeats);
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  return graph.median_ms < plain.median_ms ? graph : plain;
}

}  // namespace course::step5::bench
