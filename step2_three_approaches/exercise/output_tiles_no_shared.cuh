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
  // TODO(step 2, approach 3): one element of C per thread, a square tile of C per block.
  // What to achieve: block (blockIdx.x, blockIdx.y) computes the kTileWidth×kTileWidth tile of
  // C in tile row blockIdx.y and tile column blockIdx.x, thread (threadIdx.y, threadIdx.x) the
  // element at that place in the tile, reading A and B straight from global memory. The grid
  // is rounded up, so the tiles of the last tile row and column may stick out of C: threads
  // outside C have no element and must neither read nor write anything.
  // Checked on the GPU by "step2 approach 3 output tiles without shared memory matches the
  // reference" (scripts/try_exercise.sh step2), which uses rectangular and ragged shapes;
  // run it under compute-sanitizer too (exercise/README.md). Hints: exercise/HINTS.md.
  // END EXERCISE output_tiles_no_shared_kernel
}

}  // namespace course::step2
