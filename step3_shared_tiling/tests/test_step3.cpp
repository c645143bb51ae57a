// Step 3's tests: the shared-memory tiled kernel against the double CPU reference, its
// refusal of sizes that are not multiples of the tile width, the DEBUG check and the
// refusal of bad command lines.
#include <catch2/catch.hpp>

#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"
#include "step3_shared_tiling/step3_program.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

enum class Inputs { small_integers, uniform };

struct Shape {
  int rows;
  int inner;
  int cols;
};

// Runs the tiled kernel on fresh random inputs with a poisoned output and compares with the
// double reference: bit-exact for small integers, fp32 tolerance for uniform floats.
void check_tiled(const Shape& shape, Inputs inputs) {
  const std::uint64_t seed = course::fresh_seed();
  INFO("shape " << shape.rows << "x" << shape.inner << "x" << shape.cols << ", "
                << (inputs == Inputs::small_integers ? "small integers" : "uniform floats")
                << ", seed " << seed);
  course::HostMatrix<float> a(shape.rows, shape.inner);
  course::HostMatrix<float> b(shape.inner, shape.cols);
  if (inputs == Inputs::small_integers) {
    course::fill_small_integers(a, seed);
    course::fill_small_integers(b, seed + 1);
  } else {
    course::fill_uniform(a, seed);
    course::fill_uniform(b, seed + 1);
  }
  course::DeviceMatrix<float> device_a(a);
  course::DeviceMatrix<float> device_b(b);
  course::DeviceMatrix<float> device_c(shape.rows, shape.cols);
  device_c.poison();
  course::step3::launch_tiled_shared(device_a.data(), device_b.data(), device_c.data(), shape.rows,
                                     shape.inner, shape.cols);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto reference = course::matmul_reference(a, b);
  const auto tolerance = inputs == Inputs::small_integers
                             ? course::Tolerance::exact()
                             : course::Tolerance::fp32_accumulation(shape.inner);
  const auto result = course::compare_with_reference(device_c.to_host(), reference, tolerance);
  INFO(result.summary());
  CHECK(result.ok());
}

// Multiples of 32: one tile, one phase; square; rectangular in every direction; long inner.
const std::vector<Shape> kShapes = {{32, 32, 32},   {64, 64, 64},   {64, 96, 128},
                                    {32, 32, 64},   {96, 32, 32},   {32, 512, 32},
                                    {128, 256, 64}, {256, 64, 160}, {320, 320, 320}};

bool parse_words(std::vector<std::string> words, course::step3::Options& options,
                 int default_approach = 4) {
  words.insert(words.begin(), "step3_shared_tiling");
  std::vector<char*> argv;
  for (std::string& word : words) {
    argv.push_back(word.data());
  }
  return course::step3::parse_options(static_cast<int>(argv.size()), argv.data(), default_approach,
                                      options);
}

std::string usage_error_of(const std::vector<std::string>& words) {
  course::step3::Options options;
  try {
    parse_words(words, options);
  } catch (const course::UsageError& error) {
    return error.what();
  }
  return "";
}

