/// @file test_attention_masks.cpp
/// @brief The attention-mask generators: exact counts, structure (whole blocks cut by the edge,
/// nothing above the diagonal when causal, the window and global rows and columns), seeds, and
/// the refusals of bad parameters.
#include "common/testing/catch2.hpp"

#include "common/attention_masks.hpp"

#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace {

using course::AttentionKind;
using course::AttentionMaskSpec;

/// Every entry once, sorted row-major, inside the matrix, value one.
void check_sorted_distinct(const course::CooMatrix& mask) {
  REQUIRE(mask.row_indices.size() == mask.col_indices.size());
  REQUIRE(mask.values.size() == mask.row_indices.size());
  for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
    REQUIRE(mask.row_indices[entry] >= 0);
    REQUIRE(mask.row_indices[entry] < mask.rows);
    REQUIRE(mask.col_indices[entry] >= 0);
    REQUIRE(mask.col_indices[entry] < mask.cols);
    REQUIRE(mask.values[entry] == 1.0f);
    if (entry > 0) {
      const auto previous =
          std::make_pair(mask.row_indices[entry - 1], mask.col_indices[entry - 1]);
      REQUIRE(previous < std::make_pair(mask.row_indices[entry], mask.col_indices[entry]));
    }
  }
}

std::set<std::pair<int, int>> entries(const course::CooMatrix& mask) {
  std::set<std::pair<int, int>> set;
  for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
    set.insert({mask.row_indices[entry], mask.col_indices[entry]});
  }
  return set;
}

/// The sliding-window rule written the plain way, one position at a time.
bool in_window(const AttentionMaskSpec& spec, int row, int col) {
  if (spec.causal && col > row) {
    return false;
  }
  const int distance = row > col ? row - col : col - row;
  return distance <= spec.half_width || row < spec.global || col < spec.global;
}

AttentionMaskSpec window(int rows, int cols, int half_width, int global, bool causal) {
  return course::sliding_window_spec(rows, cols, half_width, global, causal);
}

AttentionMaskSpec blocks(int rows, int cols, int size, double density, bool causal,
                         std::uint64_t seed = 5) {
  return course::block_sparse_spec(rows, cols, size, density, causal, seed);
}

}  // namespace

TEST_CASE("sliding window masks hold exactly the band and the global rows and columns",
          "[common][attention]") {
  // Hand counts: a 10 x 10 band of half-width 1 has 10 + 2 * 9 entries, its causal half 19.
  CHECK(course::attention_mask(window(10, 10, 1, 0, false)).nnz() == 28);
  CHECK(course::attention_mask(window(10, 10, 1, 0, true)).nnz() == 19);
  // Global row 0 and column 0 added: row 0 whole (10), rows 1 and 9 three each, rows 2..8 four.
  CHECK(course::attention_mask(window(10, 10, 1, 1, false)).nnz() == 44);
  for (const bool causal : {false, true}) {
    for (const auto& [rows, cols] : {std::pair{37, 29}, std::pair{29, 37}, std::pair{40, 40}}) {
      const AttentionMaskSpec spec = window(rows, cols, 4, 3, causal);
      INFO(course::attention_mask_name(spec));
      const course::CooMatrix mask = course::attention_mask(spec);
      check_sorted_distinct(mask);
      const std::set<std::pair<int, int>> held = entries(mask);
      std::size_t expected = 0;
      for (int row = 0; row < rows; ++row) {
        for (int col = 0; col < cols; ++col) {
          const bool want = in_window(spec, row, col);
          expected += want ? 1 : 0;
          REQUIRE(held.count({row, col}) == (want ? 1u : 0u));
        }
      }
      CHECK(mask.nnz() == expected);
      CHECK(course::attention_mask_max_nnz(spec) == expected);  // exact for a window
    }
  }
}

