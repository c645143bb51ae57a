/// @file tiled_shared.cuh
/// @brief Approach 4 (the note's matMulA4Kernel): the classic tiled product, with tiles of A
/// and B staged in shared memory.
///
/// Block (bx, by) computes the kTileWidth×kTileWidth tile of C whose top-left element is
/// (by·kTileWidth, bx·kTileWidth); thread (ty, tx) computes element (ty, tx) of that tile.
/// The inner dimension is walked in phases of kTileWidth: in each phase every thread loads
/// one element of the A tile and one of the B tile into shared memory, the block waits, and
/// then every thread reads a whole row of the A tile and a whole column of the B tile from
/// shared memory. Each element loaded from global memory is so used kTileWidth times.
#pragma once

namespace course::step3 {

/// @brief Approach 4: shared-memory tiling.
///
/// Preconditions (the launcher checks them; step 4 removes them): rows, inner and cols are
/// multiples of kTileWidth, so every tile lies wholly inside its matrix and the kernel needs
/// no boundary check; blockDim = (kTileWidth, kTileWidth), gridDim = (cols / kTileWidth,
/// rows / kTileWidth).
/// @tparam kTileWidth side of the tiles of A, B and C (and of the block)
/// @param a left factor, rows×inner, row-major, device memory
/// @param b right factor, inner×cols, row-major, device memory
/// @param c result, rows×cols, row-major, device memory
/// @param inner columns of A and rows of B (a multiple of kTileWidth)
/// @param cols columns of B and C (a multiple of kTileWidth)
template <int kTileWidth>
__global__ void tiled_shared_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int inner, int cols) {
  static_assert(kTileWidth >= 1 && kTileWidth * kTileWidth <= 1024,
                "a tile has one thread per element, at most 1024 threads per block");
  // BEGIN EXERCISE tiled_shared_kernel
  __shared__ float tile_a[kTileWidth][kTileWidth];
  __shared__ float tile_b[kTileWidth][kTileWidth];

  const int tile_row = threadIdx.y;  // position of this thread's element inside the tile
  const int tile_col = threadIdx.x;
  const int row = blockIdx.y * kTileWidth + tile_row;
  const int col = blockIdx.x * kTileWidth + tile_col;

  float sum = 0.0f;
  for (int phase_start = 0; phase_start < inner; phase_start += kTileWidth) {
    // Each thread loads the element at its own position in both tiles: a warp (one tile
    // row) reads kTileWidth consecutive floats of a row of A and of a row of B.
    tile_a[tile_row][tile_col] = a[row * inner + phase_start + tile_col];
    tile_b[tile_row][tile_col] = b[(phase_start + tile_row) * cols + col];
    // Wait until the whole tile is loaded: each thread next reads elements loaded by others.
    __syncthreads();
    for (int tile_k = 0; tile_k < kTileWidth; ++tile_k) {
      sum += tile_a[tile_row][tile_k] * tile_b[tile_k][tile_col];
    }
    // Wait until every thread is done with this phase's tiles before the next phase
    // overwrites them.
    __syncthreads();
  }
  c[row * cols + col] = sum;
  // END EXERCISE tiled_shared_kernel
}

}  // namespace course::step3
