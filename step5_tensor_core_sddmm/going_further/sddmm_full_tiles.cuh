/// @file sddmm_full_tiles.cuh
/// @brief Approach 4's full tiles: a 64×64 tile wholly in S is a plain dense Tensor Core
/// tile. Its product is BlockTileProduct's, as for a dense panel, but the copy-out needs no
/// table of where S's entries are: row r of the tile is `width` consecutive entries of S
/// from row_starts[r] on, so each warp stores whole rows, 32 neighbouring floats at a time.
///
/// Step 5, approach 4 (going further, "Full tiles"): the Tensor Core kernel of the full tiles.
/// Read first: block_tile_product.cuh (the product), full_tiles.hpp (what a full tile is).
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/block_tile_product.cuh"
#include "step5_tensor_core_sddmm/going_further/full_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"
#include "step5_tensor_core_sddmm/going_further/value_prefetch.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief One full tile per block: C = (S's values ·) A·B at every position of the tile; the
/// body of the two kernels below.
///
/// With values (value_prefetch.cuh), every lane loads its 16 values as soon as the first chunk
/// of the product is staged (the row starts have arrived by then), so that they arrive while
/// the products run (one chunk of inner), or L2 is asked for them then and they are loaded
/// after the products (several chunks); a pattern S stores the products as they are.
/// Preconditions: blockDim.x = 256 (8 warps); one block per tile (blockIdx.x); @p tiles
/// and @p row_starts from find_full_tiles for this S.
/// @tparam kChunk values of the inner dimension staged per step (block_tile_chunk)
/// @tparam kValues S has values (@p values); false: a pattern, @p values ignored
/// @param operands A and b_transposed
/// @param tiles the full tiles
/// @param row_starts the first entry of each row of each tile
/// @param panel_slot 1 + slot of each dense panel, 0 for a sparse one, or nullptr when no
/// panel is dense: a dense panel's kernel writes all of its entries, so its full tiles stay
/// idle
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param values values of the nonzeros (kValues)
/// @param output one float per nonzero
template <int kChunk, bool kValues>
__device__ inline void full_tile_block(const DenseOperands& operands,
                                       const FullTile* __restrict__ tiles,
                                       const int* __restrict__ row_starts,
                                       const int* __restrict__ panel_slot, bool vector_a,
                                       bool vector_b, const float* __restrict__ values,
                                       float* __restrict__ output) {
  using Product = BlockTileProduct<kChunk>;
  constexpr int kRowsPerWarp = kFullTileEdge / Product::kWarps;  // 8 rows each
  static_assert(Product::kRows == kFullTileEdge && Product::kCols == kFullTileEdge,
                "a full tile is one block tile");
  static_assert(kRowsPerWarp <= 32, "one lane holds each of a warp's row starts");
  static_assert(kFullTileEdge % 32 == 0, "whole warps of columns in a tile row");
  __shared__ __align__(32) unsigned char shared[Product::kSharedBytes];

  const FullTile tile = tiles[blockIdx.x];
  if (panel_slot != nullptr && panel_slot[tile.first_row / kPanelRows] != 0) {
    return;  // the whole block leaves before any barrier: the dense panel writes this tile
  }
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  // Lane r < 8 of warp w holds the start of the tile's row w + 8·r, loaded now so that its
  // latency hides behind the product.
  int start = 0;
  if (lane < kRowsPerWarp) {
    start = row_starts[tile.starts + warp + Product::kWarps * lane];
  }
  const int tile_rows = min(kFullTileEdge, operands.rows - tile.first_row);
  if constexpr (!kValues) {
    const float* result =
        Product::compute(operands, tile.first_row, tile.first_col, vector_a, vector_b, shared);
    for (int index = 0; index < kRowsPerWarp; ++index) {
      const int row = warp + Product::kWarps * index;
      const int first = __shfl_sync(kAllLanes, start, index);
      if (row >= tile_rows) {
        break;  // rows past the matrix's last (a tile cut by the bottom edge); warp-uniform
      }
      // Columns past the matrix's last (a tile cut by the right edge) are not S's: width stops.
      for (int col = lane; col < tile.width; col += 32) {
        output[first + col] = result[row * Product::kResultLd + col];
      }
    }
  } else {
    // Lane l of warp w stores rows w, w + 8, ... at columns l and l + 32: 16 values. Rows past
    // the bottom edge and columns past the right edge hold no entry of S: their loads read
    // values[0], unused.
    constexpr int kColsPerLane = kFullTileEdge / 32;  // 2: columns lane and lane + 32
    float scales[kRowsPerWarp][kColsPerLane];
    int firsts[kRowsPerWarp];
    const auto load_values = [&] {
#pragma unroll
      for (int index = 0; index < kRowsPerWarp; ++index) {
        firsts[index] = __shfl_sync(kAllLanes, start, index);
        const bool inside = warp + Product::kWarps * index < tile_rows;
#pragma unroll
        for (int part = 0; part < kColsPerLane; ++part) {
          const int col = lane + 32 * part;
          const bool held = inside && col < tile.width;
          scales[index][part] = load_value_in_order(values + (held ? firsts[index] + col : 0));
        }
      }
    };
    const float* result = nullptr;
    if constexpr (kChunk <= 64) {
      // One chunk of inner: the loads leave as soon as it is staged (the row starts have
      // arrived by then) and arrive while its products run, in 64 registers.
      result = Product::compute(operands, tile.first_row, tile.first_col, vector_a, vector_b,
                                shared, load_values);
    } else {
      // Several chunks: holding 16 values through them would spill (sm_90 build,
      // 2026-11-28), so L2 is asked for the rows' values after the first chunk, and the
      // loads, after the products, find them there. Lane r < 8 holds row w + 8·r's start.
      const bool row_inside = lane < kRowsPerWarp && warp + Product::kWarps * lane < tile_rows;
      result = Product::compute(
          operands, tile.first_row, tile.first_col, vector_a, vector_b, shared,
          [&] { prefetch_value_run(values + start, row_inside ? tile.width : 0); });
      load_values();
    }
#pragma unroll
    for (int index = 0; index < kRowsPerWarp; ++index) {
      const int row = warp + Product::kWarps * index;
#pragma unroll
      for (int part = 0; part < kColsPerLane; ++part) {
        const int col = lane + 32 * part;
        if (row < tile_rows && col < tile.width) {  // the same edges as the loads above
          output[firsts[index] + col] =
              scales[index][part] * result[row * Product::kResultLd + col];
        }
      }
    }
  }
}

