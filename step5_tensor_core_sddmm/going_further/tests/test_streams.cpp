/// @file test_streams.cpp
/// @brief GPU tests: approach 4 queues all its work on the stream its run is given, on every
/// path (full tiles, dense panels, masked tiles, lane groups, the dense product's cuBLAS GEMM
/// and gather), checked by capturing the run into a CUDA graph (common/testing/stream_capture.hpp)
/// and comparing its result with the CPU reference; and ParallelLaunches' fork and join, read from
/// the graph a capture of them builds.
///
/// Step 5, going further, tests (lesson "Tests"). Read first: ../../tests/approach_checks.hpp
/// (check_approach and RunOn), hybrid_checks.hpp.
#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/testing/stream_capture.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/parallel_launches.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include "common/cuda_check.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace course::step5::testing;  // the shared checks of approach_checks.hpp

TEST_CASE("approach 4 queues every path's work on the stream it is given", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Every path's entries (a dense panel, full tiles, masked tiles, lane groups).
  const course::CooMatrix mixed = every_path_mask(seed);
  for (const int inner : {16, 64, 256}) {
    check_hybrid(mixed, inner, inner, seed, eager_combined(), RunOn::captured_stream);
    check_hybrid(mixed, inner, inner, seed, eager_masked_tiles(), RunOn::captured_stream);
    check_hybrid(mixed, inner, inner, seed, {}, RunOn::captured_stream);  // the defaults
  }
  // The dense path (masked tiles only, no tile allowed: the model takes the dense product).
  course::step5::HybridOptions dense;
  dense.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  dense.masked.min_entries = 257;
  const course::CooMatrix full = pattern_of(512, 512, [](int, int) { return true; });
  const course::step5::DevicePattern pattern(full);
  REQUIRE(course::step5::HybridPlan(pattern, 256, dense).masked_figures().dense_path);
  check_hybrid(full, 256, 256, seed, dense, RunOn::captured_stream);
  check_hybrid(with_random_values(full, seed), 256, 264, seed, dense, RunOn::captured_stream);
}

namespace {

/// cudaGraphNodeGetDependencies, whose CUDA 13 form also takes the edges' data (unused here).
cudaError_t node_dependencies(cudaGraphNode_t node, cudaGraphNode_t* found, std::size_t* count) {
#if CUDART_VERSION >= 13000
  return cudaGraphNodeGetDependencies(node, found, nullptr, count);
#else
  return cudaGraphNodeGetDependencies(node, found, count);
#endif
}

/// The nodes that @p node waits for in its graph.
std::vector<cudaGraphNode_t> dependencies_of(cudaGraphNode_t node) {
  std::size_t count = 0;
  CUDA_CHECK(node_dependencies(node, nullptr, &count));
  std::vector<cudaGraphNode_t> found(count);
  if (count > 0) {
    CUDA_CHECK(node_dependencies(node, found.data(), &count));
  }
  return found;
}

/// A graph and the stream it was captured from, freed at the end of the test.
struct CapturedGraph {
  cudaStream_t stream = nullptr;
  cudaGraph_t graph = nullptr;
  CapturedGraph() { CUDA_CHECK(cudaStreamCreate(&stream)); }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
  ~CapturedGraph() {
    if (graph != nullptr) {
      cudaGraphDestroy(graph);
    }
    cudaStreamDestroy(stream);
  }
};

}  // namespace

TEST_CASE("ParallelLaunches forks from the caller's stream and joins back into it",
          "[step5][gpu]") {
  using course::step5::ParallelLaunches;
  course::DeviceBuffer<int> flags(4, "the test's flags");
  CapturedGraph captured;
  {
    ParallelLaunches warm(captured.stream);  // the thread's side streams, made before capture
    warm.join();
  }
  // Captured, each memset becomes a node whose dependencies are what the streams ordered.
  CUDA_CHECK(cudaStreamBeginCapture(captured.stream, cudaStreamCaptureModeRelaxed));
  CUDA_CHECK(cudaMemsetAsync(flags.data(), 0, 4 * sizeof(int), captured.stream));  // before
  ParallelLaunches launches(captured.stream);
  cudaStream_t streams[3] = {};
  for (int kernel = 0; kernel < 3; ++kernel) {
    streams[kernel] = launches.next();
    CUDA_CHECK(cudaMemsetAsync(flags.data() + kernel, 1, sizeof(int), streams[kernel]));
  }
  launches.join();
  CUDA_CHECK(cudaMemsetAsync(flags.data() + 3, 1, sizeof(int), captured.stream));  // after
  CUDA_CHECK(cudaStreamEndCapture(captured.stream, &captured.graph));  // fails if unjoined

  CHECK(streams[0] == captured.stream);  // the first kernel stays on the caller's stream
  CHECK(streams[1] != captured.stream);
  CHECK(streams[2] != captured.stream);
  CHECK(streams[1] != streams[2]);
  std::size_t count = 0;
  CUDA_CHECK(cudaGraphGetNodes(captured.graph, nullptr, &count));
  REQUIRE(count == 5);
  std::size_t root_count = 0;
  CUDA_CHECK(cudaGraphGetRootNodes(captured.graph, nullptr, &root_count));
  REQUIRE(root_count == 1);  // the memset before the run: everything follows it
  std::vector<cudaGraphNode_t> roots(root_count);
  CUDA_CHECK(cudaGraphGetRootNodes(captured.graph, roots.data(), &root_count));
  std::vector<cudaGraphNode_t> nodes(count);
  CUDA_CHECK(cudaGraphGetNodes(captured.graph, nodes.data(), &count));
  int joined = 0;
  for (cudaGraphNode_t node : nodes) {
    const std::vector<cudaGraphNode_t> waits_for = dependencies_of(node);
    if (node == roots[0]) {
      continue;
    }
    if (waits_for.size() == 3) {
      ++joined;  // the memset after the run waits for all three kernels' nodes
    } else {
      CHECK(waits_for == std::vector<cudaGraphNode_t>{roots[0]});  // each kernel: the fork only
    }
  }
  CHECK(joined == 1);
  // A run has at most four kernels.
  ParallelLaunches too_many(captured.stream);
  for (int kernel = 0; kernel < 1 + course::step5::kMaxSideStreams; ++kernel) {
    static_cast<void>(too_many.next());
  }
  CHECK_THROWS_AS(too_many.next(), std::logic_error);
  too_many.join();
}
