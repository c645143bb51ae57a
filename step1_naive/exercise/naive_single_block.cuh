/// @file naive_single_block.cuh
/// @brief Step 1's kernel, naive_single_block_kernel (the course's first kernel; the note
/// names only its step-2 and step-3 kernels): one block, one thread per output element.
///
/// Thread (threadIdx.y, threadIdx.x) of the only block computes C(row, col) with
/// row = threadIdx.y and col = threadIdx.x, as the dot product of row `row` of A with column
/// `col` of B. All matrices are row-major: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step1 {

/// @brief Naive product in a single block: each thread computes one element of C.
///
/// Preconditions (the launcher checks them): the grid is one block of exactly cols×rows
/// threads (blockDim.x = cols, blockDim.y = rows), so rows·cols <= 1024, the most threads a
/// block may hold. Every thread then owns a valid output element and no boundary check is
/// needed.
/// @param a left factor, rows×inner, device memory
/// @param b right factor, inner×cols, device memory
/// @param c result, rows×cols, device memory (every element is written)
/// @param inner columns of A and rows of B
/// @param cols columns of B and C
__global__ void naive_single_block_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                          float* __restrict__ c, int inner, int cols) {
  // BEGIN EXERCISE naive_single_block_kernel
  // TODO(step 1): compute this thread's element of C.
  // What to achieve: thread (threadIdx.y, threadIdx.x) of the only block writes exactly one
  // element, C(threadIdx.y, threadIdx.x): the dot product of that row of A with that column of
  // B, summed in a float. The launcher gives the block one thread per element of C (the
  // preconditions above), so each element is written once and no thread needs a check.
  // Mind the layout: all three matrices are row-major, with different row lengths.
  // Checked on the GPU by "step1 naive kernel matches the reference on small integers exactly"
  // and "step1 naive kernel matches the reference on uniform floats":
  //   scripts/try_exercise.sh step1
  // (or ctest -L step1, see step1_naive/exercise/README.md). Stuck? exercise/HINTS.md.
  // END EXERCISE naive_single_block_kernel
}

}  // namespace course::step1
