/// @file full_tiles.hpp
/// @brief Approach 4's full tiles: 64×64 output tiles (aligned to 64) whose every position
/// inside the matrix is an entry of S. Block-sparse attention masks are made of them. Each
/// is computed as a plain dense Tensor Core tile and stored straight into S's value order:
/// the entries of one row of such a tile are consecutive in S, so one start per row is all
/// the kernel needs (no per-entry index work). Partial tiles stay with the dense panels and
/// the lane groups.
///
/// Step 5, approach 4 (going further, "Full tiles"): the plan's search for tiles wholly in S.
/// Read first: dense_panel_tables.hpp (the panels), then full_tile_search.cu.
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"

#include <cuda_runtime_api.h>  // __align__ in host-only translation units

#include <cstddef>
#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief Rows and columns of a full tile (one panel high, one column block wide).
constexpr int kFullTileEdge = 64;

/// @brief One full tile, as sddmm_full_tiles_kernel reads it in one load.
struct __align__(16) FullTile {
  int first_row;  ///< first row (a multiple of 64)
  int first_col;  ///< first column (a multiple of 64)
  int starts;     ///< index in the row-start table of the tile's row 0 (64 entries follow)
  int width;      ///< columns inside the matrix: 64, fewer at the right edge
};

/// @brief What the search for full tiles leaves to the plan.
struct FullTileSearch {
  course::DeviceBuffer<FullTile> tiles;         ///< the full tiles (tile_count of them)
  course::DeviceBuffer<int> row_starts;         ///< first entry of each row of each tile
  course::DeviceBuffer<unsigned char> covered;  ///< one byte per entry of S: 1 inside a tile
  std::int64_t tile_count = 0;                  ///< full tiles found
  std::vector<std::int64_t> covered_per_panel;  ///< entries inside full tiles, per panel
};

/// @brief Finds S's full 64×64 tiles on the GPU. Returns no tile (and allocates nothing
/// beyond a few words) when S cannot hold one (no 64-row panel has enough entries), when
/// S has repeated entries (a repeat would break "a tile row is consecutive in S"), when S
/// holds fewer than HybridOptions::full_tile_min_nnz entries, or when HybridOptions::full_tiles is
/// off.
/// @param pattern S on the device
/// @param panel_nnz entries of each 64-row panel of S (panel_statistics.hpp)
/// @param options the switches and the threshold
/// @return the tiles and what they cover
FullTileSearch find_full_tiles(const DevicePattern& pattern,
                               const std::vector<std::int64_t>& panel_nnz,
                               const HybridOptions& options);

/// @brief The entries the lane groups still compute once there are full tiles: those in no
/// full tile and in no dense panel, in S's order.
/// @param pattern S on the device
/// @param search the full tiles
/// @param panel_slot the plan's 1 + slot of each panel on the device (0: sparse), or nullptr
/// when no panel is dense
/// @param count the number of such entries (the host knows it from the counts)
/// @return their indices in S
course::DeviceBuffer<int> list_remaining_entries(const DevicePattern& pattern,
                                                 const FullTileSearch& search,
                                                 const int* panel_slot, std::int64_t count);

}  // namespace course::step5
