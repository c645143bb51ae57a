/// @file wmma_shape_sddmm.cuh
/// @brief Approach 2's dense product, one warp per kM×kN tile, for the three half-precision
/// WMMA shapes with K = 16 (16×16×16, 32×8×16, 8×32×16), and three ways of treating the
/// note's `sparsity` of a tile of S (none; read and tested by a never-true `if`; read and
/// kept alive by a select, without a branch; read and "kept" by an empty asm statement; read
/// and not used).
///
/// Step 5, an experiment (the lesson, approach 2's experiments):
/// approach 2's dense product with the WMMA shape as a template parameter, and the note's
/// never-true `if`. Read first: sddmm_dense_wmma.cuh (approach 2, which this generalises).
#pragma once

#include "common/launch_math.hpp"
#include "common/warp_sum.cuh"
#include "step5_tensor_core_sddmm/sddmm_dense_wmma.cuh"

#include <cstdint>

namespace course::step5::experiments {

/// @brief What the product kernel does with the note's `sparsity` of its tile of S.
enum class SparsityUse {
  none,        ///< (a) no `sparsity` at all: approach 2 as it is
  branch,      ///< (b) the note's form: read the tile of S, then `if (sparsity > impossible)`
  kept_alive,  ///< (c) the same read, its value used by a select (no branch)
  empty_asm,   ///< (d) the same read, "kept" only by an empty asm statement, which ptxas ignores
  unused       ///< (e) the note's kernel without its `if`: the read written, its value unused
};

/// @brief Rows and columns a padded dense matrix (the product, or S stored densely) is rounded
/// up to: a multiple of every tile edge (8, 16, 32), so that whole tiles are read and stored
/// without checks, and of 8 floats (32 bytes), the alignment WMMA's float store needs.
constexpr int kDensePadding = 32;

/// @brief A warp's staging area for a kM×kN×16 product: a kM×16 slice of A and a kN×16 slice
/// of Bᵀ.
/// @tparam kM tile rows
/// @tparam kN tile columns
template <int kM, int kN>
struct __align__(32) ShapeStage {
  __half a[kM * 16];  ///< A(tile_row*kM + r, k0 + c) at [r * 16 + c]
  __half b[kN * 16];  ///< Bᵀ(tile_col*kN + n, k0 + k) at [n * 16 + k]
};

/// @brief The fraction of zeros in the kM×kN tile (tile_row, tile_col) of S stored densely,
/// read by the whole warp: each lane reads 8 consecutive floats (two 16-byte loads) of the
/// 256 and the counts are summed across the warp.
///
/// Preconditions: kM·kN = 256; @p dense_s is padded (kDensePadding) so the tile is inside.
/// @tparam kM tile rows
/// @tparam kN tile columns
/// @param dense_s S stored densely, zeros outside the pattern
/// @param ld_s its leading dimension (a multiple of kDensePadding)
/// @param tile_row tile row
/// @param tile_col tile column
/// @param lane lane of the calling thread
/// @return zeros / 256, in [0, 1]
template <int kM, int kN>
__device__ inline float tile_sparsity(const float* dense_s, int ld_s, int tile_row, int tile_col,
                                      int lane) {
  static_assert(kM * kN == 32 * 8, "each lane reads 8 elements of the tile");
  const int first = lane * 8;  // the lane's elements, row-major in the tile
  const float* source = dense_s + static_cast<std::int64_t>(tile_row * kM + first / kN) * ld_s +
                        static_cast<std::int64_t>(tile_col) * kN + first % kN;
  const float4 low = __ldg(reinterpret_cast<const float4*>(source));
  const float4 high = __ldg(reinterpret_cast<const float4*>(source) + 1);
  const unsigned nonzeros = (low.x != 0.0f) + (low.y != 0.0f) + (low.z != 0.0f) + (low.w != 0.0f) +
                            (high.x != 0.0f) + (high.y != 0.0f) + (high.z != 0.0f) +
                            (high.w != 0.0f);
  // All 32 lanes take part (warp_sum_all_lanes' precondition).
  const unsigned tile_nonzeros = course::warp_sum_all_lanes(nonzeros);
  return 1.0f - static_cast<float>(tile_nonzeros) / static_cast<float>(kM * kN);
}

/// @brief dense = A·B, one warp per kM×kN tile with WMMA kM×kN×16; a block is kWarpsX ×
/// kWarpsY warps (blockDim = (32·kWarpsX, kWarpsY): 1×32 warps is the note's 32×32 threads,
/// 4×4 its 128×4). With kUse other than none the warp first reads its tile of S
/// (tile_sparsity).
///
/// Preconditions: dense (and dense_s) have their rows and leading dimension padded to
/// kDensePadding; blockDim as above; for kUse == none @p dense_s is not read.
/// @tparam kM tile rows (16, 32 or 8)
/// @tparam kN tile columns (16, 8 or 32)
/// @tparam kWarpsX warps along the tile columns
/// @tparam kWarpsY warps along the tile rows
/// @tparam kUse what is done with the tile's sparsity
/// @param operands A and Bᵀ
/// @param dense_s S stored densely (padded), or null for SparsityUse::none
/// @param ld_s its leading dimension
/// @param impossible a sparsity threshold no tile reaches (2: sparsity is at most 1), passed
/// at run time so that the compiler cannot decide the `if`
/// @param dense the padded dense product
/// @param ld_dense its leading dimension
/// @param vector_a A allows 16-byte loads
/// @param vector_b Bᵀ allows 16-byte loads
template <int kM, int kN, int kWarpsX, int kWarpsY, SparsityUse kUse>
__global__ void __launch_bounds__(32 * kWarpsX * kWarpsY)
    shape_wmma_kernel(DenseOperands operands, const float* dense_s, int ld_s, float impossible,
                      float* dense, int ld_dense, bool vector_a, bool vector_b) {
  static_assert((kM == 16 && kN == 16) || (kM == 32 && kN == 8) || (kM == 8 && kN == 32),
                "WMMA's half-precision shapes with K = 16 are 16x16, 32x8 and 8x32");
  static_assert(kWarpsX >= 1 && kWarpsY >= 1 && kWarpsX * kWarpsY <= 32,
                "a block holds at most 32 warps");
  using namespace nvcuda;
  __shared__ ShapeStage<kM, kN> stages[kWarpsX * kWarpsY];
  const int warp_x = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int tile_col = static_cast<int>(blockIdx.x) * kWarpsX + warp_x;
  const int tile_row = static_cast<int>(blockIdx.y) * kWarpsY + static_cast<int>(threadIdx.y);
  if (tile_col >= course::ceil_div(operands.cols, kN) ||
      tile_row >= course::ceil_div(operands.rows, kM)) {
    return;  // warps of the last blocks that fall past the tiles; whole warps leave together
  }
  float* tile = dense + static_cast<std::int64_t>(tile_row) * kM * ld_dense +
                static_cast<std::int64_t>(tile_col) * kN;
  wmma::fragment<wmma::accumulator, kM, kN, 16, float> accumulator;
  float initial = 0.0f;  // the accumulator's start: 0, unless variant (c) makes it depend on S
  if constexpr (kUse != SparsityUse::none) {
    const float sparsity = tile_sparsity<kM, kN>(dense_s, ld_s, tile_row, tile_col, lane);
    if constexpr (kUse == SparsityUse::branch) {
      if (sparsity > impossible) {  // never true; the whole warp agrees (one reduced value)
        wmma::fill_fragment(accumulator, 0.0f);
        wmma::store_matrix_sync(tile, accumulator, ld_dense, wmma::mem_row_major);
        return;
      }
    } else if constexpr (kUse == SparsityUse::kept_alive) {
      // The value becomes the accumulator's start through a select (0 for every real tile):
      // a use with no branch.
      initial = sparsity > impossible ? 1.0f : 0.0f;
    } else if constexpr (kUse == SparsityUse::empty_asm) {
      // An empty asm statement keeps the read in the PTX but emits no instruction, so ptxas
      // (which removes dead code again, on its own) deletes the loads: (d) compiles like (a).
      asm volatile("" ::"f"(sparsity));
    } else {
      (void)sparsity;  // (e): nothing reads it, so the compiler deletes the read (no loads)
    }
  }
  ShapeStage<kM, kN>& stage = stages[threadIdx.y * kWarpsX + warp_x];
  wmma::fragment<wmma::matrix_a, kM, kN, 16, __half, wmma::row_major> a_fragment;
  // Bᵀ row-major is B column-major: element B(k, n) of the slice sits at stage.b[n*16 + k].
  wmma::fragment<wmma::matrix_b, kM, kN, 16, __half, wmma::col_major> b_fragment;
  wmma::fill_fragment(accumulator, initial);
  for (int k0 = 0; k0 < operands.inner; k0 += 16) {
    stage_slice<kM, 16>(stage.a, 16, operands.a, operands.lda, operands.rows, operands.inner,
                        tile_row * kM, k0, vector_a, lane, 32);
    stage_slice<kN, 16>(stage.b, 16, operands.b_transposed, operands.ldb, operands.cols,
                        operands.inner, tile_col * kN, k0, vector_b, lane, 32);
    __syncwarp();  // every lane's part of the slices is in shared memory before the loads
    wmma::load_matrix_sync(a_fragment, stage.a, 16);
    wmma::load_matrix_sync(b_fragment, stage.b, 16);
    wmma::mma_sync(accumulator, a_fragment, b_fragment, accumulator);
    __syncwarp();  // every lane has loaded its fragments before the next step overwrites them
  }
  wmma::store_matrix_sync(tile, accumulator, ld_dense, wmma::mem_row_major);
}

/// @brief dense_s(row_e, col_e) = S[e]: S stored densely for the `sparsity` variants (the
/// buffer is zeroed first). One thread per nonzero.
/// @param nnz number of nonzeros
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero
/// @param dense_s the dense S
/// @param ld_s its leading dimension
__global__ void scatter_dense_s_kernel(std::int64_t nnz, const int* row_indices,
                                       const int* col_indices, const float* values, float* dense_s,
                                       int ld_s) {
  const std::int64_t nonzero = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (nonzero >= nnz) {
    return;  // threads past the last nonzero
  }
  dense_s[static_cast<std::int64_t>(row_indices[nonzero]) * ld_s + col_indices[nonzero]] =
      values[nonzero];
}

}  // namespace course::step5::experiments
