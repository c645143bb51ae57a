/// @file test_run_graph.cpp
/// @brief GPU tests: RunGraph captures a run once per set of arguments and replays it, queues
/// the work itself on a stream the caller is capturing, and leaves no capture open when a launch
/// throws; approach 4 run as a graph (several kernels side by side, and the dense path's cuBLAS
/// GEMM and gather) gives the CPU reference's result on a second output, and again after A's
/// values change in place.
///
/// Step 5, going further, tests (lesson "Tests"). Read first: ../run_graph.hpp,
/// hybrid_checks.hpp.
#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/run_graph.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

using namespace course::step5::testing;  // HalfOperands, every_path_mask, pattern_of

namespace {

/// A key for @p output on the current device (the operands are left empty: RunGraph only
/// compares them).
course::step5::RunGraphKey key_for(float* output) {
  course::step5::RunGraphKey key;
  CUDA_CHECK(cudaGetDevice(&key.device));
  key.output = output;
  return key;
}

/// Whether every int of @p flags holds @p byte in each of its bytes.
bool all_bytes(const course::DeviceBuffer<int>& flags, unsigned char byte) {
  const int expected = static_cast<int>(0x01010101u * byte);
  for (const int flag : flags.to_vector()) {
    if (flag != expected) {
      return false;
    }
  }
  return true;
}

/// A run of approach 4 against the CPU reference: @p output poisoned, the plan run, compared.
void check_run(const course::step5::HybridPlan& plan, const HalfOperands& inputs,
               const course::CooMatrix& s, int inner, course::DeviceBuffer<float>& output) {
  output.poison();
  plan.run(inputs.operands, output.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto reference = course::sddmm_reference(inputs.a, inputs.bt, s);
  const auto result = course::compare_sampled(
      output.to_vector(), reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
}

}  // namespace

TEST_CASE("RunGraph captures a run once for the same arguments and replays it", "[step5][gpu]") {
  course::DeviceBuffer<int> flags(64, "the test's flags");
  float* const first_output = reinterpret_cast<float*>(flags.data());
  float* const second_output = first_output + 1;
  int captures = 0;
  const auto queue = [&](cudaStream_t stream) {
    ++captures;
    CUDA_CHECK(cudaMemsetAsync(flags.data(), 1, flags.bytes(), stream));
  };
  course::step5::RunGraph graph;
  flags.zero();
  graph.run(key_for(first_output), nullptr, queue);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(captures == 1);
  CHECK(all_bytes(flags, 1));  // the graph ran the captured memset

  flags.zero();
  graph.run(key_for(first_output), nullptr, queue);  // the same arguments: replayed
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(captures == 1);
  CHECK(all_bytes(flags, 1));

  graph.run(key_for(second_output), nullptr, queue);  // another output: captured anew
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(captures == 2);
}

TEST_CASE("RunGraph queues the work itself on a stream its caller captures", "[step5][gpu]") {
  course::DeviceBuffer<int> flags(16, "the test's flags");
  int calls = 0;
  course::step5::RunGraph graph;
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  flags.zero();
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  graph.run(key_for(nullptr), stream, [&](cudaStream_t given) {
    ++calls;
    CHECK(given == stream);  // not a capture of its own inside the caller's
    CUDA_CHECK(cudaMemsetAsync(flags.data(), 2, flags.bytes(), given));
  });
  cudaGraph_t captured = nullptr;
  CUDA_CHECK(cudaStreamEndCapture(stream, &captured));
  std::size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(captured, nullptr, &nodes));
  CHECK(nodes == 1);  // the memset, in the caller's graph
  CHECK(calls == 1);
  CHECK(all_bytes(flags, 0));  // captured, not run
  CUDA_CHECK(cudaGraphDestroy(captured));
  CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_CASE("RunGraph closes its capture when a launch throws", "[step5][gpu]") {
  course::DeviceBuffer<int> flags(16, "the test's flags");
  course::step5::RunGraph graph;
  const auto throwing = [&](cudaStream_t stream) {
    CUDA_CHECK(cudaMemsetAsync(flags.data(), 3, flags.bytes(), stream));
    throw std::invalid_argument("a launch's check failed");
  };
  CHECK_THROWS_AS(graph.run(key_for(nullptr), nullptr, throwing), std::invalid_argument);
  // The thread's capture stream is usable again: the next capture and its replay work.
  flags.zero();
  graph.run(key_for(nullptr), nullptr, [&](cudaStream_t stream) {
    CUDA_CHECK(cudaMemsetAsync(flags.data(), 4, flags.bytes(), stream));
  });
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(all_bytes(flags, 4));
}

namespace {

/// Runs approach 4's plan for S with @p options four times against the CPU reference: captured,
/// replayed, captured for a second output, and replayed after A's values change in place (the
/// graph holds pointers, not data).
void check_replays(const course::CooMatrix& s, int inner,
                   const course::step5::HybridOptions& options, std::uint64_t seed) {
  INFO("inner " << inner);
  HalfOperands inputs(s.rows, s.cols, inner, inner, seed);
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridPlan plan(pattern, inner, options);
  INFO(plan.describe());
  course::DeviceBuffer<float> first(s.nnz(), "the first C");
  course::DeviceBuffer<float> second(s.nnz(), "the second C");
  check_run(plan, inputs, s, inner, first);   // captured
  check_run(plan, inputs, s, inner, first);   // replayed
  check_run(plan, inputs, s, inner, second);  // captured for the second output
  inputs.a = course::random_half_matrix(s.rows, inner, inner, seed + 7);
  CUDA_CHECK(cudaMemcpy(inputs.device_a.data(), inputs.a.data(), inputs.a.size() * sizeof(__half),
                        cudaMemcpyHostToDevice));
  check_run(plan, inputs, s, inner, second);  // replayed on the new values
}

}  // namespace

TEST_CASE("approach 4 as a graph gives the reference again on a second output and new values",
          "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Every path's entries: several kernels side by side.
  const course::CooMatrix mixed = every_path_mask(seed);
  for (const int inner : {64, 136}) {
    const course::step5::DevicePattern pattern(mixed);
    REQUIRE(course::step5::HybridPlan(pattern, inner, eager_combined()).masked_figures().launches >=
            2);
    check_replays(mixed, inner, eager_combined(), seed);
  }
  // The dense path (no masked tile allowed): cuBLAS's GEMM and the gather in the graph.
  course::step5::HybridOptions dense;
  dense.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  dense.masked.min_entries = 257;
  const course::CooMatrix full =
      with_random_values(pattern_of(512, 512, [](int, int) { return true; }), seed);
  const course::step5::DevicePattern pattern(full);
  REQUIRE(course::step5::HybridPlan(pattern, 256, dense).masked_figures().dense_path);
  check_replays(full, 256, dense, seed);
}
