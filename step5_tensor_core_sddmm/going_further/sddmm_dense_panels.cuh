/// @file sddmm_dense_panels.cuh
/// @brief Approach 4's Tensor Core part: block tiles of 64×64 outputs of a dense panel.
///
/// Step 5, approach 4 (going further): the Tensor Core kernel of the dense panels.
/// Read first: mma_block_tile_product.cuh (the product), dense_panel_tables.hpp (what a block
/// tile is).
///
/// Where a 64-row panel of S is dense (the deep-learning masks hold 10–50 % nonzeros), it is
/// cheaper to compute every output of the panel with Tensor Cores and keep the sampled ones
/// than to read a row of Bᵀ per nonzero. One block of 4 warps computes a 64×64 tile
/// (MmaBlockTileProduct: the tile's 64 rows of A and of Bᵀ streamed 64 values of inner at a
/// time through a ring of shared-memory stages, each warp a 32×32 quarter with ldmatrix and
/// mma.sync), the tile goes to shared memory, and the threads copy out only the positions
/// that S holds (a valued S's values, which the plan laid out in the tile's own order,
/// dense_tile_values.hpp, copied into the ring's free place while the last stage is multiplied).
/// Where those are comes from two small tables built once by the plan (tile_starts_kernel: each
/// row's first entry in the tile and its 64-bit mask of columns): a first version searched S's
/// sorted columns for them inside the kernel, and its chains of dependent loads (about 0.5 µs each)
/// made a block take 15–45 µs. Many blocks per panel (one per 64 columns of the columns its
/// nonzeros span) keep all SMs busy even when the matrix has few rows; a banded matrix gets only
/// the blocks along its band.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/mma_block_tile_product.cuh"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"
#include "step5_tensor_core_sddmm/going_further/tile_row_entries.cuh"
#include "step5_tensor_core_sddmm/going_further/value_prefetch.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

/// @brief Floats of a tile row's values staged in shared memory: one per column of the tile.
constexpr int kStagedValuesLd = kPanelTileCols;

/// @brief Asks L2 for block tile @p tile_index's values in the tile's order (kDenseTileValues
/// floats, 16 KiB): each of the block's threads one 128-byte line.
/// @tparam kThreads threads of the block (kDenseTileValues · 4 / 128 of them: one line each)
/// @param tile_values the values of every tile in the tiles' order (order_dense_tile_values)
/// @param tile_index the block's tile
template <int kThreads>
__device__ inline void prefetch_block_tile_values(const float* tile_values,
                                                  std::int64_t tile_index) {
  constexpr int kLineFloats = kL2LineBytes / 4;
  static_assert(kThreads * kLineFloats == kDenseTileValues, "one line a thread");
  prefetch_l2(tile_values + tile_index * kDenseTileValues +
              static_cast<int>(threadIdx.x) * kLineFloats);
}

/// @brief Stages block tile @p tile_index's values, in the tile's order, in shared memory
/// (@p staged: kTileMaskRows rows of kStagedValuesLd floats): 16-byte copies, cp.async where the
/// GPU has it, so that they wait in flight while the last stage is multiplied. Their place
/// depends on the block's tile alone, not on any load.
/// Preconditions: every thread of the block calls it; @p staged 16-byte aligned.
/// @tparam kThreads threads of the block
/// @param staged the block's staged values
/// @param tile_values the values of every tile in the tiles' order (order_dense_tile_values)
/// @param tile_index the block's tile
template <int kThreads>
__device__ inline void stage_block_tile_values(float* staged, const float* __restrict__ tile_values,
                                               std::int64_t tile_index) {
  static_assert(kStagedValuesLd == kPanelTileCols, "the staged rows are the tile's rows");
  static_assert(kDenseTileValues % (4 * kThreads) == 0, "the same copies for every thread");
  const float* source = tile_values + tile_index * kDenseTileValues;
#pragma unroll
  for (int round = 0; round < kDenseTileValues / (4 * kThreads); ++round) {
    const int first = 4 * (static_cast<int>(threadIdx.x) + round * kThreads);
    copy_float4(staged + first, source + first);
  }
}

