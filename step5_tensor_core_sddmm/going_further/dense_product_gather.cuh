/// @file dense_product_gather.cuh
/// @brief The dense path's gather by 64×64 block tiles: S's entries taken from the dense
/// product with the tables of the dense panels (a start and a 64-bit mask of columns per tile
/// row), instead of a row and a column read per entry.
///
/// Step 5, approach 4 (going further): the dense path's gather, made for dense masks.
/// Read first: dense_product_path.hpp (the dense path), tile_row_entries.cuh (the tables).
///
/// Why: on the dense-ish masks the plan's dense path ran the baseline's own cuBLAS GEMM and
/// gather, and tied it (H200, 2026-11-30: 0.93 of the better baseline on 16-blocks at a
/// quarter of 8192², inner 256). The gather of one thread per entry reads 8 bytes of indices per
/// entry (its row and column) besides the product's float and the output's; on a mask at a
/// quarter those indices are about half of the gather's bytes. A tile row's start and mask
/// (12 bytes per 64 columns, made once by the plan) say the same: each warp lists its rows'
/// entries in shared memory from them, then gathers the list with every lane busy, reading the
/// product and the values and writing the output in runs (dense_gather_tiles_kernel).
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_row_entries.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief Warps per block of dense_gather_tiles_kernel, one block per 64×64 tile.
constexpr int kGatherWarps = 8;

/// @brief Tile rows each warp of dense_gather_tiles_kernel gathers.
constexpr int kGatherRowsPerWarp = kTileMaskRows / kGatherWarps;

/// @brief Rounds of 32 entries a warp of dense_gather_tiles_kernel loads before it stores
/// them: enough loads in flight to cover DRAM's latency with a few warps an SM.
constexpr int kGatherRoundsInFlight = 4;

/// @brief One entry of a warp's list in dense_gather_tiles_kernel: where its product lies
/// from the warp's first row of the tile, and its place in S.
struct GatherSlot {
  int offset;  ///< row in the warp's rows · cols + column in the tile
  int entry;   ///< the entry's place in S (and in the output)
};

/// @brief Lists the entries of one tile row in the warp's list, in S's order: lane l takes
/// columns l and 32 + l where the row's mask has them, and writes each at the row's first
/// number plus the bits set before it.
/// @param slots the warp's list
/// @param row the row in the warp's rows
/// @param cols columns of the product
/// @param mask the row's mask (0 for a row left out of the list)
/// @param begin the row's first entry in S
/// @param first_number the row's first number in the list
__device__ inline void list_row_entries(GatherSlot* slots, int row, int cols,
                                        unsigned long long mask, int begin, int first_number) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const LaneColumnRanks ranks = lane_column_ranks(mask);
  if (ranks.holds_low) {
    slots[first_number + ranks.low] = {row * cols + lane, begin + ranks.low};
  }
  if (ranks.holds_high) {
    slots[first_number + ranks.high] = {row * cols + 32 + lane, begin + ranks.high};
  }
}

