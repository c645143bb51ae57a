/// @file test_step3.cpp
/// @brief Step 3's tests: the shared-memory tiled kernel against the double CPU reference, its
/// refusal of sizes that are not multiples of the tile width, the DEBUG check and the
/// refusal of bad command lines.
#include "common/testing/catch2.hpp"

#include "common/cli.hpp"
#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"
#include "common/product_sizes.hpp"
#include "common/random_fill.hpp"
#include "common/testing/arguments.hpp"
#include "common/testing/parsed_program.hpp"
#include "common/testing/product_checks.hpp"
#include "common/testing/program_runner.hpp"
#include "common/timed_product.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"
#include "step3_shared_tiling/step3_program.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::InputKind;
using course::ProductSizes;

// Runs the tiled kernel on fresh random inputs with a poisoned output and compares with the
// double reference: bit-exact for small integers, fp32 tolerance for uniform floats.
void check_tiled(const ProductSizes& sizes, InputKind inputs) {
  course::testing::check_launch("", sizes, inputs, [&](const float* a, const float* b, float* c) {
    course::step3::launch_tiled_shared(a, b, c, sizes);
  });
}

// Multiples of 32: one tile, one phase; square; rectangular in every direction; long inner.
const std::vector<ProductSizes> kSizes = {{32, 32, 32},   {64, 64, 64},   {64, 96, 128},
                                          {32, 32, 64},   {96, 32, 32},   {32, 512, 32},
                                          {128, 256, 64}, {256, 64, 160}, {320, 320, 320}};

// Step 3's program after parsing @p words (main.cu's APPROACH 4 unless told).
bool parse_words(const std::vector<std::string>& words, course::testing::ParsedProgram& options,
                 int default_approach = 4) {
  return options.parse(words, default_approach);
}

std::string usage_error_of(const std::vector<std::string>& words) {
  return course::testing::usage_error_of_words(course::step3::program_step(), words, 4);
}

// Runs the built program with @p arguments; returns its exit code and its output.
int run_program(const std::string& arguments, std::string& output) {
  return course::testing::run_program_capture(STEP3_PROGRAM_PATH, arguments, output);
}

}  // namespace

TEST_CASE("tiled shared kernel matches the reference on small integers exactly", "[step3][gpu]") {
  for (const ProductSizes& sizes : kSizes) {
    check_tiled(sizes, InputKind::small_integers);
  }
}

TEST_CASE("tiled shared kernel matches the reference on uniform floats", "[step3][gpu]") {
  for (const ProductSizes& sizes : kSizes) {
    check_tiled(sizes, InputKind::uniform);
  }
}

TEST_CASE("launcher refuses sizes that are not multiples of 32 pointing to step 4", "[step3]") {
  const std::vector<ProductSizes> bad = {{1, 1, 1},     {33, 32, 32}, {32, 33, 32}, {32, 32, 33},
                                         {100, 37, 65}, {0, 32, 32},  {32, -32, 32}};
  for (const ProductSizes& sizes : bad) {
    INFO("sizes " << sizes.text());
    try {
      course::step3::launch_tiled_shared(nullptr, nullptr, nullptr, sizes);
      FAIL("the launcher accepted a size that is not a positive multiple of 32");
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      INFO(message);
      CHECK(message.find("multiple of the tile width 32") != std::string::npos);
      CHECK(message.find("Step 4") != std::string::npos);
    }
  }
  CHECK_NOTHROW(course::step3::check_tiled_shared_sizes({64, 96, 128}));
}

TEST_CASE("DEBUG check says wrong answer for one corrupted element", "[step3]") {
  course::testing::check_debug_verify_flags({64, 96, 32}, 63, 31, 1.0f);
}

namespace {

/// Runs approach @p approach as step 3's program registers it (its launcher) and checks it on
/// small integers.
void check_step3_launch(int approach) {
  const ProductSizes sizes = approach == 4 ? ProductSizes{64, 32, 96} : ProductSizes{45, 37, 70};
  const course::ApproachRun run =
      course::step3::program_step().approaches.at(approach - 1).make_run();
  course::testing::check_launch(
      "approach " + std::to_string(approach), sizes, InputKind::small_integers,
      [&](const float* a, const float* b, float* c) { run(a, b, c, sizes, nullptr); });
}

}  // namespace

