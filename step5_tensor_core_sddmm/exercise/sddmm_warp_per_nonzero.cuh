// Step 5 exercise, approach 1 (the lesson): the kernel you write.
// Read first: lab/experiments/shuffle_mask.cu and warp_shuffle_check.cuh in the step folder.
/// @cond COURSE_EXERCISE
// Exercise version of step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh, approach 1 (kept
// out of the course book).
//
// Build it with -DCOURSE_KERNELS=exercise, or copy this folder to
// <your folder>/step5_tensor_core_sddmm/ and build with -DCOURSE_KERNELS=<your folder>.
// Then
//   ctest --test-dir <build> -L step5 --output-on-failure
// The tests compare every approach with a CPU SDDMM in double precision on awkward shapes
// (rows, inner, cols not multiples of 16, padded leading dimensions, empty rows, one nonzero, a
// real matrix). Before each launch they fill C with the bit pattern 0xFF (a NaN), so a value your
// kernel never writes shows up as NaN in the comparison's summary. The launch
// (sddmm_warp_per_nonzero_launch.cu) is given: blockDim.x = 256 (8 warps), one warp per
// nonzero, as many blocks as needed; C has one float per nonzero, in S's order.
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/warp_shuffle_check.cuh"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

// Sum of `value` over the 32 lanes, returned in every lane (all 32 lanes call it).
__device__ inline float warp_sum(float value) {
  // TODO(step 5): a butterfly reduction. For offset = 16, 8, 4, 2, 1 add the value of lane
  // (lane XOR offset): value += checked_shfl_xor_sync(mask, value, offset). After the five
  // steps every lane holds the total.
  // The mask must name EXACTLY the lanes that take part in the shuffle: here all 32, so
  // 0xFFFFFFFF (the note's lesson: the old __shfl_xor had no mask; a mask that leaves out
  // calling lanes is undefined behaviour that may even give the right sums).
  // checked_shfl_xor_sync (warp_shuffle_check.cuh) is __shfl_xor_sync plus a check of the
  // mask: in the course's build a lane that is not named, or reads from a lane that is not
  // named, stops the kernel with a message and the test fails with a CUDA error.
  return value;
}

// C[e] = S[e] · (row row_indices[e] of A) · (row col_indices[e] of Bᵀ), one warp per
// nonzero e.
//
// Preconditions: blockDim.x is a multiple of 32; S's indices are in range (DevicePattern
// checked them); any inner, any order of the nonzeros.
__global__ void sddmm_warp_per_nonzero_kernel(DenseOperands operands, std::int64_t nnz,
                                              const int* row_indices, const int* col_indices,
                                              const float* values, float* output) {
  // TODO(step 5): one warp per nonzero.
  //  - The warp's nonzero: (blockIdx.x·blockDim.x + threadIdx.x) / warpSize, in 64 bits
  //    (std::int64_t: nnz may pass 2^31 / 32 blocks); the lane: threadIdx.x % warpSize.
  //  - Warps past the last nonzero (nonzero >= nnz) return. All 32 lanes of such a warp
  //    return together, so the lanes that stay are still whole warps: every lane named by
  //    the 0xFFFFFFFF mask of warp_sum reaches the shuffles.
  //  - a_row = operands.a + row·operands.lda and b_row = operands.b_transposed +
  //    col·operands.ldb (64-bit offsets): row of A and row of Bᵀ, inner = operands.inner halves
  //    each (the leading dimensions may be larger than inner).
  //  - Lane l adds a_row[k]·b_row[k] for k = l, l + 32, l + 64, ... < inner into a float
  //    (__half2float, fmaf): consecutive lanes read consecutive halves (coalesced).
  //  - dot = warp_sum(partial); lane 0 alone writes output[nonzero] = values[nonzero]·dot.
}

}  // namespace course::step5
/// @endcond
