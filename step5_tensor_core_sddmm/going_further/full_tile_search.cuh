/// @file full_tile_search.cuh
/// @brief The three kernels of the search for full tiles: candidates (a tile's first row
/// holds its whole width), the check of the other rows, and the list of the entries that
/// remain for the lane groups.
///
/// Step 5, approach 4 (going further, "Full tiles"): the plan's kernels that find them.
/// Read first: full_tiles.hpp (what a full tile is), then full_tile_search.cu (the order).
///
/// S is sorted row-major without repeats (the search checks), so the entries of columns
/// c .. c + w - 1 of one row are consecutive exactly when the entry at column c and the one
/// w - 1 places later, in the same row, have columns c and c + w - 1: two loads decide
/// whether a tile row is whole, whatever the row holds elsewhere.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/full_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief A candidate: the first row of a 64×64 tile holds all of the tile's columns.
struct __align__(16) FullTileCandidate {
  int first_row;    ///< first row of the tile
  int first_col;    ///< first column of the tile
  int first_entry;  ///< S's entry at (first_row, first_col)
  int width;        ///< columns inside the matrix
};

/// @brief Whether the @p width entries from @p entry on are the columns @p col ..
/// @p col + width - 1 of row @p row (S sorted, no repeats).
/// @param rows rows of S's entries
/// @param cols columns of S's entries
/// @param nnz entries of S
/// @param entry first entry
/// @param row the row
/// @param col the first column
/// @param width the number of columns
/// @return whether the tile row is whole
__device__ inline bool whole_tile_row(const int* rows, const int* cols, std::int64_t nnz,
                                      std::int64_t entry, int row, int col, int width) {
  const std::int64_t last = entry + width - 1;
  // The last entry of S may come before the tile row's end: then the row is not whole.
  return entry < nnz && last < nnz && rows[entry] == row && cols[entry] == col &&
         rows[last] == row && cols[last] == col + width - 1;
}

/// @brief Where the search counts: candidates, repeats, full tiles, then per panel.
enum FullTileCount : int {
  kCandidates = 0,  ///< candidates written (at most the capacity)
  kRepeats = 1,     ///< nonzero when S repeats an entry
  kTiles = 2,       ///< full tiles found
  kPanelsFrom = 3   ///< entries of panel p inside full tiles at [kPanelsFrom + p]
};

/// @brief One thread per entry of S: appends the candidates (the entries at a tile's top-left
/// corner whose tile row is whole) and counts them at counts[kCandidates], and sets
/// counts[kRepeats] when an entry repeats its predecessor.
/// @param rows rows of S's entries
/// @param cols columns of S's entries
/// @param nnz entries of S (at most 2³¹ - 1)
/// @param matrix_cols columns of S
/// @param capacity room in @p candidates (a bound on their number; past it they are dropped
/// and counted, and the search keeps no tile)
/// @param counts the search's counts (FullTileCount), zeroed before
/// @param candidates where the candidates go
__global__ void full_tile_candidates_kernel(const int* __restrict__ rows,
                                            const int* __restrict__ cols, std::int64_t nnz,
                                            int matrix_cols, std::int64_t capacity,
                                            unsigned long long* counts,
                                            FullTileCandidate* candidates) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  const int row = rows[entry];
  const int col = cols[entry];
  // Entry 0 has no predecessor.
  if (entry > 0 && rows[entry - 1] == row && cols[entry - 1] == col) {
    atomicOr(&counts[kRepeats], 1ull);
  }
  if (row % kFullTileEdge != 0 || col % kFullTileEdge != 0) {
    return;  // not the top-left corner of a tile
  }
  const int width = min(kFullTileEdge, matrix_cols - col);
  if (!whole_tile_row(rows, cols, nnz, entry, row, col, width)) {
    return;
  }
  const unsigned long long slot = atomicAdd(&counts[kCandidates], 1ull);
  if (slot < static_cast<unsigned long long>(capacity)) {  // the bound holds: always inside
    candidates[slot] = {row, col, static_cast<int>(entry), width};
  }
}