/// @brief The copy-out of sddmm_dense_panels_kernel for one warp: writes S's entries in
/// kRowsPerWarp rows of the finished tile, C[e] = value · tile(row, column of e).
///
/// A row's entries are found from its 64-bit mask (bit c: S holds the tile's column c) and its
/// first entry: lane l stores columns l and 32 + l when their bits are set, at the first entry
/// plus the number of bits set before them, so that the warp writes each row's entries as one
/// or two runs of consecutive floats. No column of S is read: an earlier copy-out read each
/// entry's column from global memory before it could read the tile, one dependent load per
/// round of 32 entries that left the blocks waiting (lab/NOTEBOOK.md, 2026-11-29, latest). A
/// row whose count is not its mask's (S holds a position twice) is copied entry by entry
/// through its columns instead.
/// Preconditions: every lane of the warp calls it (it shuffles with the full mask); with
/// kValues, @p staged_rows holds the tile's values in its order (stage_block_tile_values, its
/// copies done and visible).
/// @tparam kRowsPerWarp rows per warp (at most 32)
/// @tparam kValues S has values (@p values, @p staged_rows); false: a pattern, both unused
/// @param tile_rows the tile in shared memory, first of the warp's rows first
/// @param row_stride floats between two of the warp's rows in @p tile_rows
/// @param staged_rows the warp's staged values, a float per column (stage_block_tile_values)
/// @param staged_stride floats between two of the warp's rows in @p staged_rows
/// @param first_col S's column of the tile's column 0
/// @param row_begin lane r < kRowsPerWarp: the first entry of the warp's row r in the tile
/// @param row_count lane r < kRowsPerWarp: its entries in the tile (other lanes: 0)
/// @param row_mask lane r < kRowsPerWarp: the row's mask (other lanes: 0)
/// @param col_indices columns of the nonzeros (read only for a row with repeated positions)
/// @param values values of the nonzeros
/// @param output one float per nonzero
template <int kRowsPerWarp, bool kValues>
__device__ inline void copy_out_masked_rows(const float* tile_rows, int row_stride,
                                            const float* staged_rows, int staged_stride,
                                            int first_col, int row_begin, int row_count,
                                            unsigned long long row_mask,
                                            const int* __restrict__ col_indices,
                                            const float* __restrict__ values,
                                            float* __restrict__ output) {
  static_assert(kRowsPerWarp >= 1 && kRowsPerWarp <= 32, "one lane per row");
  const int lane = static_cast<int>(threadIdx.x) % 32;
#pragma unroll
  for (int row = 0; row < kRowsPerWarp; ++row) {
    const int begin = __shfl_sync(kAllLanes, row_begin, row);
    const int count = __shfl_sync(kAllLanes, row_count, row);
    const unsigned long long mask = __shfl_sync(kAllLanes, row_mask, row);
    const float* tile_row = tile_rows + row * row_stride;
    if (__popcll(mask) == count) {  // the same in every lane: no divergence
      // The entry's rank in the row's run: its place in the output.
      const LaneColumnRanks ranks = lane_column_ranks(mask);
      if (ranks.holds_low) {
        float value = 1.0f;  // a pattern
        if constexpr (kValues) {
          value = staged_rows[row * staged_stride + lane];
        }
        output[begin + ranks.low] = value * tile_row[lane];
      }
      if (ranks.holds_high) {
        float value = 1.0f;
        if constexpr (kValues) {
          value = staged_rows[row * staged_stride + 32 + lane];
        }
        output[begin + ranks.high] = value * tile_row[32 + lane];
      }
      continue;
    }
    // A row with a repeated position: each entry through its column and its value.
    store_repeated_row<kValues>(tile_row, first_col, begin, count, col_indices, values, output);
  }
}

