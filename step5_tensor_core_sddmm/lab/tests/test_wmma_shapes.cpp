/// @file test_wmma_shapes.cpp
/// @brief GPU tests: every built variant of the WMMA shape experiment (three shapes × two
/// blocks, and the three ways of reading the note's `sparsity`) against the CPU reference SDDMM.
///
/// Step 5, tests (the lesson, approach 2's experiments): the shape experiment's kernels
/// against the CPU reference. Read first: experiments/wmma_shape_sddmm.hpp.
#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "step5_tensor_core_sddmm/lab/experiments/wmma_shape_sddmm.hpp"
#include "common/sampled_reference.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace {

using course::step5::experiments::ShapeVariant;

/// Every built variant: three shapes × two blocks without `sparsity`, and 16×16×16 × two
/// blocks with each use of the note's `sparsity`.
std::vector<ShapeVariant> built_variants() {
  std::vector<ShapeVariant> variants;
  for (const int warps_x : {1, 4}) {
    const int warps_y = warps_x == 1 ? 32 : 4;
    variants.push_back({16, 16, warps_x, warps_y, 0});
    variants.push_back({32, 8, warps_x, warps_y, 0});
    variants.push_back({8, 32, warps_x, warps_y, 0});
    variants.push_back({16, 16, warps_x, warps_y, 1});
    variants.push_back({16, 16, warps_x, warps_y, 2});
    variants.push_back({16, 16, warps_x, warps_y, 3});
    variants.push_back({16, 16, warps_x, warps_y, 4});
  }
  return variants;
}

/// Runs every variant on S with fresh random A and Bᵀ (leading dimension ld) and compares
/// with the CPU reference; the output is poisoned before each run.
void check_variants(const course::CooMatrix& s, int inner, int ld, std::uint64_t seed) {
  INFO("rows=" << s.rows << " cols=" << s.cols << " inner=" << inner << " ld=" << ld
               << " nnz=" << s.nnz() << " seed " << seed);
  const course::HostMatrix<__half> a = course::random_half_matrix(s.rows, inner, ld, seed);
  const course::HostMatrix<__half> bt = course::random_half_matrix(s.cols, inner, ld, seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_bt(bt);
  const course::step5::DenseOperands operands(course::ProductSizes{s.rows, inner, s.cols},
                                              device_a.data(), ld, device_bt.data(), ld);
  const course::step5::DevicePattern pattern(s);
  course::step5::experiments::ShapeWorkspace workspace(pattern, true);
  const auto reference = course::sddmm_reference(a, bt, s);
  for (const ShapeVariant& variant : built_variants()) {
    INFO("shape " << course::step5::experiments::shape_name(variant) << ", block "
                  << course::step5::experiments::block_name(variant) << ", sparsity "
                  << course::step5::experiments::sparsity_name(variant));
    course::DeviceBuffer<float> output(static_cast<std::size_t>(s.nnz()) + 1, "C");
    output.poison();
    workspace.sddmm(variant, operands, output.data());
    std::vector<float> got = output.to_vector();
    const std::uint32_t guard = *reinterpret_cast<const std::uint32_t*>(&got.back());
    CHECK(guard == 0xFFFFFFFFu);  // nothing written past the last nonzero
    got.pop_back();
    const auto result = course::compare_sampled(
        got, reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
    INFO(result.summary());
    CHECK(result.ok());
  }
}

}  // namespace

TEST_CASE("WMMA shape variants with sizes not multiples of the tile edges", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_variants(course::random_uniform_mask(37, 70, 500, seed), 45, 48, seed);
  check_variants(course::random_uniform_mask(100, 9, 300, seed + 2), 256, 256, seed + 3);
}

TEST_CASE("WMMA shape variants on a denser rectangular S", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_variants(course::random_uniform_mask(130, 300, 9000, seed), 64, 64, seed);
}

TEST_CASE("WMMA shape experiment refuses a variant that is not built", "[step5][gpu]") {
  const course::CooMatrix s = course::random_uniform_mask(32, 32, 10, 1);
  const course::step5::DevicePattern pattern(s);
  const course::DeviceMatrix<__half> a(32, 16);
  const course::step5::DenseOperands operands(course::ProductSizes{32, 16, 32}, a.data(), 16,
                                              a.data(), 16);
  course::step5::experiments::ShapeWorkspace without_s(pattern, false);
  CHECK_THROWS_AS(without_s.product({16, 16, 4, 4, 1}, operands), std::invalid_argument);
  course::step5::experiments::ShapeWorkspace workspace(pattern, true);
  CHECK_THROWS_AS(workspace.product({32, 8, 4, 4, 1}, operands), std::invalid_argument);
  CHECK_THROWS_AS(workspace.product({16, 16, 2, 8, 0}, operands), std::invalid_argument);
}