/// @brief Gathers S's entries of one 64×64 block tile from the dense product: output[e] =
/// value_e · product(row_e, col_e), value_e = 1 for a pattern.
///
/// Each warp takes 8 rows of the tile (lane r < 8 reads row 8w + r's start, count and mask).
/// It first lists their entries in shared memory, one row after the other (list_row_entries:
/// lanes mapped to the row's columns, a few instructions a row), then gathers the list in
/// rounds of 32 entries, lane l taking entries l, l + 32, ...: every load and store then has
/// 32 entries to move, and the product's rows, S's values and the output are read and written
/// in runs. Two earlier versions lost to this one (H200, 2026-11-30,
/// lab/results/dense_gather_tiles_h200.md): lanes mapped to the tile's columns for the loads
/// and stores too left three quarters of them idle on a mask at a quarter, and S with values
/// took longer than the gather by entries; lanes mapped to the entries, each finding its row
/// and the n-th bit of its mask, spent the SM's issue slots on that search. A row whose count
/// is not its mask's bits (S holds a position twice) is left out of the list and gathered
/// entry by entry through its columns.
/// Preconditions: S sorted row-major; one block of 32·kGatherWarps threads per tile
/// (blockIdx.x); @p tiles, @p tile_starts and @p tile_masks from upload_dense_panels with every
/// entry of S in a tile; @p product holds the rows×cols product, row-major, and 64·cols fits
/// in int.
/// @tparam kValues S has values (@p values); false: a pattern, @p values unused
/// @param product the dense product (rows×cols floats, row-major)
/// @param cols columns of the product
/// @param tiles the block tiles
/// @param tile_starts the tile-start table
/// @param tile_masks the tile masks
/// @param col_indices columns of the nonzeros (read only for rows with a repeated position)
/// @param values values of the nonzeros (kValues), else nullptr
/// @param output one float per nonzero
template <bool kValues>
__global__ void __launch_bounds__(32 * kGatherWarps)
    dense_gather_tiles_kernel(const float* __restrict__ product, int cols,
                              const DenseTile* __restrict__ tiles,
                              const int* __restrict__ tile_starts,
                              const unsigned long long* __restrict__ tile_masks,
                              const int* __restrict__ col_indices, const float* __restrict__ values,
                              float* __restrict__ output) {
  static_assert(kGatherRowsPerWarp * kGatherWarps == kTileMaskRows, "the warps cover the tile");
  static_assert(kGatherRowsPerWarp <= 32, "one lane per row holds its start and mask");
  constexpr int kListLength = kGatherRowsPerWarp * 64;  // a listed row has at most 64 entries
  __shared__ GatherSlot lists[kGatherWarps][kListLength];
  const DenseTile tile = tiles[blockIdx.x];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int first_tile_row = warp * kGatherRowsPerWarp;
  TileRowEntries mine;  // lanes from kGatherRowsPerWarp on: no row, no entry
  if (lane < kGatherRowsPerWarp) {
    mine = tile_row_entries(tile, blockIdx.x, first_tile_row + lane, tile_starts, tile_masks);
  }
  const bool repeated = __popcll(mine.mask) != mine.count;
  const unsigned long long listed_mask = repeated ? 0ULL : mine.mask;
  // Each row's first number in the list: an exclusive scan of the listed rows' counts.
  int first_number = __popcll(listed_mask);
#pragma unroll
  for (int offset = 1; offset < kGatherRowsPerWarp; offset *= 2) {
    const int before = __shfl_up_sync(kAllLanes, first_number, offset);
    if (lane >= offset) {
      first_number += before;
    }
  }
  const int total = __shfl_sync(kAllLanes, first_number, kGatherRowsPerWarp - 1);
  first_number -= __popcll(listed_mask);
  GatherSlot* slots = lists[warp];
#pragma unroll
  for (int row = 0; row < kGatherRowsPerWarp; ++row) {
    list_row_entries(slots, row, cols, __shfl_sync(kAllLanes, listed_mask, row),
                     __shfl_sync(kAllLanes, mine.begin, row),
                     __shfl_sync(kAllLanes, first_number, row));
  }
  __syncwarp();  // the list's slots, written by any lane of the warp, are read by any other

  const float* first_row =
      product + static_cast<std::int64_t>(tile.first_row + first_tile_row) * cols + tile.first_col;
  for (int first_round = 0; first_round < total; first_round += 32 * kGatherRoundsInFlight) {
    // Every load of kGatherRoundsInFlight rounds before their first store.
    int entries[kGatherRoundsInFlight];
    float sampled[kGatherRoundsInFlight];
    float sampled_values[kGatherRoundsInFlight];
#pragma unroll
    for (int round = 0; round < kGatherRoundsInFlight; ++round) {
      const int number = first_round + 32 * round + lane;
      entries[round] = -1;
      sampled[round] = sampled_values[round] = 1.0f;
      if (number < total) {  // the last rounds' lanes past the list's end take none
        const GatherSlot slot = slots[number];
        entries[round] = slot.entry;
        sampled[round] = first_row[slot.offset];
        if constexpr (kValues) {
          sampled_values[round] = values[slot.entry];
        }
      }
    }
#pragma unroll
    for (int round = 0; round < kGatherRoundsInFlight; ++round) {
      if (entries[round] >= 0) {
        output[entries[round]] = sampled_values[round] * sampled[round];
      }
    }
  }

  // Rows with a repeated position: each entry through its column.
#pragma unroll
  for (int row = 0; row < kGatherRowsPerWarp; ++row) {
    if (!__shfl_sync(kAllLanes, repeated, row)) {
      continue;  // the same in every lane: a listed row
    }
    store_repeated_row<kValues>(
        first_row + row * cols, tile.first_col, __shfl_sync(kAllLanes, mine.begin, row),
        __shfl_sync(kAllLanes, mine.count, row), col_indices, values, output);
  }
}

}  // namespace course::step5
