/// @file test_generate_mask_tool.cpp
/// @brief The generate_mask tool's command line and limits, run as a user would (no GPU).
#include <catch2/catch.hpp>

#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/sparse_generators.hpp"
#include "common/testing/program_runner.hpp"
#include "common/tests/temp_files.hpp"

#include <chrono>
#include <string>

namespace {

int run_tool(const std::string& arguments, std::string& output) {
  return course::testing::run_program_capture(GENERATE_MASK_PATH, arguments, output);
}

}  // namespace

TEST_CASE("generate_mask writes exactly the mask it is asked for", "[common][tools]") {
  course::testing::TempDir dir;
  const std::string path = dir.file("mask.mtx.gz");
  std::string output;
  REQUIRE(run_tool("--rows 300 --cols 200 --nnz 5000 --seed 3 --out " + path, output) == 0);
  const course::CooMatrix mask = course::read_matrix_market(path);
  CHECK(mask.rows == 300);
  CHECK(mask.cols == 200);
  CHECK(mask.nnz() == 5000);
}

TEST_CASE("generate_mask refuses bad command lines by name", "[common][tools]") {
  const struct {
    const char* arguments;
    const char* message;
  } cases[] = {
      {"--rows 3 --cols 3 --nnz 2 --out --seed", "--out needs a file name, got the option --seed"},
      {"--rows 3 --cols 3 --nnz 10", "--nnz 10 exceeds rows * cols = 9"},
      {"--power-law 0.5abc", "--power-law must be a number from 0 to 10, got '0.5abc'"},
      {"--power-law inf", "not a finite number"},
      {"--seed 1 --seed 2", "--seed is given twice"},
  };
  for (const auto& bad : cases) {
    INFO(bad.arguments);
    std::string output;
    CHECK(run_tool(bad.arguments, output) == 2);
    CHECK_THAT(output, Catch::Contains(bad.message));
  }
}

TEST_CASE("generate_mask refuses oversized masks at once with the figures", "[common][tools]") {
  const std::string largest = "--rows 2147483647 --cols 2147483647 --nnz 2147483647";
  std::string output;
  const auto start = std::chrono::steady_clock::now();
  CHECK(run_tool(largest, output) == 2);
  CHECK_THAT(output, Catch::Contains("44.00 GiB of text") &&
                         Catch::Contains("more than --max-output-mb 512"));
  // With the output limit raised, the memory estimate decides (56 GiB to draw the mask).
  const bool fits = course::available_host_memory() >= course::mask_generation_bytes(2147483647);
  if (!fits) {
    CHECK(run_tool(largest + " --max-output-mb 1048576", output) == 1);
    CHECK_THAT(output, Catch::Contains("not enough host memory") && Catch::Contains("56.00 GiB"));
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}
