/// @file sddmm_warp_per_nonzero.cuh
/// @brief Approach 1, the CUDA-core baseline: one warp per nonzero of S.
///
/// The 32 lanes split the dot product of row `row` of A and row `col` of Bᵀ (lane l takes
/// k = l, l + 32, ...), each accumulating in float, then add their partial sums with a
/// butterfly of __shfl_xor_sync. Every lane of the warp reaches every shuffle (the only exit
/// is taken by the whole warp together), so the mask 0xFFFFFFFF names exactly the lanes
/// that take part: the shuffle lesson of the note (see shuffle_mask.cu).
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/warp_shuffle_check.cuh"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

/// @brief Sum of @p value over the 32 lanes, in every lane (all 32 lanes must call it).
/// The shuffles check their mask when COURSE_CHECK_WARP_MASKS is defined
/// (warp_shuffle_check.cuh).
/// @param value this lane's partial sum
/// @return the warp's total
__device__ inline float warp_sum(float value) {
  // BEGIN EXERCISE warp_sum
  // TODO(step 5): return the sum of `value` over the 32 lanes of the warp, in every lane,
  // exchanging registers with checked_shfl_xor_sync (warp_shuffle_check.cuh: __shfl_xor_sync
  // plus a check of its mask) in log2(32) = 5 steps. All 32 lanes call this function, and
  // the mask of a shuffle must name exactly the lanes that take part in it: the note's lesson
  // (the README's experiment "The shuffle mask"). In the course's build a shuffle whose mask
  // leaves out a lane that takes part stops the kernel, and the test fails with a CUDA error.
  // Checked through sddmm_warp_per_nonzero_kernel below, by the same tests.
  return value;
  // END EXERCISE warp_sum
}

/// @brief C[e] = S[e] · (row of A) · (row of Bᵀ), one warp per nonzero e.
///
/// Preconditions: blockDim.x is a multiple of 32; S's indices are in range (DevicePattern
/// checked them); works for any inner and any order of the nonzeros.
/// @param operands A and Bᵀ
/// @param nnz number of nonzeros
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero
/// @param output one float per nonzero
__global__ void sddmm_warp_per_nonzero_kernel(DenseOperands operands, std::int64_t nnz,
                                              const int* row_indices, const int* col_indices,
                                              const float* values, float* output) {
  // BEGIN EXERCISE sddmm_warp_per_nonzero_kernel
  // TODO(step 5, approach 1): one warp per nonzero.
  // What to achieve: output[e] = values[e] · (row row_indices[e] of A) · (row col_indices[e]
  // of Bᵀ) for every nonzero e < nnz, computed by warp e of the grid (the threads are
  // numbered across blocks, 32 to a warp; the launcher starts enough warps, and the last
  // ones may have no nonzero). The 32 lanes of the warp split the dot product over the inner
  // dimension (operands.inner halves, accumulated in float) so that consecutive lanes read
  // consecutive halves, add their partial sums with warp_sum, and exactly one lane writes the
  // result. A row of A starts operands.lda halves after the previous one, a row of Bᵀ
  // operands.ldb halves (padded leading dimensions: lda, ldb >= inner). nnz and the offsets
  // may pass 2^31: compute them in 64 bits. A warp with no nonzero must leave as a whole, so
  // that every lane reaching warp_sum is one its mask names.
  // Checked on the GPU (approach 1 in each) by "all approaches with rows inner cols not
  // multiples of 16", "all approaches with padded leading dimensions and an inner tail",
  // "all approaches with empty rows and columns", "all approaches with one nonzero" and the
  // other "all approaches" tests:
  //   scripts/try_exercise.sh step5
  // (see step5_tensor_core_sddmm/exercise/README.md). Hints: exercise/HINTS.md.
  // END EXERCISE sddmm_warp_per_nonzero_kernel
}

}  // namespace course::step5
