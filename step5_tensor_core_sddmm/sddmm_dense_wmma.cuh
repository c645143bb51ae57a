/// @file sddmm_dense_wmma.cuh
/// @brief Approach 2, the note's first Tensor Core version: compute the whole dense product
/// A·B with WMMA, then read it at the nonzeros of S.
///
/// The dense product needs rows×cols floats (padded to 16): 37000² is 5.5 GB, 106000² already
/// 45 GB, 916000² 3.4 TB. That storage, not the arithmetic, is why this version fails on the
/// large matrices (the note's "memory allocation error"); the plan (step5_launchers.cu) refuses it
/// up front with the figure.
#pragma once

#include "common/launch_math.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief dense = A·B, one warp per 16×16 tile; a block is kWarpsX × kWarpsY warps, i.e.
/// blockDim = (32·kWarpsX, kWarpsY) (128×4 for 4×4, the note's 32×32 for 1×32).
///
/// Preconditions: dense has ceil(rows/16)·16 rows and leading dimension ld_dense =
/// ceil(cols/16)·16, so full tiles can be stored without checks; blockDim as above.
/// @tparam kWarpsX warps along the tile columns
/// @tparam kWarpsY warps along the tile rows
/// @param operands A and Bᵀ
/// @param dense the padded dense product
/// @param ld_dense its leading dimension
/// @param vector_a A allows 16-byte loads
/// @param vector_b Bᵀ allows 16-byte loads
template <int kWarpsX, int kWarpsY>
__global__ void __launch_bounds__(32 * kWarpsX * kWarpsY)
    sddmm_dense_wmma_kernel(DenseOperands operands, float* dense, int ld_dense, bool vector_a,
                            bool vector_b) {
  static_assert(kWarpsX >= 1 && kWarpsY >= 1 && kWarpsX * kWarpsY <= 32,
                "a block holds at most 32 warps");
  __shared__ WarpStage stages[kWarpsX * kWarpsY];
  const int warp_x = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int tile_col = static_cast<int>(blockIdx.x) * kWarpsX + warp_x;
  const int tile_row = static_cast<int>(blockIdx.y) * kWarpsY + static_cast<int>(threadIdx.y);
  const int tile_cols = course::ceil_div(operands.cols, kTile);
  const int tile_rows = course::ceil_div(operands.rows, kTile);
  if (tile_col >= tile_cols || tile_row >= tile_rows) {
    return;  // warps of the last blocks that fall past the tiles; whole warps leave together
  }
  AccumulatorFragment accumulator;
  warp_tile_product(accumulator, operands, tile_row, tile_col,
                    stages[threadIdx.y * kWarpsX + warp_x], lane, vector_a, vector_b);
  float* tile = dense + static_cast<std::int64_t>(tile_row) * kTile * ld_dense +
                static_cast<std::int64_t>(tile_col) * kTile;
  nvcuda::wmma::store_matrix_sync(tile, accumulator, ld_dense, nvcuda::wmma::mem_row_major);
}

/// @brief output[e] = S[e] · dense(row_e, col_e): one thread per nonzero.
/// @param dense the dense product
/// @param ld_dense its leading dimension
/// @param nnz number of nonzeros
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero
/// @param output one float per nonzero
// static: each launch file that includes this header (approach 2's, the WMMA shape
// experiment's) gets its own copy instead of two definitions of one kernel.
static __global__ void sample_dense_kernel(const float* dense, int ld_dense, std::int64_t nnz,
                                           const int* row_indices, const int* col_indices,
                                           const float* values, float* output) {
  const std::int64_t nonzero = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (nonzero >= nnz) {
    return;  // threads past the last nonzero
  }
  output[nonzero] =
      values[nonzero] *
      dense[static_cast<std::int64_t>(row_indices[nonzero]) * ld_dense + col_indices[nonzero]];
}

}  // namespace course::step5
