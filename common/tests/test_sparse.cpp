/// @file test_sparse.cpp
/// @brief Tests of the COO/CSR formats and the random mask generators (no GPU).
#include "common/testing/catch2.hpp"

#include "common/host_sampling.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/sparse_matrix.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace {

// A COO matrix with `count` entries at random positions (repeats possible), in random order,
// each value distinct (its entry number), so that reordering can be followed.
course::CooMatrix random_unsorted_coo(int rows, int cols, std::size_t count, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> pick_row(0, rows - 1);
  std::uniform_int_distribution<int> pick_col(0, cols - 1);
  course::CooMatrix matrix;
  matrix.rows = rows;
  matrix.cols = cols;
  for (std::size_t entry = 0; entry < count; ++entry) {
    matrix.row_indices.push_back(pick_row(engine));
    matrix.col_indices.push_back(pick_col(engine));
    matrix.values.push_back(static_cast<float>(entry));
  }
  return matrix;
}

// Checks everything a generated mask promises: size, exact count, indices in range, strictly
// increasing row-major order (hence distinct positions) and values 1.
void check_mask(const course::CooMatrix& mask, int rows, int cols, std::size_t nnz) {
  REQUIRE(mask.rows == rows);
  REQUIRE(mask.cols == cols);
  REQUIRE(mask.nnz() == nnz);
  REQUIRE(mask.row_indices.size() == nnz);
  REQUIRE(mask.col_indices.size() == nnz);
  REQUIRE_NOTHROW(course::validate(mask));
  std::size_t out_of_order = 0;
  for (std::size_t entry = 1; entry < nnz; ++entry) {
    const auto previous = std::make_pair(mask.row_indices[entry - 1], mask.col_indices[entry - 1]);
    const auto current = std::make_pair(mask.row_indices[entry], mask.col_indices[entry]);
    if (!(previous < current)) {
      ++out_of_order;  // equal: a repeated position; greater: not sorted
    }
  }
  CHECK(out_of_order == 0);
  CHECK(std::count(mask.values.begin(), mask.values.end(), 1.0f) ==
        static_cast<std::ptrdiff_t>(nnz));
}

std::vector<std::size_t> row_lengths(const course::CooMatrix& mask) {
  std::vector<std::size_t> lengths(static_cast<std::size_t>(mask.rows), 0);
  for (int row : mask.row_indices) {
    ++lengths[static_cast<std::size_t>(row)];
  }
  return lengths;
}

}  // namespace

TEST_CASE("validate accepts a good COO matrix and names bad entries", "[common][sparse]") {
  course::CooMatrix matrix;
  matrix.rows = 3;
  matrix.cols = 4;
  matrix.row_indices = {0, 2, 1};
  matrix.col_indices = {3, 0, 1};
  matrix.values = {1.0f, 2.0f, 3.0f};
  CHECK_NOTHROW(course::validate(matrix));

  course::CooMatrix bad_row = matrix;
  bad_row.row_indices[1] = 3;
  CHECK_THROWS_WITH(
      course::validate(bad_row),
      Catch::Contains("entry 1") && Catch::Contains("row index 3 out of range [0, 3)"));
  course::CooMatrix negative_col = matrix;
  negative_col.col_indices[2] = -1;
  CHECK_THROWS_WITH(
      course::validate(negative_col),
      Catch::Contains("entry 2") && Catch::Contains("column index -1 out of range [0, 4)"));
  course::CooMatrix short_values = matrix;
  short_values.values.pop_back();
  CHECK_THROWS_AS(course::validate(short_values), std::invalid_argument);
  CHECK_THROWS_WITH(course::validate(short_values), Catch::Contains("size mismatch"));
  course::CooMatrix negative_size = matrix;
  negative_size.rows = -1;
  CHECK_THROWS_WITH(course::validate(negative_size), Catch::Contains("negative size"));
}

