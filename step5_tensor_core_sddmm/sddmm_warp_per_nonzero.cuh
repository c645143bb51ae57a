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
  constexpr unsigned kAllLanes = 0xFFFFFFFFu;
  for (int offset = 16; offset > 0; offset >>= 1) {
    value += checked_shfl_xor_sync(kAllLanes, value, offset);
  }
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
  const std::int64_t nonzero =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warpSize;
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  if (nonzero >= nnz) {
    return;  // the last warps of the grid; taken by all 32 lanes of a warp together
  }
  const __half* a_row = operands.a + static_cast<std::int64_t>(row_indices[nonzero]) * operands.lda;
  const __half* b_row =
      operands.b_transposed + static_cast<std::int64_t>(col_indices[nonzero]) * operands.ldb;
  float partial = 0.0f;
  for (int k = lane; k < operands.inner; k += warpSize) {
    partial = fmaf(__half2float(a_row[k]), __half2float(b_row[k]), partial);
  }
  const float dot = warp_sum(partial);
  if (lane == 0) {
    output[nonzero] = values[nonzero] * dot;
  }
  // END EXERCISE sddmm_warp_per_nonzero_kernel
}

}  // namespace course::step5