/// @brief A 64×64 block tile of a dense panel with Tensor Cores; writes S's positions only.
///
/// Preconditions: S sorted row-major, at most 2³¹ - 1 nonzeros; blockDim.x =
/// MmaBlockTileProduct<kStages>::kThreads; one block per tile (blockIdx.x); @p tile_starts and
/// @p tile_masks from tile_starts_kernel.
/// @tparam kStages stages of the product's ring (kDensePanelStages)
/// @tparam kValues S has values (@p values); false: a pattern, which then runs none of the
/// values' code (one kernel for both, its patterns took up to 6 % longer: H200, 2026-11-29,
/// lab/results/dense_values_staged_h200.md)
/// @param operands A and b_transposed
/// @param tiles the block tiles of the dense panels' column spans
/// @param tile_starts first entry of each (row, column block) of the dense panels
/// @param tile_masks the columns each row of each tile holds (kTileMaskRows words a tile)
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros (kValues: read for a row that holds a position twice),
/// else nullptr
/// @param tile_values kValues: the tiles' values in their order (order_dense_tile_values), else
/// nullptr
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param output one float per nonzero
template <int kStages, bool kValues>
// Six blocks an SM, as their shared memory allows on sm_90 (at most 80 registers a thread).
__global__ void __launch_bounds__(MmaBlockTileProduct<kStages>::kThreads, 6)
    sddmm_dense_panels_kernel(DenseOperands operands, const DenseTile* __restrict__ tiles,
                              const int* __restrict__ tile_starts,
                              const unsigned long long* __restrict__ tile_masks,
                              const int* __restrict__ col_indices, const float* __restrict__ values,
                              const float* __restrict__ tile_values, bool vector_a, bool vector_b,
                              float* __restrict__ output) {
  using Product = MmaBlockTileProduct<kStages>;
  constexpr int kWarps = Product::kWarps;
  constexpr int kRowsPerWarp = kPanelRows / kWarps;  // the copy-out's rows of each warp
  static_assert(Product::kRows == kPanelRows && Product::kCols == kPanelTileCols,
                "a block tile is one panel high and one column block wide");
  static_assert(kPanelRows % kWarps == 0, "the same number of copy-out rows per warp");
  static_assert(kTileMaskRows == kPanelRows && kPanelTileCols == 64, "a 64-bit mask per row");
  static_assert(kPanelRows * kStagedValuesLd * 4 <= Product::kStageBytes,
                "a tile's values fit in the ring's free place");
  __shared__ __align__(16) unsigned char shared[Product::kSharedBytes];

  const DenseTile tile = tiles[blockIdx.x];
  const int thread = static_cast<int>(threadIdx.x);
  const int warp = thread / 32;
  const int lane = thread % 32;

  // Load the copy-out's starts and masks now: their latency hides behind the product. Lane r
  // of warp w holds the tile's row w + kWarps·r.
  TileRowEntries copy;
  if (lane < kRowsPerWarp) {
    copy = tile_row_entries(tile, blockIdx.x, warp + kWarps * lane, tile_starts, tile_masks);
  }
  // Once the first stages' copies are on their way: a valued S's values of the tile into L2.
  const auto prefetch_values = [&] {
    if constexpr (kValues) {
      prefetch_block_tile_values<Product::kThreads>(tile_values, blockIdx.x);
    }
  };
  // Before the last stage is multiplied: the values from L2 into the ring's free place.
  float* staged_values = nullptr;
  const auto stage_values = [&](unsigned char* free_place) {
    if constexpr (kValues) {
      staged_values = reinterpret_cast<float*>(free_place);
      stage_block_tile_values<Product::kThreads>(staged_values, tile_values, blockIdx.x);
    }
  };
  const float* result = Product::compute(operands, tile.first_row, tile.first_col, vector_a,
                                         vector_b, shared, prefetch_values, stage_values);

  // Each warp copies out S's entries in its rows w, w + kWarps, ... of the tile's 64 columns.
  copy_out_masked_rows<kRowsPerWarp, kValues>(
      result + warp * Product::kResultLd, kWarps * Product::kResultLd,
      kValues ? staged_values + warp * kStagedValuesLd : nullptr, kWarps * kStagedValuesLd,
      tile.first_col, copy.begin, copy.count, copy.mask, col_indices, values, output);
}

}  // namespace course::step5