TEST_CASE("sort_row_major orders by row then column and keeps repeats in order",
          "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Few positions and many entries: plenty of repeats to check stability on. The second
  // matrix has far more rows than entries, which takes the comparison-sort path.
  for (const int rows : {7, 2000000000}) {
    course::CooMatrix matrix = random_unsorted_coo(7, 5, 300, seed);
    matrix.rows = rows;
    course::CooMatrix sorted = matrix;
    course::sort_row_major(sorted);
    REQUIRE(sorted.nnz() == matrix.nnz());
    // Independent order: (row, col, original entry number) tuples sorted lexicographically.
    std::vector<std::tuple<int, int, float>> expected;
    for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
      expected.emplace_back(matrix.row_indices[entry], matrix.col_indices[entry],
                            matrix.values[entry]);
    }
    std::sort(expected.begin(), expected.end());
    std::size_t mismatches = 0;
    for (std::size_t entry = 0; entry < sorted.nnz(); ++entry) {
      if (std::make_tuple(sorted.row_indices[entry], sorted.col_indices[entry],
                          sorted.values[entry]) != expected[entry]) {
        ++mismatches;
      }
    }
    INFO("rows " << rows);
    CHECK(mismatches == 0);
  }
}

TEST_CASE("coo_to_csr and csr_to_coo round trip", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const course::CooMatrix coo = random_unsorted_coo(50, 30, 400, seed);
  const course::CsrMatrix csr = course::coo_to_csr(coo);
  REQUIRE_NOTHROW(course::validate(csr));
  REQUIRE(csr.rows == 50);
  REQUIRE(csr.cols == 30);
  REQUIRE(csr.row_offsets.size() == 51);
  REQUIRE(csr.nnz() == coo.nnz());
  // Row lengths counted directly from the COO entries.
  std::vector<int> length(50, 0);
  for (int row : coo.row_indices) {
    ++length[static_cast<std::size_t>(row)];
  }
  for (std::size_t row = 0; row < 50; ++row) {
    CHECK(csr.row_offsets[row + 1] - csr.row_offsets[row] == length[row]);
  }
  course::CooMatrix sorted = coo;
  course::sort_row_major(sorted);
  const course::CooMatrix back = course::csr_to_coo(csr);
  CHECK(back.rows == coo.rows);
  CHECK(back.cols == coo.cols);
  CHECK(back.row_indices == sorted.row_indices);
  CHECK(back.col_indices == sorted.col_indices);
  CHECK(back.values == sorted.values);

  // Empty rows at both ends and an empty matrix.
  course::CooMatrix sparse;
  sparse.rows = 4;
  sparse.cols = 2;
  sparse.row_indices = {2, 1};
  sparse.col_indices = {0, 1};
  sparse.values = {5.0f, 6.0f};
  const course::CsrMatrix sparse_csr = course::coo_to_csr(sparse);
  CHECK(sparse_csr.row_offsets == std::vector<int>{0, 0, 1, 2, 2});
  CHECK(sparse_csr.col_indices == std::vector<int>{1, 0});
  CHECK(sparse_csr.values == std::vector<float>{6.0f, 5.0f});
  course::CooMatrix empty;
  empty.rows = 3;
  empty.cols = 3;
  CHECK(course::coo_to_csr(empty).row_offsets == std::vector<int>{0, 0, 0, 0});
  CHECK(course::csr_to_coo(course::coo_to_csr(empty)).nnz() == 0);
}

TEST_CASE("coo_to_csr and csr_to_coo refuse inconsistent matrices", "[common][sparse]") {
  course::CooMatrix coo;
  coo.rows = 2;
  coo.cols = 2;
  coo.row_indices = {0, 5};
  coo.col_indices = {0, 1};
  coo.values = {1.0f, 2.0f};
  CHECK_THROWS_WITH(course::coo_to_csr(coo), Catch::Contains("row index 5 out of range"));

  course::CsrMatrix csr;
  csr.rows = 2;
  csr.cols = 2;
  csr.row_offsets = {0, 2, 1};
  csr.col_indices = {0, 1};
  csr.values = {1.0f, 2.0f};
  CHECK_THROWS_WITH(course::csr_to_coo(csr), Catch::Contains("decrease at row 1"));
  csr.row_offsets = {0, 1, 3};
  CHECK_THROWS_WITH(course::csr_to_coo(csr), Catch::Contains("expected nnz = 2"));
  csr.row_offsets = {0, 2};
  CHECK_THROWS_WITH(course::csr_to_coo(csr), Catch::Contains("expected rows + 1 = 3"));
  csr.row_offsets = {0, 1, 2};
  csr.col_indices = {0, 2};
  CHECK_THROWS_WITH(course::csr_to_coo(csr), Catch::Contains("column index 2 out of range [0, 2)"));
}

