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
  // The loop conditions are the boundary checks: the last stencil position of a row (or a
  // column) sticks out of C when cols (rows) is not a multiple of kBlockSide.
  for (int row = threadIdx.y; row < rows; row += kBlockSide) {
    for (int col = threadIdx.x; col < cols; col += kBlockSide) {
      float sum = 0.0f;
      for (int k = 0; k < inner; ++k) {
        sum += a[row * inner + k] * b[k * cols + col];
      }
      c[row * cols + col] = sum;
    }
  }
  // END EXERCISE single_block_loop_kernel
}

}  // namespace course::step2
