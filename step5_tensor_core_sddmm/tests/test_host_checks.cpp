/// @file test_host_checks.cpp
/// @brief CPU tests of step 5: the fragment map's algebra and the argument checks (no GPU
/// needed; the CPU reference's own tests are common/tests/test_sampled_reference.cpp).
#include "common/testing/catch2.hpp"

#include "step5_tensor_core_sddmm/fragment_map.cuh"
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