// Runs the built program with @p arguments; returns its exit code and its output.
int run_program(const std::string& arguments, std::string& output) {
  const std::string log = (std::filesystem::temp_directory_path() /
                           ("step3_program_test_" + std::to_string(course::fresh_seed()) + ".log"))
                              .string();
  const std::string command =
      std::string("\"") + STEP3_PROGRAM_PATH + "\" " + arguments + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream file(log);
  output.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  std::remove(log.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("step3 tiled shared kernel matches the reference on small integers exactly",
          "[step3][gpu]") {
  for (const Shape& shape : kShapes) {
    check_tiled(shape, Inputs::small_integers);
  }
}

TEST_CASE("step3 tiled shared kernel matches the reference on uniform floats", "[step3][gpu]") {
  for (const Shape& shape : kShapes) {
    check_tiled(shape, Inputs::uniform);
  }
}

TEST_CASE("step3 launcher refuses sizes that are not multiples of 32 pointing to step 4",
          "[step3]") {
  const std::vector<Shape> bad = {{1, 1, 1},     {33, 32, 32}, {32, 33, 32}, {32, 32, 33},
                                  {100, 37, 65}, {0, 32, 32},  {32, -32, 32}};
  for (const Shape& shape : bad) {
    INFO("shape " << shape.rows << "x" << shape.inner << "x" << shape.cols);
    try {
      course::step3::launch_tiled_shared(nullptr, nullptr, nullptr, shape.rows, shape.inner,
                                         shape.cols);
      FAIL("the launcher accepted a size that is not a positive multiple of 32");
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      INFO(message);
      CHECK(message.find("multiple of the tile width 32") != std::string::npos);
      CHECK(message.find("Step 4") != std::string::npos);
    }
  }
  CHECK_NOTHROW(course::step3::check_tiled_shared_sizes(64, 96, 128));
}

TEST_CASE("step3 DEBUG check says wrong answer for one corrupted element", "[step3]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::HostMatrix<float> a(64, 96);
  course::HostMatrix<float> b(96, 32);
  course::fill_uniform(a, seed);
  course::fill_uniform(b, seed + 1);
  course::HostMatrix<float> product;
  course::matmul_serial(a, b, product);

  std::ostringstream correct_report;
  CHECK(course::step3::debug_verify(a, b, product, correct_report));
  CHECK(correct_report.str().find("wrong answer") == std::string::npos);
  CHECK(correct_report.str().find("correct") != std::string::npos);

  product(63, 31) += 1.0f;
  std::ostringstream wrong_report;
  CHECK_FALSE(course::step3::debug_verify(a, b, product, wrong_report));
  CHECK(wrong_report.str().find("wrong answer") != std::string::npos);
  CHECK(wrong_report.str().find("(63, 31)") != std::string::npos);
}

TEST_CASE("step3 launch_approach runs approach 4 and the approaches of step 2", "[step3][gpu]") {
  for (int approach = 1; approach <= 4; ++approach) {
    const std::uint64_t seed = course::fresh_seed();
    INFO("approach " << approach << ", seed " << seed);
    const int rows = approach == 4 ? 64 : 45;
    const int inner = approach == 4 ? 32 : 37;
    const int cols = approach == 4 ? 96 : 70;
    course::HostMatrix<float> a(rows, inner);
    course::HostMatrix<float> b(inner, cols);
    course::fill_small_integers(a, seed);
    course::fill_small_integers(b, seed + 1);
    course::DeviceMatrix<float> device_a(a);
    course::DeviceMatrix<float> device_b(b);
    course::DeviceMatrix<float> device_c(rows, cols);
    device_c.poison();
    course::step3::launch_approach(approach, device_a.data(), device_b.data(), device_c.data(),
                                   rows, inner, cols);
    const auto result = course::compare_with_reference(
        device_c.to_host(), course::matmul_reference(a, b), course::Tolerance::exact());
    INFO(result.summary());
    CHECK(result.ok());
  }
}

TEST_CASE("step3 benchmark runs and checks every method on small sizes", "[step3][gpu]") {
  course::step3::Options options;
  REQUIRE(parse_words(
      {"--bench", "--bench-sizes", "64,128", "--serial-max", "128", "--repeats", "2"}, options));
  std::ostringstream table;
  std::ostringstream progress;
  CHECK(course::step3::run_benchmark(options, table, progress) == 0);
  INFO(table.str() << progress.str());
  CHECK(table.str().find("| approach 4 (shared-memory tiling) |") != std::string::npos);
  CHECK(table.str().find("| cuBLAS SGEMM (fp32) |") != std::string::npos);
  CHECK(progress.str().find("wrong answer") == std::string::npos);
}

TEST_CASE("step3 options accept multiples of 32 and rectangular shapes", "[step3]") {
  course::step3::Options options;
  REQUIRE(parse_words({"--rows", "64", "--inner", "96", "--cols", "128"}, options));
  CHECK((options.rows == 64 && options.inner == 96 && options.cols == 128));
  CHECK(options.approach == 4);
  course::step3::Options other;
  REQUIRE(parse_words({"--size", "100", "--approach", "3"}, other));
  CHECK(other.rows == 100);
}

TEST_CASE("step3 options refuse zero and negative and non-numeric values", "[step3]") {
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

TEST_CASE("step3 options refuse sizes that are not multiples of 32 pointing to step 4", "[step3]") {
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

TEST_CASE("step3 program exits with a usage error for bad values before looking for a GPU",
          "[step3]") {
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
