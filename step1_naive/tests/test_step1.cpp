/// @file test_step1.cpp
/// @brief Step 1's tests: the naive kernel against the double CPU reference, the DEBUG check and
/// the refusal of bad command lines (the last two need no GPU).
#include "common/testing/catch2.hpp"

#include "common/cli.hpp"
#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/testing/arguments.hpp"
#include "common/testing/product_checks.hpp"
#include "common/testing/program_runner.hpp"
#include "common/step_program.hpp"
#include "common/timed_product.hpp"
#include "step1_naive/step1_launchers.hpp"
#include "step1_naive/step1_program.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::InputKind;
using course::ProductSizes;

// Runs the naive launcher on fresh random inputs with a poisoned output and compares with
// the double reference: bit-exact for small integers, fp32 tolerance for uniform floats.
void check_naive(const ProductSizes& sizes, InputKind inputs) {
  course::testing::check_launch("", sizes, inputs, [&](const float* a, const float* b, float* c) {
    course::step1::launch_naive_single_block(a, b, c, sizes);
  });
}

const std::vector<ProductSizes> kSizes = {{1, 1, 1},   {2, 3, 4},   {31, 31, 31}, {32, 32, 32},
                                          {32, 7, 5},  {5, 32, 17}, {1, 32, 32},  {32, 1, 1},
                                          {17, 9, 32}, {32, 32, 1}, {3, 1, 29},   {16, 31, 8}};

// Parses @p words as step 1's command line; @p program holds the sizes, @p choice the rest.
bool parse_words(const std::vector<std::string>& words, course::DenseProgram& program,
                 course::RunChoice& choice) {
  course::testing::Arguments arguments("step1_naive", words);
  return course::parse_step_program(program, arguments.argc(), arguments.argv(), choice);
}

std::string usage_error_of(const std::vector<std::string>& words) {
  course::DenseProgram program(course::step1::program_step());
  course::RunChoice choice;
  return course::testing::usage_error_of([&] { parse_words(words, program, choice); });
}

// Runs the built program with @p arguments; returns its exit code and its output.
int run_program(const std::string& arguments, std::string& output) {
  return course::testing::run_program_capture(STEP1_PROGRAM_PATH, arguments, output);
}

}  // namespace

TEST_CASE("naive kernel matches the reference on small integers exactly", "[step1][gpu]") {
  for (const ProductSizes& sizes : kSizes) {
    check_naive(sizes, InputKind::small_integers);
  }
}

TEST_CASE("naive kernel matches the reference on uniform floats", "[step1][gpu]") {
  for (const ProductSizes& sizes : kSizes) {
    check_naive(sizes, InputKind::uniform);
  }
}

TEST_CASE("launcher refuses sizes over the one-block limit before launching", "[step1]") {
  const std::vector<ProductSizes> bad = {{33, 1, 1}, {1, 33, 1}, {1, 1, 33}, {64, 64, 64},
                                         {0, 4, 4},  {4, 0, 4},  {4, 4, -1}};
  for (const ProductSizes& sizes : bad) {
    INFO("sizes " << sizes.text());
    try {
      course::step1::launch_naive_single_block(nullptr, nullptr, nullptr, sizes);
      FAIL("the launcher accepted a size outside 1..32");
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      CHECK(message.find("1024 threads") != std::string::npos);
      CHECK(message.find("step 2") != std::string::npos);
    }
  }
}

TEST_CASE("DEBUG check says wrong answer for one corrupted element", "[step1]") {
  course::testing::check_debug_verify_flags({32, 20, 32}, 7, 19, 0.5f);
}

TEST_CASE("options accept sizes up to 32", "[step1]") {
  course::DenseProgram program(course::step1::program_step());
  course::RunChoice choice;
  REQUIRE(
      parse_words({"--rows", "32", "--inner=5", "--cols", "1", "--seed", "9"}, program, choice));
  CHECK(program.sizes().rows == 32);
  CHECK(program.sizes().inner == 5);
  CHECK(program.sizes().cols == 1);
  CHECK(choice.seed == 9);
  CHECK(choice.repeats == course::kProgramRepeats);
  course::DenseProgram square(course::step1::program_step());
  REQUIRE(parse_words({"--size", "17"}, square, choice));
  CHECK((square.sizes().rows == 17 && square.sizes().inner == 17 && square.sizes().cols == 17));
}

TEST_CASE("options refuse zero and negative and non-numeric values", "[step1]") {
  for (const auto& words : std::vector<std::vector<std::string>>{{"--size", "0"},
                                                                 {"--rows", "-3"},
                                                                 {"--cols", "abc"},
                                                                 {"--inner", "12x"},
                                                                 {"--repeats", "0"},
                                                                 {"--rows"}}) {
    const std::string message = usage_error_of(words);
    INFO("arguments " << words[0] << " " << (words.size() > 1 ? words[1] : ""));
    CHECK(message.find(words[0]) != std::string::npos);
  }
}

TEST_CASE("options refuse sizes over 32 explaining the one-block limit", "[step1]") {
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"--size", "33"}, {"--rows", "64"}, {"--inner", "100"}, {"--cols", "1024"}}) {
    const std::string message = usage_error_of(words);
    INFO(words[0] << " " << words[1] << ": " << message);
    CHECK(message.find("at most 32x32") != std::string::npos);
    CHECK(message.find("1024 threads") != std::string::npos);
    CHECK(message.find("step 2") != std::string::npos);
  }
}

TEST_CASE("program exits with a usage error for bad sizes before looking for a GPU", "[step1]") {
  for (const std::string& arguments :
       std::vector<std::string>{"--size 0", "--rows -1", "--cols abc", "--size 33"}) {
    std::string output;
    INFO("arguments '" << arguments << "'");
    CHECK(run_program(arguments, output) == 2);
    INFO(output);
    CHECK(output.find("step1_naive:") != std::string::npos);
    CHECK(output.find("--help") != std::string::npos);
  }
  std::string output;
  CHECK(run_program("--size 40", output) == 2);
  CHECK(output.find("step 2") != std::string::npos);
}
