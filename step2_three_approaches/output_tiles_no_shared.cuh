/// @file output_tiles_no_shared.cuh
/// @brief Approach 3 (the note's matMulA3Kernel): each block computes a kTileWidth×kTileWidth
/// tile of C, reading A and B straight from global memory (no shared memory: the reuse
/// between the threads of a tile is left to the hardware caches).
///
/// Block (bx, by) computes the tile of C whose top-left element is
/// (by·kTileWidth, bx·kTileWidth); thread (ty, tx) computes the element (ty, tx) of that tile.
/// The 1024 outputs of a tile need only kTileWidth rows of A and kTileWidth columns of B, so
/// the data one block touches is small enough to stay in the L1 cache.
#pragma once

namespace course::step2 {

/// @brief Approach 3: square output tiles, one thread per element, no shared memory.
///
/// Preconditions (the launcher sets them): blockDim = (kTileWidth, kTileWidth), gridDim =
/// (ceil(cols / kTileWidth), ceil(rows / kTileWidth)). Any size works.
/// @tparam kTileWidth side of the output tile computed by one block
/// @param a left factor, rows×inner, row-major, device memory
/// @param b right factor, inner×cols, row-major, device memory
/// @param c result, rows×cols, row-major, device memory
/// @param rows rows of A and C
/// @param inner columns of A and rows of B
/// @param cols columns of B and C
template <int kTileWidth>
__global__ void output_tiles_no_shared_kernel(const float* __restrict__ a,
                                              const float* __restrict__ b, float* __restrict__ c,
                                              int rows, int inner, int cols) {
  static_assert(kTileWidth >= 1 && kTileWidth * kTileWidth <= 1024,
                "a tile has one thread per element, at most 1024 threads per block");
  // BEGIN EXERCISE output_tiles_no_shared_kernel
  const int row = blockIdx.y * kTileWidth + threadIdx.y;
  const int col = blockIdx.x * kTileWidth + threadIdx.x;
  // Tiles in the last block row (column) stick out below (right of) C when rows (cols) is
  // not a multiple of kTileWidth: those threads have no element.
  if (row >= rows || col >= cols) {
    return;
  }
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) {
    sum += a[row * inner + k] * b[k * cols + col];
  }
  c[row * cols + col] = sum;
  // END EXERCISE output_tiles_no_shared_kernel
}

}  // namespace course::step2