TEST_CASE("block-sparse masks are whole blocks cut by the edge", "[common][attention]") {
  // 100 x 70 in 16 x 16 blocks: a 7 x 5 grid whose last block row has 4 rows and last block
  // column 6 columns; 20 % of 35 blocks is 7.
  const AttentionMaskSpec spec = blocks(100, 70, 16, 0.2, false);
  CHECK(course::attention_block_count(spec) == 7);
  const course::CooMatrix mask = course::attention_mask(spec);
  check_sorted_distinct(mask);
  std::map<std::pair<int, int>, std::size_t> per_block;
  for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
    ++per_block[{mask.row_indices[entry] / 16, mask.col_indices[entry] / 16}];
  }
  CHECK(per_block.size() == 7);
  std::size_t expected = 0;
  for (const auto& [block, count] : per_block) {
    const std::size_t height = block.first == 6 ? 4 : 16;
    const std::size_t width = block.second == 4 ? 6 : 16;
    INFO("block " << block.first << ", " << block.second);
    CHECK(count == height * width);
    expected += height * width;
  }
  CHECK(mask.nnz() == expected);
  CHECK(mask.nnz() <= course::attention_mask_max_nnz(spec));
  // Density 1: every block, the whole matrix.
  CHECK(course::attention_mask(blocks(100, 70, 16, 1.0, false)).nnz() == 7000);
  // A tiny density still keeps one block.
  CHECK(course::attention_block_count(blocks(100, 70, 16, 1e-9, false)) == 1);
}

TEST_CASE("causal masks hold nothing above the diagonal", "[common][attention]") {
  // Causal blocks: the kept blocks reach the diagonal; those on it are cut to their lower
  // triangle, the others stay whole.
  const AttentionMaskSpec spec = blocks(90, 90, 16, 0.5, true, 11);
  // The grid is 6 x 6; the blocks on or below the diagonal number 21, half of them 10.5 -> 11.
  CHECK(course::attention_block_count(spec) == 11);
  const course::CooMatrix mask = course::attention_mask(spec);
  check_sorted_distinct(mask);
  std::map<std::pair<int, int>, std::size_t> per_block;
  for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
    REQUIRE(mask.col_indices[entry] <= mask.row_indices[entry]);
    ++per_block[{mask.row_indices[entry] / 16, mask.col_indices[entry] / 16}];
  }
  CHECK(per_block.size() == 11);
  for (const auto& [block, count] : per_block) {
    std::size_t lower = 0;  // positions of the block (cut at 90) with col <= row
    for (int row = block.first * 16; row < std::min(90, block.first * 16 + 16); ++row) {
      for (int col = block.second * 16; col < std::min(90, block.second * 16 + 16); ++col) {
        lower += col <= row ? 1 : 0;
      }
    }
    CHECK(count == lower);
  }
  AttentionMaskSpec bigbird = window(64, 64, 2, 2, true);
  bigbird.kind = AttentionKind::bigbird;
  bigbird.random_per_row = 5;
  const course::CooMatrix bird = course::attention_mask(bigbird);
  for (std::size_t entry = 0; entry < bird.nnz(); ++entry) {
    REQUIRE(bird.col_indices[entry] <= bird.row_indices[entry]);
  }
}

TEST_CASE("BigBird masks add exactly the random columns per row", "[common][attention]") {
  AttentionMaskSpec spec = window(200, 300, 3, 4, false);
  spec.kind = AttentionKind::bigbird;
  spec.random_per_row = 10;
  spec.seed = 9;
  const course::CooMatrix mask = course::attention_mask(spec);
  check_sorted_distinct(mask);
  const std::set<std::pair<int, int>> held = entries(mask);
  std::vector<int> row_length(200, 0);
  for (std::size_t entry = 0; entry < mask.nnz(); ++entry) {
    ++row_length[static_cast<std::size_t>(mask.row_indices[entry])];
  }
  std::size_t expected = 0;
  for (int row = 0; row < 200; ++row) {
    int band = 0;  // the window and global entries, every one of which must be held
    for (int col = 0; col < 300; ++col) {
      if (in_window(spec, row, col)) {
        ++band;
        REQUIRE(held.count({row, col}) == 1);
      }
    }
    const int want = row < 4 ? 300 : band + 10;  // global rows are whole
    INFO("row " << row);
    CHECK(row_length[static_cast<std::size_t>(row)] == want);
    expected += static_cast<std::size_t>(want);
  }
  CHECK(mask.nnz() == expected);
  CHECK(course::attention_mask_max_nnz(spec) == expected);
  // More random columns than a row has free: the row is filled, no more.
  spec.random_per_row = 300;
  CHECK(course::attention_mask(spec).nnz() == 200u * 300u);
}

