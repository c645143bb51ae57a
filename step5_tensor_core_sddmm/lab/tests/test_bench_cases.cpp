/// @file test_bench_cases.cpp
/// @brief Tests of matrix_cases() and skip_reason() (no GPU).
///
/// Step 5, the benchmark's list of matrices (CPU only): sizes from the size line, malformed
/// files and cases that cannot fit become rows saying why.
#include "common/testing/catch2.hpp"

#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"
#include "common/cli.hpp"
#include "common/tests/temp_files.hpp"

#include <algorithm>
#include <string>
#include <vector>

TEST_CASE("benchmark cases of a folder's matrices get their sizes from the size line",
          "[step5][bench]") {
  course::testing::TempDir dir;
  const std::string header = "%%MatrixMarket matrix coordinate pattern symmetric\n";
  // The entries are never read here: a wrong one does not matter yet.
  course::testing::write_gzip(dir.file("b_sym.mtx.gz"), header + "50 50 30\n1 1\n");
  course::testing::write_text(dir.file("a_broken.mtx"), "hello\n");
  course::testing::write_text(dir.file("c_notes.txt"), "not a matrix\n");
  const std::vector<course::step5::bench::BenchCase> cases =
      course::step5::bench::matrix_cases(dir.path());
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].name == "a_broken");
  CHECK_THAT(cases[0].problem, Catch::Contains("a_broken.mtx:1: bad header"));
  CHECK(cases[1].name == "b_sym");
  CHECK(cases[1].problem.empty());
  CHECK(cases[1].rows == 50);
  CHECK(cases[1].cols == 50);
  CHECK(cases[1].expected_nnz == 60u);  // a symmetric file's entries count twice at most
  CHECK_THROWS_AS(course::step5::bench::matrix_cases(dir.file("no_such_folder")),
                  course::UsageError);
}

TEST_CASE("a benchmark case that cannot run says why", "[step5][bench]") {
  course::step5::bench::Settings settings;
  course::step5::bench::BenchCase small{"small", nullptr, 64, 1000, 300, 400, false, ""};
  CHECK(course::step5::bench::skip_reason(small, settings).empty());
  settings.max_nnz = 999;
  CHECK(course::step5::bench::skip_reason(small, settings) == "skipped (--max-nnz)");
  settings.max_nnz = 0;
  course::step5::bench::BenchCase broken = small;
  broken.problem = "x.mtx:1: bad header";
  CHECK(course::step5::bench::skip_reason(broken, settings) == "skipped: x.mtx:1: bad header");
  // A of 2e9 x 65536 halves: 238 TiB on no machine.
  course::step5::bench::BenchCase huge{"huge", nullptr, 65536, 1, 2000000000, 2, false, ""};
  CHECK_THAT(course::step5::bench::skip_reason(huge, settings),
             Catch::StartsWith("skipped: not enough host memory") &&
                 Catch::Contains("A (rows x inner halves) 238.42 TiB"));
}

TEST_CASE("the benchmark's public attention set runs each mask at inner 64 then 128 then 256",
          "[step5][bench]") {
  const std::string file = std::string(COURSE_STEP5_SETS) + "/attention_public.txt";
  const std::vector<course::step5::bench::BenchCase> cases = course::step5::bench::mask_set_cases(
      course::step5::bench::read_mask_set(file), "attention_public", 1);
  REQUIRE(cases.size() % 3 == 0);
  REQUIRE(cases.size() >= 51);
  for (std::size_t index = 0; index < cases.size(); index += 3) {
    INFO(cases[index].name);
    CHECK(cases[index].attention);
    CHECK(cases[index].set == "attention_public");
    CHECK(cases[index + 1].name == cases[index].name);
    CHECK(cases[index + 2].name == cases[index].name);
    CHECK(cases[index].inner == 64);
    CHECK(cases[index + 1].inner == 128);
    CHECK(cases[index + 2].inner == 256);
    CHECK(cases[index].rows >= 4096);
    CHECK(cases[index].rows <= 32768);
    CHECK(cases[index].expected_nnz > 0);
  }
  CHECK(cases[0].name == "block_16384_b128_d0.05");
  // The smallest window: its nnz bound is exact and the mask is made with it.
  const auto window = std::find_if(cases.begin(), cases.end(), [](const auto& bench_case) {
    return bench_case.name == "window_4096_w64_g8";
  });
  REQUIRE(window != cases.end());
  CHECK(window->make().nnz() == window->expected_nnz);
  // The run's seed changes the random masks, and the same seed gives the same mask.
  const auto block_mask = [&](std::uint64_t seed) {
    return course::step5::bench::mask_set_cases(course::step5::bench::read_mask_set(file),
                                                "attention_public", seed)[0]
        .make();
  };
  CHECK(block_mask(1).col_indices == block_mask(1).col_indices);
  CHECK(block_mask(1).col_indices != block_mask(2).col_indices);
}

TEST_CASE("a benchmark shape set makes uniform masks of exactly its entries", "[step5][bench]") {
  const std::vector<course::step5::bench::ShapeSetEntry> shapes = {{300, 64, 700, 3131},
                                                                   {40, 256, 40, 1600}};
  const std::vector<course::step5::bench::BenchCase> cases =
      course::step5::bench::shape_set_cases(shapes, "shapes", 5);
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].name == "matrix_300_700_3131");
  CHECK(cases[0].inner == 64);
  CHECK(cases[0].make().nnz() == 3131u);
  CHECK(cases[1].make().nnz() == 1600u);  // every position
  CHECK(cases[1].set == "shapes");
}
