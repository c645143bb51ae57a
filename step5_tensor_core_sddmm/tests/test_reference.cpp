/// @file test_reference.cpp
/// @brief CPU tests of step 5: the reference SDDMM, the comparison, the fragment map's
/// algebra and the argument checks (no GPU needed).
///
/// Step 5, tests (lesson "Tests"): the CPU reference, the fragment maps, the argument checks.
/// Read first: sddmm_reference.hpp, fragment_map.cuh.
#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"
#include "step5_tensor_core_sddmm/fragment_map.cuh"
#include "step5_tensor_core_sddmm/sddmm_reference.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
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

TEST_CASE("reference SDDMM on a hand-computed example", "[step5]") {
  // A = [1 2; 3 4; 5 6] (3x2), Bt = [1 0; 0 1; 1 1] (3x2): A·B(i,j) = dot(A row i, Bt row j).
  const auto a = half_matrix(3, 2, {1, 2, 3, 4, 5, 6});
  const auto bt = half_matrix(3, 2, {1, 0, 0, 1, 1, 1});
  course::CooMatrix s;
  s.rows = 3;
  s.cols = 3;
  s.row_indices = {0, 1, 2, 2};
  s.col_indices = {2, 0, 1, 2};
  s.values = {1.0f, 2.0f, -1.0f, 0.5f};
  const course::step5::SampledReference reference = course::step5::sddmm_reference(a, bt, s);
  REQUIRE(reference.value.size() == 4);
  CHECK(reference.value[0] == 3.0);   // 1·(1+2)
  CHECK(reference.value[1] == 6.0);   // 2·3
  CHECK(reference.value[2] == -6.0);  // -1·6
  CHECK(reference.value[3] == 5.5);   // 0.5·11
  CHECK(reference.magnitude[2] == 6.0);
}

TEST_CASE("reference SDDMM magnitude sums absolute products", "[step5]") {
  const auto a = half_matrix(1, 2, {1, -2});
  const auto bt = half_matrix(1, 2, {3, 4});
  course::CooMatrix s;
  s.rows = 1;
  s.cols = 1;
  s.row_indices = {0};
  s.col_indices = {0};
  s.values = {-2.0f};
  const auto reference = course::step5::sddmm_reference(a, bt, s);
  CHECK(reference.value[0] == 10.0);      // -2·(3 - 8)
  CHECK(reference.magnitude[0] == 22.0);  // 2·(3 + 8)
}

TEST_CASE("reference SDDMM refuses mismatched shapes", "[step5]") {
  const auto a = half_matrix(2, 3, {});
  const auto bt = half_matrix(4, 2, {});
  course::CooMatrix s;
  s.rows = 2;
  s.cols = 4;
  CHECK_THROWS_AS(course::step5::sddmm_reference(a, bt, s), std::invalid_argument);
}

TEST_CASE("compare_sampled flags NaN and errors beyond the tolerance", "[step5]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const auto a = course::step5::random_half_matrix(4, 8, 0, seed);
  const auto bt = course::step5::random_half_matrix(5, 8, 0, seed + 1);
  course::CooMatrix s;
  s.rows = 4;
  s.cols = 5;
  s.row_indices = {0, 1, 3};
  s.col_indices = {4, 0, 2};
  s.values = {1.0f, 1.0f, 1.0f};
  const auto reference = course::step5::sddmm_reference(a, bt, s);
  std::vector<float> got(reference.value.begin(), reference.value.end());
  const auto tolerance = course::Tolerance::tensor_core_fp32_accumulation(8);
  CHECK(course::step5::compare_sampled(got, reference, s, tolerance).ok());
  got[1] = std::numeric_limits<float>::quiet_NaN();
  got[2] += 0.5f;
  const auto result = course::step5::compare_sampled(got, reference, s, tolerance);
  CHECK(result.mismatches == 2);
  REQUIRE(!result.first.empty());
  CHECK(result.first[0].row == 1);
  CHECK(result.first[0].col == 0);
  CHECK_THROWS_AS(course::step5::compare_sampled({1.0f}, reference, s, tolerance),
                  std::invalid_argument);
}