/// @brief A pattern S's full tiles, one per block (full_tile_block without values).
/// @tparam kChunk values of the inner dimension staged per step (block_tile_chunk)
/// @param operands A and b_transposed
/// @param tiles the full tiles
/// @param row_starts the first entry of each row of each tile
/// @param panel_slot the dense panels' slots, or nullptr (full_tile_block)
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param output one float per nonzero
template <int kChunk>
__global__ void __launch_bounds__(256)
    sddmm_full_tiles_kernel(DenseOperands operands, const FullTile* __restrict__ tiles,
                            const int* __restrict__ row_starts, const int* __restrict__ panel_slot,
                            bool vector_a, bool vector_b, float* __restrict__ output) {
  full_tile_block<kChunk, false>(operands, tiles, row_starts, panel_slot, vector_a, vector_b,
                                 nullptr, output);
}

/// @brief A valued S's full tiles, one per block (full_tile_block with values). Its 16 values
/// per lane live through the product: the bound of 4 blocks per SM keeps its registers
/// within the 64 that let as many blocks in as the pattern's kernel has (sm_90 build,
/// 2026-11-28: 76 registers without it, 3 blocks per SM).
/// @tparam kChunk values of the inner dimension staged per step (block_tile_chunk)
/// @param operands A and b_transposed
/// @param tiles the full tiles
/// @param row_starts the first entry of each row of each tile
/// @param panel_slot the dense panels' slots, or nullptr (full_tile_block)
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param values values of the nonzeros
/// @param output one float per nonzero
template <int kChunk>
__global__ void __launch_bounds__(256, 4)
    sddmm_full_tiles_valued_kernel(DenseOperands operands, const FullTile* __restrict__ tiles,
                                   const int* __restrict__ row_starts,
                                   const int* __restrict__ panel_slot, bool vector_a, bool vector_b,
                                   const float* __restrict__ values, float* __restrict__ output) {
  full_tile_block<kChunk, true>(operands, tiles, row_starts, panel_slot, vector_a, vector_b, values,
                                output);
}

}  // namespace course::step5