TEST_CASE("random_uniform_mask gives exactly nnz distinct sorted positions", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  struct MaskSizes {
    int rows;
    int cols;
    std::size_t nnz;
  };
  // Empty, a single entry, sparse, half full, more than half (the complement path), full,
  // and one row or column only.
  const MaskSizes cases[] = {{5, 5, 0},      {1, 1, 1},      {100, 80, 400},
                             {40, 50, 1000}, {40, 50, 1999}, {30, 20, 600},
                             {1, 1000, 999}, {1000, 1, 3},   {3000, 7000, 313110}};
  for (const MaskSizes& sizes : cases) {
    INFO(sizes.rows << " x " << sizes.cols << ", nnz " << sizes.nnz);
    check_mask(course::random_uniform_mask(sizes.rows, sizes.cols, sizes.nnz, seed), sizes.rows,
               sizes.cols, sizes.nnz);
  }
}

TEST_CASE("random_uniform_mask handles the note's large shapes", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 916000^2 with 5M entries: 8.4e11 positions, far too many for any dense array.
  const course::CooMatrix mask = course::random_uniform_mask(916000, 916000, 5000000, seed);
  check_mask(mask, 916000, 916000, 5000000);
  // Rows and columns are both used throughout their range.
  CHECK(mask.row_indices.front() < 1000);
  CHECK(mask.row_indices.back() > 915000);
  CHECK(*std::max_element(mask.col_indices.begin(), mask.col_indices.end()) > 915000);
}

TEST_CASE("random_uniform_mask is reproducible and uniform", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const course::CooMatrix first = course::random_uniform_mask(200, 300, 5000, seed);
  const course::CooMatrix again = course::random_uniform_mask(200, 300, 5000, seed);
  const course::CooMatrix other = course::random_uniform_mask(200, 300, 5000, seed + 1);
  CHECK(first.row_indices == again.row_indices);
  CHECK(first.col_indices == again.col_indices);
  CHECK_FALSE((first.row_indices == other.row_indices && first.col_indices == other.col_indices));

  // Every position of a 10 x 10 matrix is chosen with probability 30 / 100. Over 4000 masks
  // each count is binomial (mean 1200, sd 29); 7 sd bounds fail by chance < 1e-9.
  constexpr int kTrials = 4000;
  std::vector<int> hits(100, 0);
  for (int trial = 0; trial < kTrials; ++trial) {
    const course::CooMatrix mask =
        course::random_uniform_mask(10, 10, 30, seed + 1000 + static_cast<std::uint64_t>(trial));
    for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
      ++hits[static_cast<std::size_t>(mask.row_indices[entry] * 10 + mask.col_indices[entry])];
    }
  }
  for (int position = 0; position < 100; ++position) {
    INFO("position " << position);
    CHECK(hits[static_cast<std::size_t>(position)] > 1200 - 7 * 29);
    CHECK(hits[static_cast<std::size_t>(position)] < 1200 + 7 * 29);
  }
}

TEST_CASE("random_uniform_mask draws every subset alike when repeats are filled in",
          "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 2 of the 4 positions of a 2 x 2 matrix: the two draws repeat one time in four, and the
  // missing position is then chosen among the free ones. Each of the 6 pairs must come up
  // 1 time in 6: over 6000 masks each count is binomial (mean 1000, sd 29), 7 sd bounds.
  constexpr int kTrials = 6000;
  std::map<std::pair<int, int>, int> pairs;
  for (int trial = 0; trial < kTrials; ++trial) {
    const course::CooMatrix mask =
        course::random_uniform_mask(2, 2, 2, seed + static_cast<std::uint64_t>(trial));
    REQUIRE(mask.nnz() == 2);
    ++pairs[{mask.row_indices[0] * 2 + mask.col_indices[0],
             mask.row_indices[1] * 2 + mask.col_indices[1]}];
  }
  REQUIRE(pairs.size() == 6);
  for (const auto& [pair, count] : pairs) {
    INFO("positions " << pair.first << " and " << pair.second);
    CHECK(count > 1000 - 7 * 29);
    CHECK(count < 1000 + 7 * 29);
  }
  // Just under half full: a fifth of the draws repeat and are filled in the same way.
  check_mask(course::random_uniform_mask(1000, 1000, 499999, seed), 1000, 1000, 499999);
}

