/// @file block_tile_product.cuh
/// @brief The Tensor Core product of approach 4's full tiles (the dense panels' is
/// MmaBlockTileProduct, mma_block_tile_product.cuh): 8 warps compute a 64×64 tile of A·B,
/// staging kChunk values of the inner dimension of 64 rows of A and 64 rows of b_transposed at
/// a time in shared memory (each slice read from global memory once per block), each warp a
/// 16×32 strip with WMMA 16×16×16; the finished tile is left in shared memory for the kernel's
/// copy-out.
///
/// Step 5, approach 4 (going further): one block computes a 64×64 tile of A·B with WMMA.
/// Read first: wmma_tile_product.cuh (one warp, one 16×16 tile; the staging loader).
///
/// kChunk is compiled in: 64 for inner up to 64 (the attention head sizes 32 and 64 in one
/// stage, no zero-filled half chunk multiplied for nothing), 128 beyond (inner = 128 in one
/// stage, 256 in two).
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <cuda_fp16.h>
#include <mma.h>

namespace course::step5 {

/// @brief What BlockTileProduct::compute runs after staging its first chunk when the kernel
/// asks for nothing: nothing.
struct NoStagedHook {
  /// @brief Does nothing.
  __device__ void operator()() const {}
};

/// @brief A 64×64 tile of A·B computed by one block of 8 warps with WMMA.
/// @tparam kChunk values of the inner dimension staged per step (a multiple of 16)
template <int kChunk>
struct BlockTileProduct {
  static constexpr int kWarps = 8;                     ///< warps per block
  static constexpr int kThreads = 32 * kWarps;         ///< threads per block
  static constexpr int kRows = 64;                     ///< rows of the tile
  static constexpr int kCols = 64;                     ///< columns of the tile
  static constexpr int kFragment = 16;                 ///< edge of the WMMA shape
  static constexpr int kStageLd = kChunk + 8;          ///< halves; +8 spreads rows over the banks
  static constexpr int kResultLd = kCols + 4;          ///< floats; a multiple of 4 as WMMA needs
  static constexpr int kWarpRows = kRows / kFragment;  ///< 4 strips of 16 rows
  /// fragments per warp along the columns (2)
  static constexpr int kWarpCols = kCols / kFragment / (kWarps / kWarpRows);
  /// bytes of the staged slices of A and b_transposed
  static constexpr int kStageBytes = (kRows + kCols) * kStageLd * 2;
  /// bytes of the finished tile
  static constexpr int kResultBytes = kRows * kResultLd * 4;
  /// The staged slices and the finished tile are never needed at the same time: one buffer.
  static constexpr int kSharedBytes = kStageBytes > kResultBytes ? kStageBytes : kResultBytes;
  static_assert(kRows % kFragment == 0 && kCols % kFragment == 0,
                "the block tile is made of 16×16 fragments");
  static_assert(kChunk % kFragment == 0, "a staged chunk holds whole 16-deep steps");
  static_assert(kWarps % kWarpRows == 0 && kWarpCols * (kWarps / kWarpRows) * kFragment == kCols,
                "the warps cover the block tile exactly");

  /// @brief Computes the tile (rows first_row.., columns first_col..) into @p shared, as
  /// floats with leading dimension kResultLd. Positions past the matrices' edges hold zeros.
  /// Preconditions: every thread of a block of kThreads calls it; @p shared holds
  /// kSharedBytes, 32-byte aligned.
  /// @tparam StagedHook a callable run by every thread once, right after its part of the first
  /// chunk is staged: the loads the thread issued before compute() have arrived by then, so a
  /// kernel can start work on them (the full tiles' value prefetch) behind the product
  /// @param operands A and b_transposed
  /// @param first_row first row of the tile
  /// @param first_col first column of the tile
  /// @param vector_a A allows 16-byte loads
  /// @param vector_b b_transposed allows 16-byte loads
  /// @param shared the block's shared buffer
  /// @param after_first_stage the hook (NoStagedHook: nothing)
  /// @return the finished tile in @p shared
  template <typename StagedHook = NoStagedHook>
  __device__ static float* compute(const DenseOperands& operands, int first_row, int first_col,
                                   bool vector_a, bool vector_b, unsigned char* shared,
                                   const StagedHook& after_first_stage = {}) {
    using namespace nvcuda;
    __half* stage_a = reinterpret_cast<__half*>(shared);
    __half* stage_b = stage_a + kRows * kStageLd;
    float* result = reinterpret_cast<float*>(shared);
    const int thread = static_cast<int>(threadIdx.x);
    const int warp = thread / 32;
    const int warp_row = warp / (kWarps / kWarpRows);
    const int warp_col = warp % (kWarps / kWarpRows);
    wmma::fragment<wmma::accumulator, kFragment, kFragment, kFragment, float>
        accumulators[kWarpCols];
#pragma unroll
    for (int fragment = 0; fragment < kWarpCols; ++fragment) {
      wmma::fill_fragment(accumulators[fragment], 0.0f);
    }
    wmma::fragment<wmma::matrix_a, kFragment, kFragment, kFragment, __half, wmma::row_major> a_part;
    // b_transposed row-major is B column-major: B(k, n) of the slice sits at
    // stage_b[n * kStageLd + k].
    wmma::fragment<wmma::matrix_b, kFragment, kFragment, kFragment, __half, wmma::col_major> b_part;
    for (int k0 = 0; k0 < operands.inner; k0 += kChunk) {
      stage_slice<kRows, kChunk>(stage_a, kStageLd, operands.a, operands.lda, operands.rows,
                                 operands.inner, first_row, k0, vector_a, thread, kThreads);
      stage_slice<kCols, kChunk>(stage_b, kStageLd, operands.b_transposed, operands.ldb,
                                 operands.cols, operands.inner, first_col, k0, vector_b, thread,
                                 kThreads);
      if (k0 == 0) {
        after_first_stage();
      }
      __syncthreads();  // the whole chunk of A and b_transposed is staged before any warp loads
#pragma unroll
      for (int step = 0; step < kChunk; step += kFragment) {
        wmma::load_matrix_sync(a_part, stage_a + warp_row * kFragment * kStageLd + step, kStageLd);
#pragma unroll
        for (int fragment = 0; fragment < kWarpCols; ++fragment) {
          const int tile_col = warp_col * kWarpCols + fragment;
          wmma::load_matrix_sync(b_part, stage_b + tile_col * kFragment * kStageLd + step,
                                 kStageLd);
          wmma::mma_sync(accumulators[fragment], a_part, b_part, accumulators[fragment]);
        }
      }
      __syncthreads();  // every warp has read the chunk before it is overwritten (next chunk
                        // or the result tile, which shares the buffer)
    }
#pragma unroll
    for (int fragment = 0; fragment < kWarpCols; ++fragment) {
      const int tile_col = warp_col * kWarpCols + fragment;
      wmma::store_matrix_sync(result + warp_row * kFragment * kResultLd + tile_col * kFragment,
                              accumulators[fragment], kResultLd, wmma::mem_row_major);
    }
    __syncthreads();  // the whole tile is in shared memory before threads copy out other
                      // warps' fragments
    return result;
  }
};

/// @brief The chunk that BlockTileProduct is compiled with for @p inner: 64 up to 64, else 128.
/// @param inner the inner size
/// @return 64 or 128
inline int block_tile_chunk(int inner) {
  return inner <= 64 ? 64 : 128;
}

}  // namespace course::step5
