/// @file graph_capture.hpp
/// @brief GraphCapture: a stream's work recorded into a CUDA graph (stream capture) and made
/// executable, with everything freed in reverse order whatever happens, including a capture a
/// throwing launch left open.
///
/// Its users: step 5's RunGraph (a plan's run replayed as a graph), the step 5 benchmark's
/// baselines timed as graphs, and the tests' run_captured.
#pragma once

#include <cuda_runtime_api.h>

namespace course {

/// @brief One capture of a stream into a graph and its executable form.
///
/// begin() starts capturing (relaxed mode: calls that are not stream work, such as
/// cudaFuncSetAttribute, stay allowed); the caller queues its work on the stream; finish() ends
/// the capture and instantiates the graph. If the work throws, the destructor ends the capture
/// and frees what it made, and clears the capture's error from the runtime.
class GraphCapture {
 public:
  GraphCapture() = default;
  ~GraphCapture();
  GraphCapture(const GraphCapture&) = delete;
  GraphCapture& operator=(const GraphCapture&) = delete;

  /// @brief Starts capturing @p stream.
  /// @param stream a stream other than the legacy default stream
  void begin(cudaStream_t stream);
  /// @brief Ends the capture begun by begin() and instantiates its graph.
  /// @return the executable graph, owned by this object until release()
  cudaGraphExec_t finish();
  /// @brief Hands the executable graph to the caller, who then destroys it.
  /// @return the executable graph made by finish()
  cudaGraphExec_t release();

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
  bool capturing_ = false;
};

}  // namespace course