/// @brief One warp per candidate: finds the first entry of each of the tile's rows (binary
/// search from the candidate's entry on), and where all rows are whole, appends the tile,
/// adds its entries to its panel's count and marks them covered.
/// Preconditions: blockDim.x a multiple of 32; S sorted row-major (with repeats the
/// search's result is thrown away).
/// @param candidates from full_tile_candidates_kernel
/// @param capacity the candidates' capacity (warps past it, or past their count, return)
/// @param rows rows of S's entries
/// @param cols columns of S's entries
/// @param nnz entries of S
/// @param matrix_rows rows of S
/// @param matrix_cols columns of S
/// @param tiles where the full tiles go
/// @param row_starts 64 starts per candidate: the first entry of each of its rows
/// @param counts the search's counts (FullTileCount)
/// @param covered one byte per entry of S, set to 1 inside a full tile
__global__ void full_tile_check_kernel(const FullTileCandidate* __restrict__ candidates,
                                       std::int64_t capacity, const int* __restrict__ rows,
                                       const int* __restrict__ cols, std::int64_t nnz,
                                       int matrix_rows, int matrix_cols, FullTile* tiles,
                                       int* __restrict__ row_starts, unsigned long long* counts,
                                       unsigned char* __restrict__ covered) {
  const std::int64_t warp_index =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (warp_index >= capacity || warp_index >= static_cast<std::int64_t>(counts[kCandidates])) {
    return;  // whole warps past the last candidate: no lane of them shuffles below
  }
  const FullTileCandidate candidate = candidates[warp_index];
  const int tile_rows = min(kFullTileEdge, matrix_rows - candidate.first_row);
  bool whole = true;
  int starts[2] = {-1, -1};  // lane l: rows l and l + 32 of the tile
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const int row_in_tile = lane + 32 * half;
    if (row_in_tile < tile_rows) {  // rows past the matrix's last belong to no tile
      const int row = candidate.first_row + row_in_tile;
      // Without repeats a row holds at most matrix_cols entries, so (row, first_col) lies
      // within (row_in_tile + 1)·matrix_cols entries after the candidate's.
      std::int64_t low = candidate.first_entry;
      std::int64_t high =
          min(nnz, candidate.first_entry + (row_in_tile + 1) * std::int64_t{matrix_cols});
      while (low < high) {  // first entry not before (row, first_col)
        const std::int64_t middle = (low + high) / 2;
        const int middle_row = rows[middle];
        const bool before =
            middle_row < row || (middle_row == row && cols[middle] < candidate.first_col);
        low = before ? middle + 1 : low;
        high = before ? high : middle;
      }
      whole =
          whole && whole_tile_row(rows, cols, nnz, low, row, candidate.first_col, candidate.width);
      starts[half] = static_cast<int>(low);
    }
    row_starts[warp_index * kFullTileEdge + row_in_tile] = starts[half];
  }
  if (!__all_sync(kAllLanes, whole)) {
    return;  // a partial tile: left to the dense panels and the lane groups
  }
  unsigned long long slot = 0;
  if (lane == 0) {
    slot = atomicAdd(&counts[kTiles], 1ull);
    tiles[slot] = {candidate.first_row, candidate.first_col,
                   static_cast<int>(warp_index * kFullTileEdge), candidate.width};
    atomicAdd(&counts[kPanelsFrom + candidate.first_row / kPanelRows],
              static_cast<unsigned long long>(tile_rows) * candidate.width);
  }
  // Mark the tile's entries, one row at a time, the lanes on consecutive entries.
  for (int row_in_tile = 0; row_in_tile < tile_rows; ++row_in_tile) {
    const int first = __shfl_sync(kAllLanes, starts[row_in_tile / 32], row_in_tile % 32);
    for (int col = lane; col < candidate.width; col += 32) {
      covered[first + col] = 1;
    }
  }
}

/// @brief Whether the lane groups compute @p entry: it is in no full tile and in no dense
/// panel.
/// @param rows rows of S's entries
/// @param entry the entry
/// @param covered 1 for the entries inside full tiles
/// @param panel_slot 1 + slot of each dense panel, 0 for a sparse one; nullptr: none dense
/// @return whether the entry is left to the lane groups
__device__ inline bool left_to_lane_groups(const int* rows, std::int64_t entry,
                                           const unsigned char* covered, const int* panel_slot) {
  const bool dense_panel = panel_slot != nullptr && panel_slot[rows[entry] / kPanelRows] != 0;
  return covered[entry] == 0 && !dense_panel;
}

/// @brief One thread per entry: 1 when the lane groups compute it (in no full tile and in
/// no dense panel), else 0; the scan of these flags gives each kept entry its place.
/// @param rows rows of S's entries
/// @param nnz entries of S
/// @param covered 1 for the entries inside full tiles
/// @param panel_slot 1 + slot of each dense panel, 0 for a sparse one; nullptr: none dense
/// @param keep the flags
__global__ void remaining_entries_kernel(const int* __restrict__ rows, std::int64_t nnz,
                                         const unsigned char* __restrict__ covered,
                                         const int* __restrict__ panel_slot,
                                         int* __restrict__ keep) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  keep[entry] = left_to_lane_groups(rows, entry, covered, panel_slot) ? 1 : 0;
}

/// @brief One thread per entry: writes the kept entries' indices at the places that the
/// exclusive scan of remaining_entries_kernel's flags gave them.
/// @param rows rows of S's entries
/// @param nnz entries of S
/// @param covered 1 for the entries inside full tiles
/// @param panel_slot as for remaining_entries_kernel
/// @param places the exclusive scan of the flags
/// @param listed the kept entries, in S's order
__global__ void list_entries_kernel(const int* __restrict__ rows, std::int64_t nnz,
                                    const unsigned char* __restrict__ covered,
                                    const int* __restrict__ panel_slot,
                                    const int* __restrict__ places, int* __restrict__ listed) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  if (left_to_lane_groups(rows, entry, covered, panel_slot)) {
    listed[places[entry]] = static_cast<int>(entry);
  }
}

}  // namespace course::step5
