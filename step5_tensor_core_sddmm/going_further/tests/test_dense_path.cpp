/// @file test_dense_path.cpp
/// @brief GPU tests of approach 4's dense path on its own: cuBLAS's GEMM and the gather by
/// 64×64 tiles (dense_product_gather.cuh) against the CPU reference (double accumulation, fresh
/// random inputs, the output poisoned first), S with values and as a pattern, cut by the
/// edges, with blocks that straddle the tiles and with repeated positions; and the baseline's
/// gather by entries.
///
/// Step 5, tests (going further): the dense path.
/// Read first: approach_checks.hpp, then going_further/dense_product_path.hpp.
#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sampled_reference.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>

using namespace course::step5::testing;  // the shared checks of approach_checks.hpp

namespace {

/// The dense path on its own (GEMM and gather), its output poisoned first, against the CPU
/// reference; S uploaded with its values, or as a pattern when every value is one. Returns
/// whether the path gathered by tiles.
bool check_dense_path(const course::CooMatrix& s, int inner, std::uint64_t seed) {
  const HalfOperands inputs(s.rows, s.cols, inner, inner, seed);
  const bool ones =
      std::all_of(s.values.begin(), s.values.end(), [](float v) { return v == 1.0f; });
  const auto pattern = ones ? std::make_unique<course::step5::DevicePattern>(
                                  course::coo_to_csr(s), course::PatternValues::all_ones)
                            : std::make_unique<course::step5::DevicePattern>(s);
  REQUIRE(pattern->unit_values() == ones);
  course::step5::PanelStatistics measured;
  const course::step5::DenseProductPath dense(*pattern,
                                              course::step5::panel_statistics(*pattern, measured));
  course::DeviceBuffer<float> output(s.nnz(), "C");
  output.poison();
  dense.run(inputs.operands, *pattern, output.data());
  const auto reference = course::sddmm_reference(inputs.a, inputs.bt, s);
  const auto result = course::compare_sampled(
      output.to_vector(), reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
  return dense.gathers_by_tiles();
}

}  // namespace

TEST_CASE("dense path GEMM and gather by tiles match the reference", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  for (const int inner : {1, 17, 64, 100}) {
    // 190 x 130: the last panel and the last column block cut by the edges.
    const course::CooMatrix s = block_mask(190, 130, 16, 0.5, true, seed + inner);
    INFO("inner=" << inner << " seed " << seed);
    CHECK(check_dense_path(s, inner, seed));
    course::CooMatrix ones = s;
    std::fill(ones.values.begin(), ones.values.end(), 1.0f);
    CHECK(check_dense_path(ones, inner, seed));
  }
  // Every position, and blocks of 24 that straddle the 64-column blocks.
  CHECK(check_dense_path(
      with_random_values(pattern_of(130, 200, [](int, int) { return true; }), seed), 64, seed));
  CHECK(check_dense_path(block_mask(300, 270, 24, 0.3, false, seed), 40, seed));
}

TEST_CASE("dense path gathers rows with repeated positions entry by entry", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::CooMatrix s = block_mask(200, 150, 16, 0.4, false, seed);
  // Positions held twice (S allows it), in the first row and further on: those rows' counts
  // pass their masks' bits.
  for (const std::size_t at : {std::size_t{0}, s.nnz() / 2, s.nnz() / 2 + 1, s.nnz() - 1}) {
    s.row_indices.insert(s.row_indices.begin() + at, s.row_indices[at]);
    s.col_indices.insert(s.col_indices.begin() + at, s.col_indices[at]);
    s.values.insert(s.values.begin() + at, -1.5f);
  }
  CHECK(check_dense_path(s, 64, seed));
  std::fill(s.values.begin(), s.values.end(), 1.0f);
  CHECK(check_dense_path(s, 17, seed));
}

TEST_CASE("the baseline's gather by entries matches the reference", "[gpu]") {
  // gather_at_pattern: one thread per entry, as the bench's dense-then-sample runs it.
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const course::CooMatrix s = block_mask(190, 130, 16, 0.5, true, seed);
  const int inner = 48;
  const HalfOperands inputs(s.rows, s.cols, inner, inner, seed);
  const course::step5::DevicePattern pattern(s);
  course::DeviceBuffer<float> product(static_cast<std::size_t>(s.rows) * s.cols, "product");
  cublasHandle_t handle = nullptr;
  REQUIRE(cublasCreate(&handle) == CUBLAS_STATUS_SUCCESS);
  course::step5::dense_product_fp16(handle, inputs.operands, product.data());
  cublasDestroy(handle);
  course::DeviceBuffer<float> output(s.nnz(), "C");
  output.poison();
  course::step5::gather_at_pattern(product.data(), s.cols, pattern, output.data());
  const auto result =
      course::compare_sampled(output.to_vector(), course::sddmm_reference(inputs.a, inputs.bt, s),
                              s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
}