// Graded: step 3's own kernel through step 3's launcher.
TEST_CASE("launch_approach runs approach 4", "[step3][gpu]") {
  check_step3_launch(4);
}

// Not graded in step 3 (grading/gradelib/plan.py): approaches 1-3 are step 2's kernels, which
// step 2's points already cover; a step-2 bug must not cost step-3 points as well.
TEST_CASE("launch_approach runs the approaches of step 2", "[step3][gpu]") {
  for (int approach = 1; approach <= 3; ++approach) {
    check_step3_launch(approach);
  }
}

TEST_CASE("benchmark runs and checks every method on small sizes", "[step3][gpu]") {
  course::testing::ParsedProgram options(course::step3::program_step());
  REQUIRE(parse_words(
      {"--bench", "--bench-sizes", "64,128", "--serial-max", "128", "--repeats", "2"}, options));
  std::ostringstream table;
  std::ostringstream progress;
  CHECK(options.program.run_benchmark(options.choice, table, progress) == 0);
  INFO(table.str() << progress.str());
  CHECK(table.str().find("| approach 4 (shared-memory tiling) |") != std::string::npos);
  CHECK(table.str().find("| cuBLAS SGEMM (fp32) |") != std::string::npos);
  CHECK(progress.str().find("wrong answer") == std::string::npos);
}

TEST_CASE("options accept multiples of 32 and rectangular shapes", "[step3]") {
  course::testing::ParsedProgram options(course::step3::program_step());
  REQUIRE(parse_words({"--rows", "64", "--inner", "96", "--cols", "128"}, options));
  CHECK((options.sizes().rows == 64 && options.sizes().inner == 96 && options.sizes().cols == 128));
  CHECK(options.choice.approach == 4);
  course::testing::ParsedProgram other(course::step3::program_step());
  REQUIRE(parse_words({"--size", "100", "--approach", "3"}, other));
  CHECK(other.sizes().rows == 100);
}

TEST_CASE("options refuse zero and negative and non-numeric values", "[step3]") {
  for (const auto& words : std::vector<std::vector<std::string>>{{"--size", "0"},
                                                                 {"--rows", "-32"},
                                                                 {"--inner", "abc"},
                                                                 {"--cols", "32x"},
                                                                 {"--approach", "5"},
                                                                 {"--repeats", "0"}}) {
    const std::string message = usage_error_of(words);
    INFO("arguments " << words[0] << " " << words[1] << ": " << message);
    CHECK(message.find(words[0]) != std::string::npos);
  }
}

TEST_CASE("options refuse sizes that are not multiples of 32 pointing to step 4", "[step3]") {
  for (const auto& words :
       std::vector<std::vector<std::string>>{{"--size", "100"},
                                             {"--rows", "33"},
                                             {"--cols", "1"},
                                             {"--bench", "--bench-sizes", "1000"}}) {
    const std::string message = usage_error_of(words);
    INFO(message);
    CHECK(message.find("32") != std::string::npos);
    CHECK(message.find("tep 4") != std::string::npos);
  }
  CHECK(usage_error_of({"--size", "16416"}).find("16384") != std::string::npos);
}

TEST_CASE("program exits with a usage error for bad values before looking for a GPU", "[step3]") {
  for (const std::string& arguments : std::vector<std::string>{
           "--size 0", "--rows -1", "--cols abc", "--size 100", "--size 99999", "--csv x.csv"}) {
    std::string output;
    INFO("arguments '" << arguments << "'");
    CHECK(run_program(arguments, output) == 2);
    INFO(output);
    CHECK(output.find("step3_shared_tiling:") != std::string::npos);
  }
  std::string output;
  CHECK(run_program("--size 48", output) == 2);
  CHECK(output.find("Step 4") != std::string::npos);
}
