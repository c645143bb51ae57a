/// @file single_block_loop.cuh
/// @brief Approach 1 (the note's matMulA1Kernel): one block of 1024 threads computes the
/// whole product, each thread looping over several output elements.
///
/// The block is a kBlockSide×kBlockSide square of threads laid over C like a stencil and
/// moved across it: thread (ty, tx) computes C(ty + i·kBlockSide, tx + j·kBlockSide) for
/// every i, j that stays inside C. Any size works, but only one of the GPU's streaming
/// multiprocessors does any work.
#pragma once

namespace course::step2 {

/// @brief Approach 1: the whole product in a single block, each thread looping over outputs.
///
/// Preconditions (the launcher sets them): gridDim = (1, 1) and blockDim =
/// (kBlockSide, kBlockSide). No limit on the sizes beyond int indexing.
/// @tparam kBlockSide side of the square block (32 gives the 1024 threads of the note)
/// @param a left factor, rows×inner, row-major, device memory
/// @param b right factor, inner×cols, row-major, device memory
/// @param c result, rows×cols, row-major, device memory
/// @param rows rows of A and C
/// @param inner columns of A and rows of B
/// @param cols columns of B and C
template <int kBlockSide>
__global__ void single_block_loop_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                         float* __restrict__ c, int rows, int inner, int cols) {
  static_assert(kBlockSide >= 1 && kBlockSide * kBlockSide <= 1024,
                "the block is kBlockSide×kBlockSide threads, at most 1024");
  // BEGIN EXERCISE single_block_loop_kernel
  // TODO(step 2, approach 1): the whole of C with this one block.
  // What to achieve: C = A·B for any rows and cols (C may be smaller than the block, larger,
  // or not a multiple of it), every element of C written by exactly one thread and no thread
  // touching anything outside C. Lay the kBlockSide×kBlockSide block over C like a stencil
  // and move it across C: thread (threadIdx.y, threadIdx.x) computes the element at its own
  // position under every placement of the stencil that reaches into C.
  // Checked on the GPU by "step2 approach 1 single block loop matches the reference":
  //   scripts/try_exercise.sh step2
  // (see step2_three_approaches/exercise/README.md). Stuck? exercise/HINTS.md.
  // END EXERCISE single_block_loop_kernel
}

}  // namespace course::step2
