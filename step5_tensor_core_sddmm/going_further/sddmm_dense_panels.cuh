/// @file sddmm_dense_panels.cuh
/// @brief Approach 4's Tensor Core part: block tiles of 64×64 outputs of a dense panel.
///
/// Step 5, approach 4 (going further): the Tensor Core kernel of the dense panels.
/// Read first: wmma_tile_product.cuh (approach 2), dense_panel_tables.hpp (what a block tile is).
///
/// Where a 64-row panel of S is dense (the deep-learning masks hold 10–50 % nonzeros), it is
/// cheaper to compute every output of the panel with Tensor Cores and keep the sampled ones
/// than to read a row of Bᵀ per nonzero. One block of 8 warps computes a 64×64 tile
/// (BlockTileProduct, block_tile_product.cuh: 64 rows of A and of Bᵀ staged in shared memory,
/// each slice read from global memory once per block, each warp a 16×32 strip with WMMA
/// 16×16×16), the tile goes to shared memory, and the threads copy out only the positions
/// that S holds. Where those are comes from a small
/// table built once by the plan (tile_starts_kernel): a first version searched S's sorted
/// columns for them inside the kernel, and its chains of dependent loads (about 0.5 µs each)
/// made a block take 15–45 µs. Many blocks per panel (one per 64 columns of the columns its
/// nonzeros span) keep all SMs busy even when the matrix has few rows; a banded matrix gets
/// only the blocks along its band.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/block_tile_product.cuh"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>

namespace course::step5 {

/// @brief The copy-out of sddmm_dense_panels_kernel for one warp: writes S's entries in
/// kRowsPerWarp rows of the finished tile, C[e] = value · tile(row, column of e).
///
/// The rows' entries are numbered one after the other (a prefix sum over the lanes that hold
/// the rows) and the 32 lanes take 32 consecutive numbers at a time, so that neighbouring
/// lanes read and write neighbouring entries of S (whole 128-byte lines). A first version
/// gave each row to 4 threads, so one load of a warp touched 8 rows' lines: on the H200 its
/// copy-out took 8 µs of the rn50 mask's 21 µs, this one 4.
/// Preconditions: every lane of the warp calls it (it shuffles with the full mask).
/// @tparam kRowsPerWarp rows per warp (at most 32)
/// @param tile_rows the tile in shared memory, first of the warp's rows first
/// @param row_stride floats between two of the warp's rows in @p tile_rows
/// @param first_col S's column of the tile's column 0
/// @param row_begin lane r < kRowsPerWarp: the first entry of the warp's row r in the tile
/// @param row_count lane r < kRowsPerWarp: its entries in the tile (other lanes: 0)
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros, or nullptr when every value is one
/// @param output one float per nonzero
template <int kRowsPerWarp>
__device__ inline void copy_out_warp_rows(const float* tile_rows, int row_stride, int first_col,
                                          int row_begin, int row_count,
                                          const int* __restrict__ col_indices,
                                          const float* __restrict__ values,
                                          float* __restrict__ output) {
  static_assert(kRowsPerWarp >= 1 && kRowsPerWarp <= 32, "one lane per row");
  const int lane = static_cast<int>(threadIdx.x) % 32;
  int rows_end = row_count;  // becomes: entries of the warp's rows 0..lane
#pragma unroll
  for (int offset = 1; offset < kRowsPerWarp; offset <<= 1) {
    const int before = __shfl_up_sync(kAllLanes, rows_end, offset);
    if (lane >= offset) {
      rows_end += before;
    }
  }
  // Entry of number n in row r: (row_begin - numbers before row r) of lane r, plus n.
  const int number_base = row_begin - (rows_end - row_count);
  int row_ends[kRowsPerWarp];
#pragma unroll
  for (int row = 0; row < kRowsPerWarp; ++row) {
    row_ends[row] = __shfl_sync(kAllLanes, rows_end, row);
  }
  const int total = row_ends[kRowsPerWarp - 1];
  // The trip count is the same in every lane: all of them take part in the shuffle.
#pragma unroll 4
  for (int first = 0; first < total; first += 32) {
    const int number = first + lane;
    int row = 0;
#pragma unroll
    for (int before = 0; before < kRowsPerWarp - 1; ++before) {
      row += number >= row_ends[before] ? 1 : 0;
    }
    const int entry = __shfl_sync(kAllLanes, number_base, row) + number;
    if (number < total) {  // the last round's lanes past the warp's last entry
      const float product = tile_rows[row * row_stride + col_indices[entry] - first_col];
      output[entry] = values == nullptr ? product : values[entry] * product;
    }
  }
}

/// @brief A 64×64 block tile of a dense panel with Tensor Cores; writes S's positions only.
///
/// Preconditions: S sorted row-major, at most 2³¹ - 1 nonzeros; blockDim.x = 256 (8 warps);
/// one block per tile (blockIdx.x); @p tile_starts from tile_starts_kernel.
/// @tparam kChunk values of the inner dimension staged per step (block_tile_chunk)
/// @param operands A and b_transposed
/// @param tiles the block tiles of the dense panels' column spans
/// @param tile_starts first entry of each (row, column block) of the dense panels
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros, or nullptr when every value is one
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param output one float per nonzero
template <int kChunk>
__global__ void __launch_bounds__(256)
    sddmm_dense_panels_kernel(DenseOperands operands, const DenseTile* __restrict__ tiles,
                              const int* __restrict__ tile_starts,
                              const int* __restrict__ col_indices, const float* __restrict__ values,
                              bool vector_a, bool vector_b, float* __restrict__ output) {
  using Product = BlockTileProduct<kChunk>;
  constexpr int kWarps = Product::kWarps;
  constexpr int kRowsPerWarp = kPanelRows / kWarps;  // the copy-out's rows of each warp
  static_assert(Product::kRows == kPanelRows && Product::kCols == kPanelTileCols,
                "a block tile is one panel high and one column block wide");
  static_assert(kPanelRows % kWarps == 0, "the same number of copy-out rows per warp");
  __shared__ __align__(32) unsigned char shared[Product::kSharedBytes];

  const DenseTile tile = tiles[blockIdx.x];
  const int thread = static_cast<int>(threadIdx.x);
  const int warp = thread / 32;
  const int lane = thread % 32;

  // Load the copy-out ranges now: their latency hides behind the product. Lane r of warp w
  // holds the tile's row w + 8·r.
  int copy_begin = 0;
  int copy_count = 0;
  if (lane < kRowsPerWarp) {
    const int* row_starts =
        tile_starts + tile.starts + static_cast<std::int64_t>(warp + kWarps * lane) * tile.stride;
    copy_begin = row_starts[0];
    copy_count = row_starts[1] - copy_begin;
  }
  const float* result =
      Product::compute(operands, tile.first_row, tile.first_col, vector_a, vector_b, shared);

  // Each warp copies out S's entries in its rows w, w + 8, ... of the tile's 64 columns.
  copy_out_warp_rows<kRowsPerWarp>(result + warp * Product::kResultLd, kWarps * Product::kResultLd,
                                   tile.first_col, copy_begin, copy_count, col_indices, values,
                                   output);
}

}  // namespace course::step5
