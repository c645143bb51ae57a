/// @file test_streams.cpp
/// @brief GPU tests: approach 4 queues all its work on the stream its run is given, on every
/// path (full tiles, dense panels, masked tiles, lane groups, the dense product's cuBLAS GEMM
/// and gather), checked by capturing the run into a CUDA graph (common/testing/stream_capture.hpp)
/// and comparing its result with the CPU reference.
///
/// Step 5, going further, tests (lesson "Tests"). Read first: ../../tests/approach_checks.hpp
/// (check_approach and RunOn), hybrid_checks.hpp.
#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/testing/stream_capture.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <cstdint>

using namespace course::step5::testing;  // the shared checks of approach_checks.hpp

TEST_CASE("approach 4 queues every path's work on the stream it is given", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // A dense first panel, 128-blocks (full tiles), 24-blocks (masked tiles) and scattered
  // entries (lane groups), with random values.
  const course::CooMatrix mixed = with_random_values(
      pattern_of(330, 340,
                 [](int row, int col) {
                   return (row < 64 && (row + col) % 3 != 0) ||
                          (row >= 128 && row < 256 && col >= 128 && col < 256) ||
                          ((row / 24 + col / 24) % 5 == 2) || (row * 13 + col * 7) % 61 == 0;
                 }),
      seed);
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
