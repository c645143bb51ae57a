/// @file one_thread_per_element.cuh
/// @brief Approach 2 (the note's matMulA2Kernel): as many threads as output elements, spread
/// over a 2-D grid of many blocks.
///
/// Each block is a strip of kStripWidth threads along one row of C: block (bx, by) covers
/// C(by, bx·kStripWidth .. bx·kStripWidth + kStripWidth - 1). The grid has one block row per
/// row of C and enough strips to cover a row, so any size works and every streaming
/// multiprocessor gets work.
#pragma once

namespace course::step2 {

/// @brief Approach 2: one thread per output element, blocks are 1×kStripWidth strips of C.
///
/// Preconditions (the launcher sets them): blockDim = (kStripWidth, 1), gridDim =
/// (ceil(cols / kStripWidth), rows); rows <= 65535 (the grid's y limit).
/// @tparam kStripWidth threads per block, all along one row of C
/// @param a left factor, rows×inner, row-major, device memory
/// @param b right factor, inner×cols, row-major, device memory
/// @param c result, rows×cols, row-major, device memory
/// @param inner columns of A and rows of B
/// @param cols columns of B and C
template <int kStripWidth>
__global__ void one_thread_per_element_kernel(const float* __restrict__ a,
                                              const float* __restrict__ b, float* __restrict__ c,
                                              int inner, int cols) {
  static_assert(kStripWidth >= 32 && kStripWidth <= 1024 && kStripWidth % 32 == 0,
                "a strip is whole warps and at most 1024 threads");
  // BEGIN EXERCISE one_thread_per_element_kernel
  const int row = blockIdx.y;
  const int col = blockIdx.x * kStripWidth + threadIdx.x;
  // The last strip of a row sticks out past the end of the row when cols is not a
  // multiple of kStripWidth: those threads have no element.
  if (col >= cols) {
    return;
  }
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) {
    sum += a[row * inner + k] * b[k * cols + col];
  }
  c[row * cols + col] = sum;
  // END EXERCISE one_thread_per_element_kernel
}

}  // namespace course::step2
