/// @file test_full_tiles.cpp
/// @brief GPU tests of approach 4's full 64×64 tiles: a dense mask, one full tile among
/// scattered nonzeros, blocks cut by ragged edges, causal block masks, a mask only partly
/// blocky, full tiles inside a dense panel, repeated entries, and the CSR upload; at inner
/// 64, 128, 256 and 72 (not a multiple of 16), with and without 16-byte loads.
///
/// Step 5, tests (lesson "Tests"): approach 4's full tiles against the CPU reference.
/// Read first: approach_checks.hpp, then full_tiles.hpp (what a full tile is).
#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <utility>
#include <vector>

using namespace course::step5::testing;  // the shared checks of approach_checks.hpp

namespace {

/// Whether position (row, col) is in the mask.
using MaskRule = std::function<bool(int row, int col)>;

/// The rows×cols mask of the positions that @p rule keeps, sorted row-major, values random.
course::CooMatrix mask_from_rule(int rows, int cols, const MaskRule& rule, std::uint64_t seed) {
  course::CooMatrix s;
  s.rows = rows;
  s.cols = cols;
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      if (rule(row, col)) {
        s.row_indices.push_back(row);
        s.col_indices.push_back(col);
        s.values.push_back(1.0f);
      }
    }
  }
  return with_random_values(s, seed);
}

/// The union of two masks of the same shape (each position once), sorted row-major.
course::CooMatrix merge_masks(const course::CooMatrix& first, const course::CooMatrix& second) {
  std::set<std::pair<int, int>> positions;
  for (std::size_t entry = 0; entry < first.nnz(); ++entry) {
    positions.insert({first.row_indices[entry], first.col_indices[entry]});
  }
  for (std::size_t entry = 0; entry < second.nnz(); ++entry) {
    positions.insert({second.row_indices[entry], second.col_indices[entry]});
  }
  course::CooMatrix s;
  s.rows = first.rows;
  s.cols = first.cols;
  for (const auto& [row, col] : positions) {
    s.row_indices.push_back(row);
    s.col_indices.push_back(col);
    s.values.push_back(1.0f);
  }
  return s;
}

/// The full tiles approach 4's plan finds in @p s.
std::int64_t full_tiles_of(const course::CooMatrix& s,
                           const course::step5::HybridOptions& options) {
  const course::step5::DevicePattern pattern(s);
  return course::step5::HybridPlan(pattern, 64, options).full_tiles();
}

/// Approach 4 on @p s at inner 64, 128, 256 and 72, each with 16-byte loads (ld = inner)
/// and without (ld = inner + 3).
void check_inner_sizes(const course::CooMatrix& s, std::uint64_t seed,
                       const course::step5::HybridOptions& options) {
  for (const int inner : {64, 128, 256, 72}) {
    check_hybrid(s, inner, inner, seed, options);
    check_hybrid(s, inner, inner + 3, seed, options);
  }
}

}  // namespace

TEST_CASE("approach 4 full tiles on a fully dense mask", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 200 x 150: tiles of 64 rows, the last 8 rows; of 64 columns, the last 22 columns.
  const course::CooMatrix s = mask_from_rule(
      200, 150, [](int, int) { return true; }, seed);
  CHECK(full_tiles_of(s, eager_tensor_cores()) == 4 * 3);
  check_inner_sizes(s, seed, eager_tensor_cores());
  // The same mask with full tiles switched off, and below the default threshold.
  course::step5::HybridOptions off = eager_tensor_cores();
  off.full_tiles = false;
  CHECK(full_tiles_of(s, off) == 0);
  check_hybrid(s, 64, 64, seed, off);
  CHECK(full_tiles_of(s, {}) == 0);  // 30 000 nonzeros, under full_tile_min_nnz
}

TEST_CASE("approach 4 one full tile among scattered nonzeros", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const course::CooMatrix block = mask_from_rule(
      300, 400, [](int row, int col) { return row >= 64 && row < 128 && col >= 128 && col < 192; },
      seed);
  // A nearly full tile next to it (one position missing) stays partial.
  const course::CooMatrix almost = mask_from_rule(
      300, 400,
      [](int row, int col) {
        return row >= 128 && row < 192 && col >= 0 && col < 64 && !(row == 150 && col == 33);
      },
      seed);
  // The scattered nonzeros, less the missing position (900 of 120 000 positions hit it about
  // once in 130 seeds, and the tile was full).
  course::CooMatrix scattered = course::random_uniform_mask(300, 400, 900, seed);
  course::CooMatrix kept;
  kept.rows = scattered.rows;
  kept.cols = scattered.cols;
  for (std::size_t entry = 0; entry < scattered.nnz(); ++entry) {
    if (scattered.row_indices[entry] != 150 || scattered.col_indices[entry] != 33) {
      kept.row_indices.push_back(scattered.row_indices[entry]);
      kept.col_indices.push_back(scattered.col_indices[entry]);
      kept.values.push_back(scattered.values[entry]);
    }
  }
  const course::CooMatrix s =
      with_random_values(merge_masks(merge_masks(block, almost), kept), seed);
  CHECK(full_tiles_of(s, eager_tensor_cores()) == 1);
  check_inner_sizes(s, seed, eager_tensor_cores());
}

