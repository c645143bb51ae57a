/// @file test_sampled_reference.cpp
/// @brief CPU tests of the sampled product's reference (sampled_reference.hpp): worked
/// examples, magnitudes, refused shapes, the comparison and the random half operands.
#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"
#include "common/sampled_reference.hpp"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <vector>

namespace {

course::HostMatrix<__half> half_matrix(int rows, int cols, std::initializer_list<float> values) {
  course::HostMatrix<__half> matrix(rows, cols);
  int index = 0;
  for (const float value : values) {
    matrix(index / cols, index % cols) = __float2half(value);
    ++index;
  }
  return matrix;
}

}  // namespace

TEST_CASE("reference SDDMM on a hand-computed example", "[common][reference]") {
  // A = [1 2; 3 4; 5 6] (3x2), Bt = [1 0; 0 1; 1 1] (3x2): A·B(i,j) = dot(A row i, Bt row j).
  const auto a = half_matrix(3, 2, {1, 2, 3, 4, 5, 6});
  const auto bt = half_matrix(3, 2, {1, 0, 0, 1, 1, 1});
  course::CooMatrix s;
  s.rows = 3;
  s.cols = 3;
  s.row_indices = {0, 1, 2, 2};
  s.col_indices = {2, 0, 1, 2};
  s.values = {1.0f, 2.0f, -1.0f, 0.5f};
  const course::SampledReference reference = course::sddmm_reference(a, bt, s);
  REQUIRE(reference.value.size() == 4);
  CHECK(reference.value[0] == 3.0);   // 1·(1+2)
  CHECK(reference.value[1] == 6.0);   // 2·3
  CHECK(reference.value[2] == -6.0);  // -1·6
  CHECK(reference.value[3] == 5.5);   // 0.5·11
  CHECK(reference.magnitude[2] == 6.0);
}

TEST_CASE("reference SDDMM magnitude sums absolute products", "[common][reference]") {
  const auto a = half_matrix(1, 2, {1, -2});
  const auto bt = half_matrix(1, 2, {3, 4});
  course::CooMatrix s;
  s.rows = 1;
  s.cols = 1;
  s.row_indices = {0};
  s.col_indices = {0};
  s.values = {-2.0f};
  const auto reference = course::sddmm_reference(a, bt, s);
  CHECK(reference.value[0] == 10.0);      // -2·(3 - 8)
  CHECK(reference.magnitude[0] == 22.0);  // 2·(3 + 8)
}

TEST_CASE("reference SDDMM refuses mismatched shapes", "[common][reference]") {
  const auto a = half_matrix(2, 3, {});
  const auto bt = half_matrix(4, 2, {});
  course::CooMatrix s;
  s.rows = 2;
  s.cols = 4;
  CHECK_THROWS_AS(course::sddmm_reference(a, bt, s), std::invalid_argument);
}

TEST_CASE("compare_sampled flags NaN and errors beyond the tolerance", "[common][reference]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const auto a = course::random_half_matrix(4, 8, 0, seed);
  const auto bt = course::random_half_matrix(5, 8, 0, seed + 1);
  course::CooMatrix s;
  s.rows = 4;
  s.cols = 5;
  s.row_indices = {0, 1, 3};
  s.col_indices = {4, 0, 2};
  s.values = {1.0f, 1.0f, 1.0f};
  const auto reference = course::sddmm_reference(a, bt, s);
  std::vector<float> got(reference.value.begin(), reference.value.end());
  const auto tolerance = course::Tolerance::tensor_core_fp32_accumulation(8);
  CHECK(course::compare_sampled(got, reference, s, tolerance).ok());
  got[1] = std::numeric_limits<float>::quiet_NaN();
  got[2] += 0.5f;
  const auto result = course::compare_sampled(got, reference, s, tolerance);
  CHECK(result.mismatches == 2);
  REQUIRE(!result.first.empty());
  CHECK(result.first[0].row == 1);
  CHECK(result.first[0].col == 0);
  CHECK_THROWS_AS(course::compare_sampled({1.0f}, reference, s, tolerance), std::invalid_argument);
}

TEST_CASE("random half matrices are rounded values in range with zero padding",
          "[common][reference]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const auto matrix = course::random_half_matrix(7, 5, 8, seed);
  bool varied = false;
  for (int row = 0; row < 7; ++row) {
    for (int col = 0; col < 8; ++col) {
      const float value = __half2float(matrix(row, col));
      if (col >= 5) {
        CHECK(value == 0.0f);
      } else {
        CHECK(value >= -1.0f);
        CHECK(value <= 1.0f);
        varied = varied || value != __half2float(matrix(0, 0));
      }
    }
  }
  CHECK(varied);
}
