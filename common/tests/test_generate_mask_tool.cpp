/// @file test_generate_mask_tool.cpp
/// @brief The generate_mask tool's command line and limits, run as a user would (no GPU).
#include "common/testing/catch2.hpp"

#include "common/attention_masks.hpp"
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
      {"--power-law inf", "got 'inf' (not a decimal number"},
      {"--power-law 0x1", "got '0x1' (not a decimal number"},
      {"--rows +5", "got '+5' (not a whole number"},
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

TEST_CASE("generate_mask counts the rows of a power-law mask before it draws", "[common][tools]") {
  // 2^31 - 1 rows need 96 GiB for their lengths however few the entries: refused at once
  // where that memory is not available, with the figure.
  const std::string rows = "--rows 2147483647 --cols 1 --nnz 1 --power-law 10";
  if (course::available_host_memory() < course::power_law_row_bytes(2147483647)) {
    std::string output;
    const auto start = std::chrono::steady_clock::now();
    CHECK(run_tool(rows, output) == 1);
    CHECK_THAT(output, Catch::Contains("not enough host memory") &&
                           Catch::Contains("the power law's row lengths (2147483647 rows)") &&
                           Catch::Contains("96.00 GiB"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  }
}

TEST_CASE("generate_mask writes the attention masks of the library", "[common][tools]") {
  course::testing::TempDir dir;
  course::AttentionMaskSpec spec;
  spec.kind = course::AttentionKind::block_sparse;
  spec.rows = 300;
  spec.cols = 200;
  spec.block_size = 32;
  spec.block_density = 0.25;
  spec.causal = true;
  spec.seed = 7;
  const std::string path = dir.file("block.mtx");
  std::string output;
  REQUIRE(run_tool("--mask block-sparse --rows 300 --cols 200 --block-size 32 --block-density "
                   "0.25 --causal --seed 7 --out " +
                       path,
                   output) == 0);
  const course::CooMatrix written = course::read_matrix_market(path);
  const course::CooMatrix expected = course::attention_mask(spec);
  CHECK(written.rows == 300);
  CHECK(written.cols == 200);
  CHECK(written.row_indices == expected.row_indices);
  CHECK(written.col_indices == expected.col_indices);
  spec.kind = course::AttentionKind::bigbird;
  spec.half_width = 3;
  spec.global = 2;
  spec.random_per_row = 4;
  spec.causal = false;
  const std::string bird_path = dir.file("bird.mtx.gz");
  REQUIRE(run_tool("--mask bigbird --rows 300 --cols 200 --window 3 --global 2 "
                   "--random-per-row 4 --seed 7 --out " +
                       bird_path,
                   output) == 0);
  CHECK(course::read_matrix_market(bird_path).col_indices ==
        course::attention_mask(spec).col_indices);
}

TEST_CASE("generate_mask refuses attention options that do not apply or break a limit",
          "[common][tools]") {
  const struct {
    const char* arguments;
    const char* message;
  } cases[] = {
      {"--mask dense",
       "--mask must be uniform, block-sparse, sliding-window or bigbird, got 'dense'"},
      {"--mask bigbird --nnz 10", "--nnz applies only with --mask uniform"},
      {"--block-size 8", "--block-size applies only with --mask block-sparse"},
      {"--mask block-sparse --window 8",
       "--window applies only with --mask sliding-window or bigbird"},
      {"--mask sliding-window --random-per-row 3",
       "--random-per-row applies only with --mask bigbird"},
      {"--causal", "--causal applies only with an attention --mask"},
      {"--mask sliding-window --rows 100 --cols 50 --window 4 --global 60",
       "global rows and columns must be from 0 to min(rows, cols) = 50, got 60"},
      {"--mask block-sparse --rows 100 --cols 50 --block-size 101",
       "block size must be from 1 to max(rows, cols) = 100, got 101"},
      {"--mask block-sparse --block-density 0", "--block-density must be"},
  };
  for (const auto& bad : cases) {
    INFO(bad.arguments);
    std::string output;
    CHECK(run_tool(bad.arguments, output) == 2);
    CHECK_THAT(output, Catch::Contains(bad.message));
  }
}
