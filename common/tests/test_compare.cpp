#include "common/testing/catch2.hpp"

#include "common/compare.hpp"
#include "common/random_fill.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace {

struct Case {
  course::HostMatrix<float> a;
  course::HostMatrix<float> b;
  course::HostMatrix<float> product;
};

Case random_case(int rows, int inner, int cols, std::uint64_t seed) {
  Case made{course::HostMatrix<float>(rows, inner), course::HostMatrix<float>(inner, cols), {}};
  course::fill_uniform(made.a, seed);
  course::fill_uniform(made.b, seed + 1);
  course::matmul_serial(made.a, made.b, made.product);
  return made;
}

}  // namespace

TEST_CASE("a correct product passes with fp32 tolerance", "[common][compare]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  Case made = random_case(40, 300, 30, seed);
  const auto reference = course::matmul_reference(made.a, made.b);
  const auto result = course::compare_with_reference(
      made.product, reference, course::Tolerance::fp32_accumulation(300));
  CHECK(result.ok());
  CHECK(result.checked == 40u * 30u);
}

TEST_CASE("one corrupted element is reported with its position", "[common][compare]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  Case made = random_case(8, 16, 9, seed);
  const auto reference = course::matmul_reference(made.a, made.b);
  made.product(3, 5) += 0.01f;  // far above fp32 rounding for 16 terms
  const auto result = course::compare_with_reference(
      made.product, reference, course::Tolerance::fp32_accumulation(16));
  REQUIRE(result.mismatches == 1);
  REQUIRE(result.first.size() == 1);
  CHECK(result.first[0].row == 3);
  CHECK(result.first[0].col == 5);
  CHECK(result.summary().find("(3, 5)") != std::string::npos);
}

TEST_CASE("NaN from an unwritten poisoned element is a mismatch", "[common][compare]") {
  Case made = random_case(4, 4, 4, 1);
  const auto reference = course::matmul_reference(made.a, made.b);
  made.product(0, 0) = std::numeric_limits<float>::quiet_NaN();
  made.product(3, 3) = std::numeric_limits<float>::infinity();
  const auto result = course::compare_with_reference(
      made.product, reference, course::Tolerance::fp32_accumulation(4));
  CHECK(result.mismatches == 2);
}

TEST_CASE("exact tolerance rejects the smallest difference", "[common][compare]") {
  course::HostMatrix<float> got(1, 1);
  course::HostMatrix<double> expected(1, 1);
  course::HostMatrix<double> magnitude(1, 1);
  got(0, 0) = 1.0f;
  expected(0, 0) = std::nextafter(1.0, 2.0);
  magnitude(0, 0) = 1.0;
  CHECK_FALSE(course::compare_matrices(got, expected, magnitude, course::Tolerance::exact()).ok());
  expected(0, 0) = 1.0;
  CHECK(course::compare_matrices(got, expected, magnitude, course::Tolerance::exact()).ok());
}

TEST_CASE("tolerance grows with the inner dimension and with the magnitude",
          "[common][compare]") {
  const auto small = course::Tolerance::fp32_accumulation(16);
  const auto large = course::Tolerance::fp32_accumulation(4096);
  CHECK(large.relative > small.relative);
  CHECK(large.relative < 1e-4);  // still far tighter than any real bug
  course::HostMatrix<float> got(1, 2);
  course::HostMatrix<double> expected(1, 2);
  course::HostMatrix<double> magnitude(1, 2);
  got(0, 0) = 1000.0f + 0.01f;
  got(0, 1) = 1.0f + 0.01f;
  expected(0, 0) = 1000.0;
  expected(0, 1) = 1.0;
  magnitude(0, 0) = 1.0e6;  // large terms: 0.01 is within rounding
  magnitude(0, 1) = 1.0;    // unit terms: 0.01 is a real error
  const auto result = course::compare_matrices(got, expected, magnitude, large);
  CHECK(result.mismatches == 1);
  CHECK(result.first[0].col == 1);
}

TEST_CASE("DEBUG verification prints wrong answer only for a wrong result",
          "[common][compare][debug]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  Case made = random_case(20, 33, 17, seed);
  std::ostringstream quiet;
  CHECK(course::report_verification(course::verify_against_serial(made.a, made.b, made.product),
                                    quiet));
  CHECK(quiet.str().find("wrong answer") == std::string::npos);
  CHECK(quiet.str().find("correct") != std::string::npos);

  made.product(19, 16) = -made.product(19, 16) + 1.0f;
  std::ostringstream loud;
  CHECK_FALSE(course::report_verification(
      course::verify_against_serial(made.a, made.b, made.product), loud));
  CHECK(loud.str().find("wrong answer") != std::string::npos);
  CHECK(loud.str().find("(19, 16)") != std::string::npos);
}

TEST_CASE("comparing different shapes is refused", "[common][compare]") {
  course::HostMatrix<float> got(2, 2);
  course::HostMatrix<double> expected(2, 3);
  course::HostMatrix<double> magnitude(2, 3);
  CHECK_THROWS_AS(course::compare_matrices(got, expected, magnitude, course::Tolerance::exact()),
                  std::invalid_argument);
}
