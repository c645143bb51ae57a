#include "common/testing/catch2.hpp"

#include "common/cpu_reference.hpp"
#include "common/random_fill.hpp"

namespace {

course::HostMatrix<float> from_rows(int rows, int cols, std::initializer_list<float> values) {
  course::HostMatrix<float> matrix(rows, cols);
  auto value = values.begin();
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      matrix(row, col) = *value++;
    }
  }
  return matrix;
}

}  // namespace

TEST_CASE("serial and reference products agree with a product worked by hand",
          "[common][reference]") {
  // [1 2 3]   [ 7  8]   [ 58  64]
  // [4 5 6] x [ 9 10] = [139 154]
  //           [11 12]
  const auto a = from_rows(2, 3, {1, 2, 3, 4, 5, 6});
  const auto b = from_rows(3, 2, {7, 8, 9, 10, 11, 12});
  course::HostMatrix<float> serial;
  course::matmul_serial(a, b, serial);
  const course::ReferenceProduct reference = course::matmul_reference(a, b);
  const double expected[2][2] = {{58, 64}, {139, 154}};
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 2; ++col) {
      CHECK(serial(row, col) == expected[row][col]);
      CHECK(reference.value(row, col) == expected[row][col]);
      CHECK(reference.magnitude(row, col) == expected[row][col]);  // all terms positive
    }
  }
}

TEST_CASE("reference magnitude sums absolute values of the terms", "[common][reference]") {
  const auto a = from_rows(1, 2, {1, -2});
  const auto b = from_rows(2, 1, {3, 4});
  const course::ReferenceProduct reference = course::matmul_reference(a, b);
  CHECK(reference.value(0, 0) == -5.0);
  CHECK(reference.magnitude(0, 0) == 11.0);
}

TEST_CASE("serial product is exact on small integers for rectangular shapes",
          "[common][reference]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::HostMatrix<float> a(17, 29);
  course::HostMatrix<float> b(29, 5);
  course::fill_small_integers(a, seed);
  course::fill_small_integers(b, seed + 1);
  course::HostMatrix<float> serial;
  course::matmul_serial(a, b, serial);
  const course::ReferenceProduct reference = course::matmul_reference(a, b);
  REQUIRE(serial.rows() == 17);
  REQUIRE(serial.cols() == 5);
  for (int row = 0; row < 17; ++row) {
    for (int col = 0; col < 5; ++col) {
      double by_hand = 0.0;
      for (int inner = 0; inner < 29; ++inner) {
        by_hand += static_cast<double>(a(row, inner)) * b(inner, col);
      }
      CHECK(serial(row, col) == by_hand);
      CHECK(reference.value(row, col) == by_hand);
    }
  }
}

TEST_CASE("products refuse mismatched inner dimensions", "[common][reference]") {
  course::HostMatrix<float> a(2, 3);
  course::HostMatrix<float> b(4, 2);
  course::HostMatrix<float> c;
  CHECK_THROWS_WITH(course::matmul_serial(a, b, c), Catch::Contains("inner dimensions differ"));
  CHECK_THROWS_AS(course::matmul_reference(a, b), std::invalid_argument);
}

TEST_CASE("fills are reproducible from the seed and stay in range", "[common][random]") {
  std::vector<float> first(1000);
  std::vector<float> second(1000);
  course::fill_uniform(first.data(), first.size(), 42, -1.0f, 1.0f);
  course::fill_uniform(second.data(), second.size(), 42, -1.0f, 1.0f);
  CHECK(first == second);
  for (float value : first) {
    CHECK((value >= -1.0f && value < 1.0f));
  }
  course::fill_small_integers(first.data(), first.size(), 7, -4, 4);
  for (float value : first) {
    CHECK(value == static_cast<float>(static_cast<int>(value)));
    CHECK((value >= -4.0f && value <= 4.0f));
  }
  course::HostMatrix<float> poisoned(3, 3);
  course::poison(poisoned);
  CHECK(std::isnan(poisoned(2, 2)));
}