TEST_CASE("random half matrices are rounded values in range with zero padding", "[step5]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const auto matrix = course::step5::random_half_matrix(7, 5, 8, seed);
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

TEST_CASE("fragment map is a bijection and inverts accumulator_slot", "[step5]") {
  for (const auto shape : {course::step5::WmmaShape::m16n16k16, course::step5::WmmaShape::m32n8k16,
                           course::step5::WmmaShape::m8n32k16}) {
    std::set<std::pair<int, int>> seen;
    for (int lane = 0; lane < 32; ++lane) {
      for (int index = 0; index < 8; ++index) {
        const auto element = course::step5::accumulator_element(shape, lane, index);
        seen.insert({element.row, element.col});
      }
    }
    CHECK(seen.size() == 256);
  }
  for (int lane = 0; lane < 32; ++lane) {
    for (int index = 0; index < 8; ++index) {
      const auto element = course::step5::accumulator_element_16x16(lane, index);
      const auto slot = course::step5::accumulator_slot_16x16(element.row, element.col);
      CHECK(slot.lane == lane);
      CHECK(slot.index == index);
    }
  }
}

TEST_CASE("fragment map matches the rows of the note that have no typo", "[step5]") {
  // The note's T0 and T4 rows (its T10/T11 columns 4-5 are a typo, see the README).
  const int t0[8][2] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9}};
  const int t4[8][2] = {{1, 0}, {1, 1}, {9, 0}, {9, 1}, {1, 8}, {1, 9}, {9, 8}, {9, 9}};
  for (int index = 0; index < 8; ++index) {
    CHECK(course::step5::accumulator_element_16x16(0, index).row == t0[index][0]);
    CHECK(course::step5::accumulator_element_16x16(0, index).col == t0[index][1]);
    CHECK(course::step5::accumulator_element_16x16(4, index).row == t4[index][0]);
    CHECK(course::step5::accumulator_element_16x16(4, index).col == t4[index][1]);
  }
}

TEST_CASE("approach numbers outside 1 to 4 are refused", "[step5]") {
  CHECK(course::step5::approach_from_number(3) == course::step5::Approach::tile_grouped);
  CHECK_THROWS_AS(course::step5::approach_from_number(0), std::invalid_argument);
  // Approach 4 is going_further's (hybrid_approach()), not one of the lesson's.
  CHECK_THROWS_WITH(course::step5::approach_from_number(4), Catch::Contains("going_further"));
  CHECK(course::step5::approach_name(course::step5::Approach::tile_grouped).find("tile") !=
        std::string::npos);
}

TEST_CASE("operand checks name the problem", "[step5]") {
  course::step5::DenseOperands operands;
  operands.rows = 4;
  operands.cols = 4;
  operands.inner = 8;
  operands.lda = 4;
  operands.ldb = 8;
  static const __half dummy[64] = {};
  operands.a = dummy;
  operands.b_transposed = dummy;
  CHECK_THROWS_WITH(course::step5::check_operands(operands), Catch::Contains("lda=4"));
  operands.lda = 8;
  CHECK_NOTHROW(course::step5::check_operands(operands));
  operands.b_transposed = nullptr;
  CHECK_THROWS_WITH(course::step5::check_operands(operands), Catch::Contains("null"));
  operands.b_transposed = dummy;
  operands.rows = -1;
  CHECK_THROWS_WITH(course::step5::check_operands(operands), Catch::Contains("negative"));
}

TEST_CASE("S that is unsorted or out of range is refused before any upload", "[step5]") {
  course::CooMatrix s;
  s.rows = 4;
  s.cols = 4;
  s.row_indices = {1, 0};
  s.col_indices = {0, 0};
  s.values = {1.0f, 1.0f};
  CHECK_THROWS_WITH(course::step5::DevicePattern(s), Catch::Contains("sorted"));
  s.row_indices = {0, 4};
  CHECK_THROWS_AS(course::step5::DevicePattern(s), std::invalid_argument);
}

TEST_CASE("dense product size is padded to 16 and counted in 64 bits", "[step5]") {
  CHECK(course::step5::dense_product_bytes(1, 1) == 16u * 16u * 4u);
  CHECK(course::step5::dense_product_bytes(37000, 37000) == 37008ull * 37008ull * 4ull);
  CHECK(course::step5::dense_product_bytes(916000, 916000) == 916000ull * 916000ull * 4ull);
}
