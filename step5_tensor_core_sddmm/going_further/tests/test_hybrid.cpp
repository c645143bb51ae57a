/// @file test_hybrid.cpp
/// @brief GPU tests of approach 4: Tensor Core panels, lane groups, both mixed, band spans,
/// runs of nonzeros per block, and a pattern uploaded from CSR.
///
/// Step 5, tests (lesson "Tests"): approach 4, every path of its two kernels.
/// Read first: approach_checks.hpp, then going_further/README.md (what each path is).
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using namespace course::step5::testing;  // the shared checks and matrices of approach_checks.hpp

TEST_CASE("approach 4 mixes Tensor Core panels and CUDA-core rows", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Rows 0..31 dense (50 %), the rest very sparse: both kernels of approach 4 run.
  const course::CooMatrix s = stack_rows(course::random_uniform_mask(32, 200, 3200, seed),
                                         course::random_uniform_mask(70, 200, 60, seed + 1), 2.0f);
  for (const int lanes : {4, 8, 16, 32}) {
    course::step5::HybridOptions options = panels64();
    options.group_lanes = lanes;
    options.tc_min_nnz = 0;  // Tensor Cores even for this small S
    check_hybrid(s, 72, 72, seed, options);
    check_hybrid(s, 37, 37, seed, options);
  }
  course::step5::HybridOptions never = panels64();
  never.tc_density = 1.0;
  check_hybrid(s, 72, 72, seed, never);
}

TEST_CASE("approach 4 all-dense Tensor Core panels with inner sizes 1 7 100 and 256",
          "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 130 x 150 at 30 %: every 64-row panel (the last one has 2 rows) goes to
  // sddmm_dense_panels_kernel and the lane-group kernel is not launched at all.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(130, 150, 5850, seed), seed);
  course::step5::HybridOptions tensor_cores = panels64();
  tensor_cores.tc_min_nnz = 0;  // Tensor Cores even for this small S
  for (const int inner : {1, 7, 100, 256}) {
    // ld = inner: vector loads when inner % 8 == 0; ld = inner + 3: scalar loads.
    check_hybrid(s, inner, inner, seed, tensor_cores);
    check_hybrid(s, inner, inner + 3, seed, tensor_cores);
  }
  // Positions held twice (S allows it), in panel 0 and further on: those rows' masks count
  // fewer columns than their entries, and the copy-out takes them entry by entry.
  course::CooMatrix repeated = s;
  for (const std::size_t at : {std::size_t{5}, s.nnz() / 2, s.nnz() / 2 + 1}) {
    repeated.row_indices.insert(repeated.row_indices.begin() + at, repeated.row_indices[at]);
    repeated.col_indices.insert(repeated.col_indices.begin() + at, repeated.col_indices[at]);
    repeated.values.insert(repeated.values.begin() + at, -1.5f);
  }
  check_hybrid(repeated, 100, 100, seed, tensor_cores);
  check_hybrid(repeated, 256, 256, seed, tensor_cores);
  // A tiny matrix like karate (34 x 34, 156 nonzeros): one launch, either kernel.
  const course::CooMatrix tiny =
      with_random_values(course::random_uniform_mask(34, 34, 156, seed + 1), seed + 1);
  for (const int inner : {1, 7, 100, 256}) {
    check_hybrid(tiny, inner, inner, seed, tensor_cores);
    check_hybrid(tiny, inner, inner,
                 seed);  // default: lane groups
  }
}

TEST_CASE("approach 4 sparse rows checked on the GPU with inner sizes 1 7 100 and 256",
          "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 6000 nonzeros: more than the host-check limit, so S is validated and counted on the GPU;
  // every panel is far below the Tensor Core density: lane groups only.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(3000, 2000, 6000, seed), seed);
  for (const int inner : {1, 7, 100, 256}) {
    check_hybrid(s, inner, inner, seed);
    check_hybrid(s, inner, inner + 3, seed);
  }
}

TEST_CASE("approach 4 mixes dense panels and sparse rows checked on the GPU", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Rows 0..127 at 20 % (two dense panels), rows 128..299 very sparse, 10 000+ nonzeros.
  course::CooMatrix s = stack_rows(course::random_uniform_mask(128, 400, 10240, seed),
                                   course::random_uniform_mask(172, 400, 300, seed + 1), 1.0f);
  s = with_random_values(s, seed);
  course::step5::HybridOptions options = panels64();
  options.tc_min_nnz = 0;  // Tensor Cores even for this small S
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridPlan plan(pattern, 100, options);
  CHECK(plan.tensor_core_units() == 2);
  const course::step5::HybridPlan default_plan(pattern, 100, panels64());
  CHECK(default_plan.tensor_core_units() == 0);  // below the default tc_min_nnz
  for (const int inner : {1, 7, 100, 256}) {
    check_hybrid(s, inner, inner, seed, options);
  }
}