TEST_CASE("mask_generation_bytes counts 28 bytes per entry and saturates", "[common][sparse]") {
  CHECK(course::mask_generation_bytes(1000) == 28000u);
  CHECK(course::mask_generation_bytes(UINT64_MAX / 4) == UINT64_MAX);
}

TEST_CASE("a power-law mask needs 48 bytes per row besides its entries", "[common][sparse]") {
  CHECK(course::power_law_row_bytes(1000) == 48000u);
  CHECK(course::power_law_row_bytes(UINT64_MAX / 4) == UINT64_MAX);
}

TEST_CASE("random masks refuse impossible sizes", "[common][sparse]") {
  CHECK_THROWS_WITH(course::random_uniform_mask(3, 4, 13, 1),
                    Catch::Contains("nnz 13 exceeds rows * cols = 12"));
  CHECK_THROWS_AS(course::random_uniform_mask(-1, 4, 0, 1), std::invalid_argument);
  CHECK_THROWS_WITH(course::random_uniform_mask(INT_MAX, INT_MAX, std::size_t{1} << 32, 1),
                    Catch::Contains("exceeds the limit 2147483647"));
  CHECK_THROWS_WITH(course::random_power_law_mask(3, 4, 13, 1.0, 1),
                    Catch::Contains("nnz 13 exceeds rows * cols = 12"));
  CHECK_THROWS_WITH(course::random_power_law_mask(3, 4, 5, -0.5, 1),
                    Catch::Contains("out of range [0, 10]"));
}

TEST_CASE("random_power_law_mask gives exact skewed masks", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  SECTION("exponent 0 gives equal row lengths") {
    const course::CooMatrix mask = course::random_power_law_mask(100, 500, 1234, 0.0, seed);
    check_mask(mask, 100, 500, 1234);
    for (std::size_t length : row_lengths(mask)) {
      CHECK((length == 12 || length == 13));
    }
  }
  SECTION("a large exponent gives a few long rows") {
    const course::CooMatrix mask = course::random_power_law_mask(2000, 3000, 60000, 1.5, seed);
    check_mask(mask, 2000, 3000, 60000);
    std::vector<std::size_t> lengths = row_lengths(mask);
    std::sort(lengths.rbegin(), lengths.rend());
    // Zipf with exponent 1.5 over 2000 ranks: the longest row takes about 38% of the
    // entries (capped at the 3000 columns), the second 1 / 2^1.5 of the first.
    CHECK(lengths[0] == 3000);
    CHECK(lengths[1] > 5 * 60000 / 2000);
    CHECK(lengths[1999] < 60000 / 2000);
  }
  SECTION("rows that would overflow are capped at cols and the rest redistributed") {
    const course::CooMatrix mask = course::random_power_law_mask(10, 5, 45, 3.0, seed);
    check_mask(mask, 10, 5, 45);
    for (std::size_t length : row_lengths(mask)) {
      CHECK(length <= 5);
    }
  }
  SECTION("full and empty") {
    check_mask(course::random_power_law_mask(8, 6, 48, 2.0, seed), 8, 6, 48);
    check_mask(course::random_power_law_mask(8, 6, 0, 2.0, seed), 8, 6, 0);
  }
}

TEST_CASE("uniform_mask_name follows the note", "[common][sparse]") {
  CHECK(course::uniform_mask_name(5000, 5000, 250000) == "matrix_5000_5000_250000");
  CHECK(course::uniform_mask_name(300000, 103000, 69000000) == "matrix_300000_103000_69000000");
}

TEST_CASE("S is a pattern exactly when every value is one", "[common][sparse]") {
  using course::pattern_values_of;
  using course::PatternValues;
  CHECK(pattern_values_of({}) == PatternValues::all_ones);  // no entry: nothing to read
  CHECK(pattern_values_of({1.0f, 1.0f, 1.0f}) == PatternValues::all_ones);
  CHECK(pattern_values_of({1.0f, 0.5f, 1.0f}) == PatternValues::upload);
  CHECK(pattern_values_of({1.0f, 1.0f, 2.0f}) == PatternValues::upload);  // a summed duplicate
  CHECK(pattern_values_of({-1.0f}) == PatternValues::upload);
  CHECK(pattern_values_of({std::nextafter(1.0f, 2.0f)}) == PatternValues::upload);
  CHECK(std::string(course::pattern_values_name(PatternValues::all_ones)) == "pattern");
  CHECK(std::string(course::pattern_values_name(PatternValues::upload)) == "values");
}
