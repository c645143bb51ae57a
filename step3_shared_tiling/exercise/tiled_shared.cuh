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
  // TODO(step 3): the tiled product, with tiles of A and B staged in shared memory.
  // What to achieve: block (blockIdx.x, blockIdx.y) computes the kTileWidth×kTileWidth tile of
  // C in tile row blockIdx.y and tile column blockIdx.x, thread (threadIdx.y, threadIdx.x) its
  // element at that place in the tile, as in step 2's approach 3. The difference: the block
  // walks the inner dimension one kTileWidth-wide phase at a time, and in each phase every
  // thread loads ONE element of the phase's tile of A and ONE of its tile of B into shared
  // memory; all the products then read the tiles from there. No thread reads an element of A
  // or B from global memory that another thread of the block has loaded. The launcher
  // guarantees that every size is a multiple of kTileWidth (the preconditions above).
  // Decide where the block must wait for all its threads (__syncthreads()), and say why in a
  // comment: which thread reads what another one wrote, or overwrites what another may still
  // be reading. A missing barrier may pass the tests by luck; racecheck finds it.
  // Checked on the GPU by "step3 tiled shared kernel matches the reference on small integers
  // exactly" and "step3 tiled shared kernel matches the reference on uniform floats":
  //   scripts/try_exercise.sh step3
  // then the racecheck command of step3_shared_tiling/exercise/README.md. Hints: HINTS.md.
  // END EXERCISE tiled_shared_kernel
}

}  // namespace course::step3
