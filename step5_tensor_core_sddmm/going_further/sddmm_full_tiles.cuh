/// @file sddmm_full_tiles.cuh
/// @brief Approach 4's full tiles: a 64×64 tile wholly in S is a plain dense Tensor Core
/// tile. Its product is BlockTileProduct's (WMMA; a dense panel's is MmaBlockTileProduct), and
/// unlike a dense panel's, its copy-out needs no table of where S's entries are: row r of the tile
/// is `width` consecutive entries of S from row_starts[r] on, so each warp stores whole rows, 32
/// neighbouring floats at a time.
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

/// @brief One lane's share of its block's full tile: lane l of warp w stores rows w, w + 8,
/// ... of the tile at columns l, l + 32, ...; rows past the matrix's last (a tile cut by the
/// bottom edge) and columns past the tile's width (cut by the right edge) are not S's.
/// @tparam Product the block's product (BlockTileProduct)
template <typename Product>
struct FullTileLane {
  static constexpr int kRowsPerWarp = kFullTileEdge / Product::kWarps;  ///< 8 rows each
  static constexpr int kColsPerLane = kFullTileEdge / 32;  ///< 2: columns lane and lane + 32
  int width;                                               ///< the tile's columns in S
  int tile_rows;                                           ///< the tile's rows inside the matrix
  int warp;                                                ///< the warp
  int lane;                                                ///< the lane
  int start;  ///< lane r < kRowsPerWarp: S's position of row warp + 8·r's first entry

  /// @brief Stores a pattern S's products as they are: each of the warp's rows is `width`
  /// consecutive entries of S, stored 32 neighbouring floats at a time.
  /// @param result the tile's products (Product::compute)
  /// @param output one float per nonzero
  __device__ __forceinline__ void store_products(const float* result,
                                                 float* __restrict__ output) const {
    for (int index = 0; index < kRowsPerWarp; ++index) {
      const int row = warp + Product::kWarps * index;
      const int first = __shfl_sync(kAllLanes, start, index);
      if (row >= tile_rows) {
        break;  // rows past the matrix's last (a tile cut by the bottom edge); warp-uniform
      }
      // Columns past the matrix's last (a tile cut by the right edge) are not S's: width stops.
      for (int col = lane; col < width; col += 32) {
        output[first + col] = result[row * Product::kResultLd + col];
      }
    }
  }
};

/// @brief A lane's 16 values of a valued S's full tile in registers (FullTileLane's rows and
/// columns), and where each of its rows starts in S.
/// @tparam Product the block's product (BlockTileProduct)
template <typename Product>
struct FullTileValues {
  using Lane = FullTileLane<Product>;                    ///< the lane's share of the tile
  float scales[Lane::kRowsPerWarp][Lane::kColsPerLane];  ///< the values, by row and column
  int firsts[Lane::kRowsPerWarp];                        ///< S's position of each row's start

  /// @brief Loads the lane's values (value_prefetch.cuh). Entries outside S (past the bottom
  /// or the right edge) read values[0], unused.
  /// @param at the lane's share of the tile
  /// @param values values of the nonzeros
  __device__ __forceinline__ void load(const Lane& at, const float* __restrict__ values) {
#pragma unroll
    for (int index = 0; index < Lane::kRowsPerWarp; ++index) {
      firsts[index] = __shfl_sync(kAllLanes, at.start, index);
      const bool inside = at.warp + Product::kWarps * index < at.tile_rows;
#pragma unroll
      for (int part = 0; part < Lane::kColsPerLane; ++part) {
        const int col = at.lane + 32 * part;
        const bool held = inside && col < at.width;
        scales[index][part] = load_value_in_order(values + (held ? firsts[index] + col : 0));
      }
    }
  }

  /// @brief Stores each of the lane's entries: its value times the product.
  /// @param at the lane's share of the tile
  /// @param result the tile's products (Product::compute)
  /// @param output one float per nonzero
  __device__ __forceinline__ void store_scaled(const Lane& at, const float* result,
                                               float* __restrict__ output) const {
#pragma unroll
    for (int index = 0; index < Lane::kRowsPerWarp; ++index) {
      const int row = at.warp + Product::kWarps * index;
#pragma unroll
      for (int part = 0; part < Lane::kColsPerLane; ++part) {
        const int col = at.lane + 32 * part;
        if (row < at.tile_rows && col < at.width) {  // the same edges as the loads
          output[firsts[index] + col] =
              scales[index][part] * result[row * Product::kResultLd + col];
        }
      }
    }
  }
};

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
  using Lane = FullTileLane<Product>;
  static_assert(Product::kRows == kFullTileEdge && Product::kCols == kFullTileEdge,
                "a full tile is one block tile");
  static_assert(Lane::kRowsPerWarp <= 32, "one lane holds each of a warp's row starts");
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
  if (lane < Lane::kRowsPerWarp) {
    start = row_starts[tile.starts + warp + Product::kWarps * lane];
  }
  const Lane at{tile.width, min(kFullTileEdge, operands.rows - tile.first_row), warp, lane, start};
  if constexpr (!kValues) {
    at.store_products(
        Product::compute(operands, tile.first_row, tile.first_col, vector_a, vector_b, shared),
        output);
  } else {
    FullTileValues<Product> held;
    const float* result = nullptr;
    if constexpr (kChunk <= 64) {
      // One chunk of inner: the loads leave as soon as it is staged (the row starts have
      // arrived by then) and arrive while its products run, in 64 registers.
      result = Product::compute(operands, tile.first_row, tile.first_col, vector_a, vector_b,
                                shared, [&] { held.load(at, values); });
    } else {
      // Several chunks: holding 16 values through them would spill (sm_90 build,
      // 2026-11-28), so L2 is asked for the rows' values after the first chunk, and the
      // loads, after the products, find them there. Lane r < 8 holds row w + 8·r's start.
      const bool row_inside =
          lane < Lane::kRowsPerWarp && warp + Product::kWarps * lane < at.tile_rows;
      result = Product::compute(
          operands, tile.first_row, tile.first_col, vector_a, vector_b, shared,
          [&] { prefetch_value_run(values + start, row_inside ? tile.width : 0); });
      held.load(at, values);
    }
    held.store_scaled(at, result, output);
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
