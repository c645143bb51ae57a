/// @file tile_row_entries.cuh
/// @brief Where one row of a 64×64 block tile finds its entries in S: two starts and one mask
/// from the tables that tile_starts_kernel fills (dense_panel_tables.cuh), no search and no
/// column of S; where a lane's two columns fall among the row's entries; and the entries of a
/// row that holds a position twice, one by one. Read by the dense panels' copy-out, the dense
/// path's gather and the copy of the dense tiles' values.
///
/// Step 5, approach 4 (going further): a tile row's entries, as the tables give them.
/// Read first: dense_panel_tables.hpp (the tiles and their tables).
#pragma once

#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief One row of a block tile: where its entries start in S, how many, which columns.
struct TileRowEntries {
  int begin = 0;                ///< the row's first entry in the tile
  int count = 0;                ///< its entries in the tile (more than the mask's bits when
                                ///< S holds a position twice)
  unsigned long long mask = 0;  ///< bit c: S holds the tile's column c in this row
};

/// @brief Reads row @p tile_row of block tile @p tile_index from the tile-start table and the
/// tile masks.
/// @param tile the block tile
/// @param tile_index its place in the list of tiles (the masks' order)
/// @param tile_row the row in the tile (0 to kTileMaskRows - 1)
/// @param tile_starts the tile-start table
/// @param tile_masks the tile masks (kTileMaskRows words a tile)
/// @return the row's entries
__device__ inline TileRowEntries tile_row_entries(
    const DenseTile& tile, std::int64_t tile_index, int tile_row,
    const int* __restrict__ tile_starts, const unsigned long long* __restrict__ tile_masks) {
  const int* row_starts =
      tile_starts + tile.starts + static_cast<std::int64_t>(tile_row) * tile.stride;
  TileRowEntries entries;
  entries.begin = row_starts[0];
  entries.count = row_starts[1] - entries.begin;
  entries.mask = tile_masks[tile_index * kTileMaskRows + tile_row];
  return entries;
}

/// @brief Where lane l's two columns of a tile row, l and 32 + l, fall among the row's
/// entries in S: whether the row holds each, and its rank, the bits of the row's mask below it.
/// A row's entries are consecutive in S in column order, so the entry of column c lies at the
/// row's first entry plus c's rank.
struct LaneColumnRanks {
  bool holds_low = false;   ///< the row holds column l
  bool holds_high = false;  ///< the row holds column 32 + l
  int low = 0;              ///< column l's rank (meaningful where the row holds it)
  int high = 0;             ///< column 32 + l's rank (meaningful where the row holds it)
};

/// @brief The ranks of the calling lane's two columns in a tile row (LaneColumnRanks). Both
/// ranks are counted whether the row holds the columns or not: two popcounts, no branch.
/// @param mask the row's mask (bit c: S holds the tile's column c)
/// @return the ranks
__device__ inline LaneColumnRanks lane_column_ranks(unsigned long long mask) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const unsigned lanes_below = (1u << lane) - 1u;
  const auto low = static_cast<unsigned>(mask);
  const auto high = static_cast<unsigned>(mask >> 32);
  LaneColumnRanks ranks;
  ranks.holds_low = ((low >> lane) & 1u) != 0;
  ranks.holds_high = ((high >> lane) & 1u) != 0;
  ranks.low = __popc(low & lanes_below);
  ranks.high = __popc(low) + __popc(high & lanes_below);
  return ranks;
}

/// @brief Writes the entries of a tile row that holds a position twice (its count is more than
/// its mask's bits, so ranks do not place them): lane l takes entries l, l + 32, ..., each read
/// through its column from the row of the product.
/// @tparam kValues S has values (@p values); false: a pattern, @p values unused
/// @param product_row the row of the product, its element 0 at S's column @p first_col
/// @param first_col S's column of the tile's column 0
/// @param begin the row's first entry in the tile
/// @param count its entries in the tile
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros
/// @param output one float per nonzero
template <bool kValues>
__device__ inline void store_repeated_row(const float* product_row, int first_col, int begin,
                                          int count, const int* __restrict__ col_indices,
                                          const float* __restrict__ values,
                                          float* __restrict__ output) {
  for (int number = static_cast<int>(threadIdx.x) % 32; number < count; number += 32) {
    const int entry = begin + number;
    const float product = product_row[col_indices[entry] - first_col];
    output[entry] = kValues ? values[entry] * product : product;
  }
}

}  // namespace course::step5
