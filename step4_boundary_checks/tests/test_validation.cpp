/// @file test_validation.cpp
/// @brief Step 4's size validation refuses bad input with clear messages (CPU only: every check
/// runs before anything touches the GPU).
#include "common/testing/catch2.hpp"

#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/problem_shape.hpp"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/step4_program.hpp"
#include "common/step_program.hpp"
#include "common/testing/parsed_program.hpp"

#include <stdexcept>

namespace {
// Never dereferenced: the launchers refuse these sizes before any CUDA call.
const float kDummy[4] = {};
float kDummyOut[4] = {};
}  // namespace

TEST_CASE("sizes below 1 or above 2^30 are refused by name", "[step4][validation]") {
  CHECK_THROWS_WITH(course::step4::validate_shape(0, 5, 5),
                    Catch::Contains("rows (rows of A and C) must be from 1 to 1073741824, got 0"));
  CHECK_THROWS_WITH(course::step4::validate_shape(5, -2, 5),
                    Catch::Contains("inner") && Catch::Contains("-2"));
  CHECK_THROWS_WITH(course::step4::validate_shape(5, 5, (1LL << 30) + 1),
                    Catch::Contains("cols (columns of B and C) must be from 1 to 1073741824"));
  const course::ProductSizes shape = course::step4::validate_shape(3, 4, 5);
  CHECK(shape.rows == 3);
  CHECK(shape.inner == 4);
  CHECK(shape.cols == 5);
  CHECK(shape.text() == "3x4x5");
}

TEST_CASE("matrices beyond the int index limit are refused", "[step4][validation]") {
  CHECK_THROWS_WITH(course::step4::validate_shape(50000, 50000, 1),
                    Catch::Contains("A (rows x inner)") && Catch::Contains("INT_MAX") &&
                        Catch::Contains("2147483647"));
  CHECK_THROWS_WITH(course::step4::validate_shape(1, 50000, 50000),
                    Catch::Contains("B (inner x cols)"));
  CHECK_THROWS_WITH(course::step4::validate_shape(50000, 1, 50000),
                    Catch::Contains("C (rows x cols)"));
  CHECK_NOTHROW(course::step4::validate_shape(46340, 1, 46340));
}

TEST_CASE("grids taller than CUDA's limit are refused", "[step4][validation]") {
  const course::ProductSizes tall = course::step4::validate_shape(65535 * 2 + 1, 1, 1);
  CHECK_THROWS_WITH(course::step4::validate_grid_rows(tall, 2, "test kernel"),
                    Catch::Contains("gridDim.y") && Catch::Contains("65535"));
  CHECK_NOTHROW(course::step4::validate_grid_rows(tall, 32, "test kernel"));
}

TEST_CASE("padding that would pass the index limit is refused", "[step4][validation]") {
  // 46337^2 fits in int, but padded to 46368^2 it does not.
  const course::ProductSizes shape = course::step4::validate_shape(46337, 1, 46337);
  CHECK_THROWS_WITH(
      course::step4::PaddedWorkspace::padded_sizes(shape),
      Catch::Contains("padding 46337x1x46337 to multiples of 32") && Catch::Contains("INT_MAX"));
  const course::ProductSizes padded =
      course::step4::PaddedWorkspace::padded_sizes(course::step4::validate_shape(3, 33, 64));
  CHECK(padded.rows == 32);
  CHECK(padded.inner == 64);
  CHECK(padded.cols == 64);
  CHECK(course::step4::PaddedWorkspace::padded_bytes(course::step4::validate_shape(3, 33, 64)) ==
        (32u * 64 + 64u * 64 + 32u * 64) * sizeof(float));
}

TEST_CASE("launchers refuse bad sizes and tiles and pointers before launching",
          "[step4][validation]") {
  CHECK_THROWS_WITH(
      course::step4::launch_tiled_unchecked(kDummy, kDummy, kDummyOut, {3, 3, 3}, nullptr, 2),
      Catch::Contains("multiples of the tile width 2") && Catch::Contains("no boundary checks"));
  CHECK_THROWS_WITH(
      course::step4::launch_tiled_checked(kDummy, kDummy, kDummyOut, {3, 3, 3}, nullptr, 7),
      Catch::Contains("tile width must be 2, 16 or 32, got 7"));
  CHECK_THROWS_WITH(course::step4::launch_rect_tiles(kDummy, kDummy, kDummyOut, {3, 0, 3}),
                    Catch::Contains("inner (columns of A, rows of B) must be from 1"));
  CHECK_THROWS_WITH(course::step4::launch_padded(kDummy, kDummy, kDummyOut, {50000, 1, 50000}),
                    Catch::Contains("INT_MAX"));
}

TEST_CASE("approach numbers outside 1..3 are refused", "[step4][validation]") {
  for (const std::string number : {"0", "4"}) {
    const std::string message =
        course::testing::usage_error_of_words(course::step4::lesson_step(), {"--approach", number});
    INFO(message);
    CHECK(message.find("--approach") != std::string::npos);
    CHECK(message.find("got " + number) != std::string::npos);
  }
  CHECK(course::step4::lesson_step().approaches.size() == 3u);
  course::testing::ParsedProgram parsed(course::step4::lesson_step());
  REQUIRE(parsed.parse({"--approach", "3"}));
  CHECK(parsed.choice.approach == 3);
  CHECK(parsed.choice.repeats == course::kProgramRepeats);
}

TEST_CASE("the program's approaches refuse a grid taller than CUDA's limit before any input",
          "[step4][validation]") {
  // One block row more than gridDim.y holds with the tallest lesson tile (64 rows); padded to
  // 32, the copies still fit int.
  const course::ProductSizes tall = course::step4::validate_shape(65535 * 64 + 1, 1, 1);
  for (const course::DenseApproach& approach : course::step4::lesson_approaches()) {
    INFO(approach.name);
    CHECK_THROWS_WITH(approach.check_sizes(tall), Catch::Contains("gridDim.y"));
    CHECK_NOTHROW(approach.check_sizes(course::step4::validate_shape(1000, 777, 1031)));
  }
}
