/// @file tile_row_entries.cuh
/// @brief Where one row of a 64×64 block tile finds its entries in S: two starts and one mask
/// from the tables that tile_starts_kernel fills (dense_panel_tables.cuh), no search and no
/// column of S. Read by the dense panels' copy-out and by the dense path's gather.
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

}  // namespace course::step5