TEST_CASE("approach 4 lane groups with several runs of nonzeros per block", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 5000 nonzeros: with 64 groups per block the last block's runs are partly past the end.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(700, 900, 5000, seed), seed);
  for (const int iterations : {1, 3, 8}) {
    for (const int lanes : {4, 32}) {
      course::step5::HybridOptions options = panels64();
      options.lane_iterations = iterations;
      options.group_lanes = lanes;
      check_hybrid(s, 100, 100, seed, options);
      check_hybrid(s, 7, 7, seed, options);
    }
  }
}

TEST_CASE("approach 4 Tensor Core panels over the band of a banded matrix", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::step5::HybridOptions options = panels64();
  options.tc_min_nnz = 0;  // Tensor Cores even for these small matrices
  // 300 rows: 5 panels, each spanning 3 column blocks from block 2 on (about 20 % dense
  // there, 0.5 % over all 2000 columns). Row 70's far entry spreads panel 1 over columns
  // 192..1999: 2.3 % dense, so its rows go to the lane groups.
  const course::CooMatrix banded = with_random_values(band_matrix(300, 2000, 200, true), seed);
  {
    const course::step5::DevicePattern pattern(banded);
    CHECK(course::step5::HybridPlan(pattern, 64, options).tensor_core_units() == 4);
    const course::step5::PanelPattern from_csr(course::coo_to_csr(banded));
    CHECK(course::step5::HybridPlan(from_csr, 64, options).tensor_core_units() == 4);
  }
  for (const int inner : {7, 100, 256}) {
    check_hybrid(banded, inner, inner, seed, options);
  }
  check_csr_upload(banded, course::PatternValues::upload, 100, seed);
  // The same band as a pattern: both kernels of approach 4 then read no values.
  check_csr_upload(band_matrix(300, 2000, 200, true), course::PatternValues::all_ones, 100, seed);
  // The band leaves through the last, partial column block (cols = 500), and a small S whose
  // panels and spans are found on the host (90 rows, under 4096 nonzeros).
  check_hybrid(with_random_values(band_matrix(300, 500, 200, true), seed), 100, 100, seed, options);
  const course::CooMatrix small = band_matrix(90, 700, 300, false);
  REQUIRE(small.nnz() <= 4096);
  {
    const course::step5::DevicePattern pattern(small);
    CHECK(course::step5::HybridPlan(pattern, 64, options).tensor_core_units() == 2);
  }
  check_hybrid(with_random_values(small, seed), 100, 100, seed, options);
}

TEST_CASE("a pattern uploaded from CSR gives the same results as from COO", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Large (checked on the GPU, with empty rows) and small (checked on the host).
  for (const std::size_t nnz : {std::size_t{9000}, std::size_t{300}}) {
    const course::CooMatrix mask = course::random_uniform_mask(1000, 700, nnz, seed);
    check_csr_upload(mask, course::PatternValues::all_ones, 100, seed);
    check_csr_upload(with_random_values(mask, seed), course::PatternValues::upload, 100, seed);
  }
  // Dense 64-row panels: the Tensor Core part of approach 4 also reads the rebuilt rows.
  course::CooMatrix dense;
  dense.rows = 130;
  dense.cols = 96;
  for (int row = 0; row < dense.rows; ++row) {
    for (int col = 0; col < dense.cols; ++col) {
      dense.row_indices.push_back(row);
      dense.col_indices.push_back(col);
      dense.values.push_back(1.0f);
    }
  }
  check_csr_upload(with_random_values(dense, seed), course::PatternValues::upload, 32, seed);
  check_csr_upload(dense, course::PatternValues::all_ones, 32, seed);
}

TEST_CASE("approach 4 plan refuses bad options and operands of another shape", "[step5][gpu]") {
  const course::CooMatrix s = course::random_uniform_mask(20, 20, 10, course::fresh_seed());
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridPlan plan(pattern, 16);
  course::DeviceBuffer<__half> a(21 * 16);
  course::DeviceBuffer<float> output(10);
  const course::step5::DenseOperands wrong(course::ProductSizes{21, 16, 20}, a.data(), 16, a.data(),
                                           16);
  CHECK_THROWS_WITH(plan.run(wrong, output.data()), Catch::Contains("S is 20x20"));
  course::step5::HybridOptions bad = panels64();
  bad.tc_density = 0.0;
  CHECK_THROWS_AS(course::step5::HybridPlan(pattern, 16, bad), std::invalid_argument);
  bad = {};
  bad.lane_iterations = -1;
  CHECK_THROWS_WITH(course::step5::HybridPlan(pattern, 16, bad),
                    Catch::Contains("lane_iterations"));
  bad = {};
  bad.group_lanes = 3;
  const course::step5::HybridPlan odd(pattern, 16, bad);
  const course::step5::DenseOperands right(course::ProductSizes{20, 16, 20}, a.data(), 16, a.data(),
                                           16);
  CHECK_THROWS_WITH(odd.run(right, output.data()), Catch::Contains("4, 8, 16 or 32"));
  CHECK(course::step5::hybrid_approach().name.find("hybrid") != std::string::npos);
  CHECK(course::step5::hybrid_approach().number == course::step5::kHybridApproach);
}