TEST_CASE("attention masks reproduce from their seed", "[common][attention]") {
  const course::CooMatrix first = course::attention_mask(blocks(256, 256, 32, 0.3, false, 3));
  const course::CooMatrix again = course::attention_mask(blocks(256, 256, 32, 0.3, false, 3));
  const course::CooMatrix other = course::attention_mask(blocks(256, 256, 32, 0.3, false, 4));
  CHECK(first.row_indices == again.row_indices);
  CHECK(first.col_indices == again.col_indices);
  CHECK(first.nnz() == other.nnz());  // 19 whole blocks either way
  CHECK(first.col_indices != other.col_indices);
  AttentionMaskSpec spec = window(128, 128, 2, 1, false);
  spec.kind = AttentionKind::bigbird;
  spec.random_per_row = 3;
  spec.seed = 21;
  const course::CooMatrix bird = course::attention_mask(spec);
  CHECK(course::attention_mask(spec).col_indices == bird.col_indices);
  spec.seed = 22;
  CHECK(course::attention_mask(spec).col_indices != bird.col_indices);
}

TEST_CASE("attention masks refuse bad parameters naming the limit", "[common][attention]") {
  const struct {
    AttentionMaskSpec spec;
    const char* message;
  } cases[] = {
      {window(0, 10, 1, 0, false), "attention mask size must be at least 1 x 1, got 0 x 10"},
      {blocks(100, 70, 0, 0.5, false), "block size must be from 1 to max(rows, cols) = 100, got 0"},
      {blocks(100, 70, 101, 0.5, false), "block size must be from 1 to max(rows, cols) = 100"},
      {blocks(100, 70, 8, 0.0, false), "block density must be greater than 0 and at most 1"},
      {blocks(100, 70, 8, 1.5, false), "block density must be greater than 0 and at most 1"},
      {window(100, 70, 100, 0, false),
       "window half-width must be from 0 to max(rows, cols) - 1 = 99"},
      {window(100, 70, -1, 0, false), "window half-width must be from 0"},
      {window(100, 70, 3, 71, false),
       "global rows and columns must be from 0 to min(rows, cols) = 70"},
      {window(2147483647, 2147483647, 1, 0, false), "more than the limit 2147483647 (int offsets"},
  };
  for (const auto& bad : cases) {
    INFO(bad.message);
    CHECK_THROWS_WITH(course::attention_mask(bad.spec), Catch::Contains(bad.message));
  }
  AttentionMaskSpec bigbird = window(10, 20, 1, 0, false);
  bigbird.kind = AttentionKind::bigbird;
  bigbird.random_per_row = 21;
  CHECK_THROWS_WITH(course::attention_mask(bigbird),
                    Catch::Contains("random columns per row must be from 0 to cols = 20, got 21"));
  CHECK_THROWS_WITH(
      course::attention_kind_from_name("dense"),
      Catch::Contains("must be block-sparse, sliding-window or bigbird, got 'dense'"));
  CHECK(course::attention_kind_from_name("bigbird") == AttentionKind::bigbird);
}

TEST_CASE("attention mask names say the kind and its parameters", "[common][attention]") {
  CHECK(course::attention_mask_name(blocks(16384, 16384, 128, 0.05, false)) ==
        "block_16384_b128_d0.05");
  CHECK(course::attention_mask_name(window(8192, 4096, 256, 16, true)) ==
        "window_8192x4096_w256_g16_causal");
  AttentionMaskSpec spec = window(16384, 16384, 64, 32, false);
  spec.kind = AttentionKind::bigbird;
  spec.random_per_row = 64;
  CHECK(course::attention_mask_name(spec) == "bigbird_16384_w64_g32_r64");
}
