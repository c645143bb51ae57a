/// @file run_graph.hpp
/// @brief RunGraph: a plan's launches captured once into a CUDA graph and replayed, so that a
/// run costs the host one call (cudaGraphLaunch), however many kernels it runs side by side,
/// instead of each kernel's launch and the fork and join between the streams.
///
/// Why: on a small mask approach 4's kernels finish in a few microseconds, and the run's time is
/// mostly the host queuing them one call after another while the GPU waits for the next. A graph
/// queues them all at once, and the GPU starts the side streams' kernels itself. Even one kernel
/// starts sooner from a graph's launch than from its own, and the dense path's cuBLAS call
/// chooses its GEMM on the host at every call, not once in a graph.
///
/// Step 5, approach 4 (going further): the plan's launches as one graph.
/// Read first: parallel_launches.hpp (the streams the captured launches use), hybrid_plan.hpp
/// (its user).
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_runtime.h>

#include <functional>
#include <mutex>

namespace course::step5 {

/// @brief What a captured run's kernels were given, beyond the plan's own tables: a graph
/// replays only a run with the same device, operands and output.
struct RunGraphKey {
  int device = -1;          ///< the device the graph was captured on
  DenseOperands operands;   ///< A and Bᵀ: pointers, sizes and leading dimensions
  float* output = nullptr;  ///< the output array
};

/// @brief Whether two keys name the same run arguments (every field equal).
/// @param left a key
/// @param right another key
/// @return true when a graph captured for one replays the other
bool same_run(const RunGraphKey& left, const RunGraphKey& right);

/// @brief One plan's run as an executable CUDA graph, captured on the first run and again
/// whenever the run's arguments change, then replayed.
///
/// The graph holds the kernels' arguments as they were at capture: the plan's tables (fixed for
/// the plan's life), S, and the key's operands and output. The data they point to may change
/// between runs; the pointers may not, so a run with other pointers captures anew.
/// Thread-safe: a mutex orders the runs of one RunGraph.
class RunGraph {
 public:
  RunGraph() = default;
  ~RunGraph();
  RunGraph(const RunGraph&) = delete;
  RunGraph& operator=(const RunGraph&) = delete;

  /// @brief Queues one run on @p stream as the graph captured for @p key, capturing
  /// @p queue's launches first when the key is new. When @p stream is itself being captured
  /// (the caller is building a graph of its own), calls @p queue on @p stream instead.
  /// @param key the run's device, operands and output
  /// @param stream the caller's stream (nullptr: the default stream)
  /// @param queue queues the run's launches on the stream it is given (and on side streams
  /// forked from it and joined back, parallel_launches.hpp); it must not synchronise
  void run(const RunGraphKey& key, cudaStream_t stream,
           const std::function<void(cudaStream_t)>& queue);

 private:
  /// Captures @p queue's launches on a private stream and instantiates them for @p key.
  void capture(const RunGraphKey& key, const std::function<void(cudaStream_t)>& queue);

  std::mutex mutex_;                ///< orders capture and replay
  RunGraphKey key_;                 ///< the arguments of the graph in exec_
  cudaGraphExec_t exec_ = nullptr;  ///< the captured run, or none yet
};

}  // namespace course::step5