TEST_CASE("approach 4 full tiles of blocks cut by ragged edges", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 128 x 128 blocks on a 250 x 190 matrix, a checkerboard of blocks: block (0, 0) holds
  // four full tiles, block (1, 1) is cut by both edges (rows 128..249, columns 128..189).
  const course::CooMatrix s = mask_from_rule(
      250, 190, [](int row, int col) { return (row / 128 + col / 128) % 2 == 0; }, seed);
  CHECK(full_tiles_of(s, eager_tensor_cores()) == 4 + 2 * 1);
  check_inner_sizes(s, seed, eager_tensor_cores());
  // Blocks of 64 that do not start at a multiple of 64: no tile is full, all still right.
  const course::CooMatrix shifted = mask_from_rule(
      250, 190, [](int row, int col) { return ((row + 32) / 64 + (col + 32) / 64) % 2 == 0; },
      seed);
  CHECK(full_tiles_of(shifted, eager_tensor_cores()) == 0);
  check_hybrid(shifted, 72, 72, seed, eager_tensor_cores());
}

TEST_CASE("approach 4 full tiles of causal block masks", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 128 x 128 blocks, every block on or below the diagonal; within the diagonal blocks only
  // col <= row (an element-causal mask). Below the diagonal every tile is full; on it only
  // the lower-left tile of each block (the two diagonal tiles of a block are triangles).
  const int size = 512;
  const course::CooMatrix s = mask_from_rule(
      size, size,
      [](int row, int col) {
        const int block_row = row / 128;
        const int block_col = col / 128;
        return block_col < block_row || (block_col == block_row && col <= row);
      },
      seed);
  const std::int64_t below = 4 * (4 * 3 / 2);  // 6 blocks below the diagonal, 4 tiles each
  CHECK(full_tiles_of(s, eager_tensor_cores()) == below + 4);
  check_inner_sizes(s, seed, eager_tensor_cores());
  // Causal at the block level only (every block on or below the diagonal whole).
  const course::CooMatrix blocks = mask_from_rule(
      size, size, [](int row, int col) { return col / 128 <= row / 128; }, seed);
  CHECK(full_tiles_of(blocks, eager_tensor_cores()) == 4 * 10);
  check_hybrid(blocks, 64, 64, seed, eager_tensor_cores());
}

TEST_CASE("approach 4 full tiles in a mask only partly blocky", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 64 x 64 blocks at 20 % (a fixed pseudo-random choice) plus a sliding window of +-40 and
  // scattered entries: full tiles, partial tiles along the window and single entries.
  const course::CooMatrix blocky = mask_from_rule(
      640, 576,
      [](int row, int col) {
        const int block = (row / 64) * 9 + col / 64;
        return (block * 37 + 11) % 5 == 0 || (row - col <= 40 && col - row <= 40);
      },
      seed);
  const course::CooMatrix s = with_random_values(
      merge_masks(blocky, course::random_uniform_mask(640, 576, 2000, seed + 1)), seed);
  CHECK(full_tiles_of(s, eager_tensor_cores()) > 0);
  check_inner_sizes(s, seed, eager_tensor_cores());
  // With the default Tensor Core thresholds as well (the lane groups take the rest).
  course::step5::HybridOptions defaults = panels64();
  defaults.full_tile_min_nnz = 0;
  check_hybrid(s, 64, 64, seed, defaults);
}

TEST_CASE("approach 4 full tiles inside a dense panel stay idle", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Rows 0..63: one full tile and 30 % of the rest, a dense panel; rows 64..191: one full
  // tile and a few scattered entries (a sparse panel, its tile computed as a full tile).
  const course::CooMatrix tiles = mask_from_rule(
      192, 300,
      [](int row, int col) {
        return (row < 64 && col >= 64 && col < 128) || (row >= 128 && col >= 192 && col < 256);
      },
      seed);
  const course::CooMatrix s = with_random_values(
      merge_masks(merge_masks(tiles, course::random_uniform_mask(64, 300, 5760, seed + 1)),
                  course::random_uniform_mask(192, 300, 200, seed + 2)),
      seed);
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridPlan plan(pattern, 64, eager_tensor_cores());
  CHECK(plan.full_tiles() == 2);
  CHECK(plan.tensor_core_units() >= 1);  // panel 0 is dense
  check_inner_sizes(s, seed, eager_tensor_cores());
}

TEST_CASE("approach 4 full tiles with repeated entries and from CSR", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::CooMatrix s = mask_from_rule(
      130, 140, [](int row, int col) { return col / 64 != 1 || row < 64; }, seed);
  REQUIRE(full_tiles_of(s, eager_tensor_cores()) == 3 + 2 + 2);
  check_csr_upload(s, course::PatternValues::upload, 72, seed);
  course::CooMatrix ones = s;  // a pattern: the reference reads ones, as the GPU writes them
  std::fill(ones.values.begin(), ones.values.end(), 1.0f);
  check_csr_upload(ones, course::PatternValues::all_ones, 128, seed);
  // A repeated entry inside a full tile: the search finds repeats and keeps no full tile.
  s.row_indices.insert(s.row_indices.begin() + 5, s.row_indices[5]);
  s.col_indices.insert(s.col_indices.begin() + 5, s.col_indices[5]);
  s.values.insert(s.values.begin() + 5, -1.5f);
  CHECK(full_tiles_of(s, eager_tensor_cores()) == 0);
  check_hybrid(s, 64, 64, seed, eager_tensor_cores());
}
