/// @file test_approaches.cpp
/// @brief GPU tests: every approach against the CPU reference SDDMM on awkward shapes.
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"
#include "common/matrix_market.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace course::step5::testing;  // the shared checks and matrices of approach_checks.hpp

TEST_CASE("every approach queues all its work on the stream it is given", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // A band with an outlier above scattered rows: every approach's kernels have work (approach
  // 4 runs here with its defaults and with Tensor Cores even for a small S). The run is
  // captured into a CUDA graph, which fails if any work is queued outside the stream.
  const course::CooMatrix s =
      with_random_values(stack_rows(band_matrix(96, 200, 3, true),
                                    course::random_uniform_mask(70, 200, 900, seed), 0.5f),
                         seed);
  for (const course::step5::ApproachEntry& approach : approaches_under_test()) {
    for (const int inner : {7, 64}) {
      check_approach(approach, s, inner, inner, seed, RunOn::captured_stream);
    }
  }
}

TEST_CASE("all approaches with rows inner cols not multiples of 16", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_all(with_random_values(course::random_uniform_mask(37, 53, 300, seed), seed), 45);
  check_all(course::random_uniform_mask(17, 18, 100, seed + 2), 7);
}

TEST_CASE("all approaches with padded leading dimensions and an inner tail", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  const course::CooMatrix s = course::random_uniform_mask(40, 70, 500, seed);
  check_all(s, 45, 48);  // vector loads over 40 columns, scalar tail of 5
  check_all(s, 256, 264);
}

TEST_CASE("all approaches on a rectangular matrix", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_all(course::random_uniform_mask(100, 300, 3000, seed), 64);
  check_all(course::random_uniform_mask(300, 20, 1000, seed + 1), 32);
}

TEST_CASE("all approaches with empty rows and columns", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 50;
  s.cols = 45;
  for (int row = 3; row < s.rows; row += 7) {
    for (int col = 1; col < s.cols / 2; col += 3) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(col);
      s.values.push_back(1.0f);
    }
  }
  check_all(s, 40);
}

TEST_CASE("all approaches with nnz of zero", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 20;
  s.cols = 30;
  check_all(s, 16);
}

TEST_CASE("all approaches with one nonzero", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 33;
  s.cols = 65;
  s.row_indices = {32};
  s.col_indices = {64};
  s.values = {-3.0f};
  check_all(s, 24);
}

TEST_CASE("all approaches with every nonzero in one full tile", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 64;
  s.cols = 64;
  for (int row = 16; row < 32; ++row) {
    for (int col = 32; col < 48; ++col) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(col);
      s.values.push_back(1.0f);
    }
  }
  check_all(with_random_values(s, course::fresh_seed()), 48);
}

TEST_CASE("approach 3 version 1 scanning all nonzeros gives the same result", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  course::step5::Options options;
  options.tile_ranges = false;
  check_approach(course::step5::Approach::tile_grouped,
                 course::random_uniform_mask(90, 70, 400, seed), 32, 32, seed, options);
}

TEST_CASE("approach 2 block shapes give the same result", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  const course::CooMatrix s = course::random_uniform_mask(100, 130, 900, seed);
  for (const auto& shape : {std::pair<int, int>{1, 32}, {4, 4}, {2, 8}, {8, 2}, {4, 1}}) {
    course::step5::Options options;
    options.dense_warps_x = shape.first;
    options.dense_warps_y = shape.second;
    check_approach(course::step5::Approach::dense_wmma, s, 40, 40, seed, options);
  }
}

TEST_CASE("all approaches on a real matrix written and read as Matrix Market", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("step5_fixture_" + std::to_string(seed));
  std::filesystem::create_directories(directory);
  const std::string path = (directory / "fixture.mtx").string();
  {
    // A small symmetric "real" matrix by hand: a banded 30x30 with values, lower triangle.
    std::ofstream file(path);
    file << "%%MatrixMarket matrix coordinate real symmetric\n% step 5 test fixture\n";
    int entries = 0;
    std::ostringstream lines;
    for (int row = 1; row <= 30; ++row) {
      for (int col = std::max(1, row - 2); col <= row; ++col) {
        lines << row << " " << col << " " << (row * 0.5 - col * 0.25) << "\n";
        ++entries;
      }
    }
    file << "30 30 " << entries << "\n" << lines.str();
  }
  const course::CooMatrix s = course::read_matrix_market(path);
  std::filesystem::remove_all(directory);
  REQUIRE(s.nnz() == 30 + 2 * 29 + 2 * 28);
  check_all(s, 33);
}

TEST_CASE("approach 2 refuses a dense product that is too large", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 1 << 20;
  s.cols = 1 << 20;
  s.row_indices = {5};
  s.col_indices = {7};
  s.values = {1.0f};
  const course::step5::DevicePattern pattern(s);
  course::step5::Options options;
  CHECK_THROWS_WITH(course::step5::Plan(course::step5::Approach::dense_wmma, pattern, 16, options),
                    Catch::Contains("dense product") && Catch::Contains("TiB"));
  options.dense_limit_elements = std::size_t{1} << 42;
  CHECK_THROWS_AS(course::step5::Plan(course::step5::Approach::dense_wmma, pattern, 16, options),
                  course::DeviceMemoryError);
  // Approach 3 (and approach 4 of going_further/) allocate nothing of size rows×cols and run.
  for (const course::step5::ApproachEntry& approach : approaches_under_test()) {
    if (approach.number >= static_cast<int>(course::step5::Approach::tile_grouped)) {
      check_approach(approach, s, 16, 16, course::fresh_seed());
    }
  }
}

TEST_CASE("plan run refuses operands of another shape", "[step5][gpu]") {
  const course::CooMatrix s = course::random_uniform_mask(20, 20, 10, course::fresh_seed());
  const course::step5::DevicePattern pattern(s);
  const course::step5::Plan plan(course::step5::Approach::tile_grouped, pattern, 16);
  course::DeviceBuffer<__half> a(21 * 16);
  course::DeviceBuffer<float> output(10);
  const course::step5::DenseOperands wrong(course::ProductSizes{21, 16, 20}, a.data(), 16, a.data(),
                                           16);
  CHECK_THROWS_WITH(plan.run(wrong, output.data()), Catch::Contains("S is 20x20"));
  const course::step5::DenseOperands other_inner(course::ProductSizes{20, 17, 20}, a.data(), 17,
                                                 a.data(), 17);
  CHECK_THROWS_WITH(plan.run(other_inner, output.data()), Catch::Contains("inner=16"));
}
