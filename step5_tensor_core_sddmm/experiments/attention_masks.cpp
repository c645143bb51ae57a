// Step 5, experiments (lesson Part 2, "Full tiles"): the masks of full_tile_bench.
// Read first: attention_masks.hpp.
/// @file attention_masks.cpp
/// @brief block_sparse_mask, sliding_window_mask and bigbird_mask, built row by row.
#include "experiments/attention_masks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace course::step5::experiments {
namespace {

/// A hash of (seed, a, b) uniform in [0, 1) (SplitMix64 finaliser).
double unit_hash(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  std::uint64_t x = seed ^ (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) * 0x1.0p-53;
}

/// A size×size CSR pattern whose row r holds the sorted, distinct columns @p columns_of
/// appends for it (the vector is cleared before each row).
course::CsrMatrix build_rows(int size,
                             const std::function<void(int, std::vector<int>&)>& columns_of) {
  course::CsrMatrix mask;
  mask.rows = size;
  mask.cols = size;
  mask.row_offsets.reserve(static_cast<std::size_t>(size) + 1);
  mask.row_offsets.push_back(0);
  std::vector<int> columns;
  for (int row = 0; row < size; ++row) {
    columns.clear();
    columns_of(row, columns);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    mask.col_indices.insert(mask.col_indices.end(), columns.begin(), columns.end());
    mask.row_offsets.push_back(static_cast<int>(mask.col_indices.size()));
  }
  mask.values.assign(mask.col_indices.size(), 1.0f);
  return mask;
}

/// The window and global columns of @p row (shared by the sliding window and BigBird).
void window_columns(int size, int half_width, int global, int row, std::vector<int>& columns) {
  if (row < global) {
    for (int col = 0; col < size; ++col) {
      columns.push_back(col);
    }
    return;
  }
  for (int col = 0; col < std::min(global, size); ++col) {
    columns.push_back(col);
  }
  for (int col = std::max(0, row - half_width); col <= std::min(size - 1, row + half_width);
       ++col) {
    columns.push_back(col);
  }
}

}  // namespace

course::CsrMatrix block_sparse_mask(int size, int block, double density, bool causal,
                                    std::uint64_t seed) {
  const int blocks = (size + block - 1) / block;
  return build_rows(size, [&](int row, std::vector<int>& columns) {
    const int block_row = row / block;
    for (int block_col = 0; block_col < blocks; ++block_col) {
      if ((causal && block_col > block_row) || unit_hash(seed, block_row, block_col) >= density) {
        continue;  // a block left out
      }
      const int last = std::min(size, (block_col + 1) * block) - 1;
      for (int col = block_col * block; col <= last; ++col) {
        if (causal && col > row) {
          break;  // the diagonal block's upper triangle
        }
        columns.push_back(col);
      }
    }
  });
}

course::CsrMatrix sliding_window_mask(int size, int half_width, int global) {
  return build_rows(size, [&](int row, std::vector<int>& columns) {
    window_columns(size, half_width, global, row, columns);
  });
}

course::CsrMatrix bigbird_mask(int size, int half_width, int global, int random_per_row,
                               std::uint64_t seed) {
  return build_rows(size, [&](int row, std::vector<int>& columns) {
    window_columns(size, half_width, global, row, columns);
    for (int pick = 0; pick < random_per_row; ++pick) {
      columns.push_back(static_cast<int>(unit_hash(seed, row, pick) * size));
    }
  });
}

}  // namespace course::step5::experiments
