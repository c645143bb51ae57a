/// @file wmma_tile_product.cuh
/// @brief One warp computes one 16×16 tile of A·B with WMMA 16×16×16, for any rows, inner and cols.
///
/// Each step of 16 along inner, the warp stages the 16×16 slice of A and the 16×16 slice of Bᵀ
/// in its own 1 KiB of shared memory, filling positions past the matrices' edges or past inner with
/// zeros, then loads the fragments from there. Staging makes every shape legal (WMMA itself needs
/// 16×16 blocks and a leading dimension that is a multiple of 8) and needs no padded copy of A or
/// B.
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>

namespace course::step5 {

/// @brief Tile edge of the 16×16×16 WMMA shape.
constexpr int kTile = 16;

/// @brief A warp's staging area: one 16×16 slice of A and one of Bᵀ (1 KiB).
struct __align__(32) WarpStage {
  __half a[kTile * kTile];  ///< A(tile_row*16 + r, k0 + c) at [r * 16 + c]
  __half b[kTile * kTile];  ///< Bᵀ(tile_col*16 + n, k0 + k) at [n * 16 + k]
};

/// @brief The float accumulator fragment of a 16×16×16 product.
using AccumulatorFragment =
    nvcuda::wmma::fragment<nvcuda::wmma::accumulator, kTile, kTile, kTile, float>;

/// @brief True when rows of @p matrix can be read 8 halves (16 bytes) at a time.
/// @param matrix device pointer
/// @param ld leading dimension in halves
/// @return whether the base is 16-byte aligned and ld is a multiple of 8
inline bool allows_vector_loads(const __half* matrix, int ld) {
  return reinterpret_cast<std::uintptr_t>(matrix) % 16 == 0 && ld % 8 == 0;
}

/// @brief Copies a kSliceRows×kSliceCols slice (rows first_row.., columns k0..) of a
/// row-major half matrix into shared memory (leading dimension @p ld_stage), zeros where the
/// slice leaves the matrix. The slice is cut into pieces of 8 consecutive halves, taken by
/// @p threads threads in turn: one 16-byte load a piece when @p vector_loads and the 8
/// values are all inside. The one staging loader of step 5: a warp's 16×16 slice
/// (warp_tile_product, one piece per lane) and a block's 64-row slices (BlockTileProduct,
/// block_tile_product.cuh).
/// @tparam kSliceRows rows of the slice
/// @tparam kSliceCols columns of the slice (a multiple of 8)
/// @param stage shared memory slice
/// @param ld_stage its leading dimension in halves (a multiple of 8)
/// @param matrix device matrix, row-major
/// @param ld its leading dimension
/// @param row_count its number of rows (rows for A, cols for b_transposed)
/// @param inner its number of valid columns (inner)
/// @param first_row first row of the slice
/// @param k0 first column of the slice
/// @param vector_loads allows_vector_loads(matrix, ld)
/// @param thread index of the calling thread among the @p threads that share the copy
/// @param threads threads that share the copy
template <int kSliceRows, int kSliceCols>
__device__ inline void stage_slice(__half* stage, int ld_stage, const __half* matrix, int ld,
                                   int row_count, int inner, int first_row, int k0,
                                   bool vector_loads, int thread, int threads) {
  static_assert(kSliceCols % 8 == 0, "a slice row is made of whole 8-half pieces");
  constexpr int kPiecesPerRow = kSliceCols / 8;
  for (int piece = thread; piece < kSliceRows * kPiecesPerRow; piece += threads) {
    const int slice_row = piece / kPiecesPerRow;
    const int slice_col = (piece % kPiecesPerRow) * 8;
    const int row = first_row + slice_row;
    const int k = k0 + slice_col;
    __half* destination = stage + slice_row * ld_stage + slice_col;
    const __half* source = matrix + static_cast<std::int64_t>(row) * ld + k;
    if (vector_loads && row < row_count && k + 8 <= inner) {
      *reinterpret_cast<uint4*>(destination) = __ldg(reinterpret_cast<const uint4*>(source));
      continue;
    }
    for (int offset = 0; offset < 8; ++offset) {
      // Guards the rows past the matrix's last (an edge tile) and the columns past inner (the
      // last step along the inner dimension).
      const bool inside = row < row_count && k + offset < inner;
      destination[offset] = inside ? source[offset] : __float2half(0.0f);
    }
  }
}

/// @brief accumulator = A(tile rows) · B(tile columns) over the whole inner dimension, by one warp.
/// @param accumulator result fragment (overwritten)
/// @param operands A and Bᵀ
/// @param tile_row tile row (rows tile_row*16 ..)
/// @param tile_col tile column (columns tile_col*16 ..)
/// @param stage the warp's staging area
/// @param lane lane of the calling thread
/// @param vector_a whether A allows 16-byte loads
/// @param vector_b whether Bᵀ allows 16-byte loads
__device__ inline void warp_tile_product(AccumulatorFragment& accumulator,
                                         const DenseOperands& operands, int tile_row, int tile_col,
                                         WarpStage& stage, int lane, bool vector_a, bool vector_b) {
  using namespace nvcuda;
  wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, __half, wmma::row_major> a_fragment;
  // Bᵀ row-major is B column-major: element B(k, n) of the slice sits at stage.b[n*16 + k].
  wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, __half, wmma::col_major> b_fragment;
  wmma::fill_fragment(accumulator, 0.0f);
  for (int k0 = 0; k0 < operands.inner; k0 += kTile) {
    stage_slice<kTile, kTile>(stage.a, kTile, operands.a, operands.lda, operands.rows,
                              operands.inner, tile_row * kTile, k0, vector_a, lane, 32);
    stage_slice<kTile, kTile>(stage.b, kTile, operands.b_transposed, operands.ldb, operands.cols,
                              operands.inner, tile_col * kTile, k0, vector_b, lane, 32);
    __syncwarp();  // every lane's part of the slices is in shared memory before the loads
    wmma::load_matrix_sync(a_fragment, stage.a, kTile);
    wmma::load_matrix_sync(b_fragment, stage.b, kTile);
    wmma::mma_sync(accumulator, a_fragment, b_fragment, accumulator);
    __syncwarp();  // every lane has loaded its fragments before the next step overwrites them
  }
}

}  // namespace course::step5
