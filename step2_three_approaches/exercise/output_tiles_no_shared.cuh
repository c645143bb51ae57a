/// @cond COURSE_EXERCISE
// Exercise version of step2_three_approaches/output_tiles_no_shared.cuh, approach 3 (kept
// out of the course book). See single_block_loop.cuh in this folder for how to build and
// test; an element your kernel never writes shows up as "got -nan" (the tests poison C).
//
// All matrices are row-major: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step2 {

// Approach 3: each block computes one kTileWidth×kTileWidth tile of C, one thread per
// element, reading A and B straight from global memory (no shared memory).
//
// Preconditions (the launcher sets them): blockDim = (kTileWidth, kTileWidth), gridDim =
// (ceil(cols / kTileWidth), ceil(rows / kTileWidth)). Any size.
template <int kTileWidth>
__global__ void output_tiles_no_shared_kernel(const float* __restrict__ a,
                                              const float* __restrict__ b, float* __restrict__ c,
                                              int rows, int inner, int cols) {
  static_assert(kTileWidth >= 1 && kTileWidth * kTileWidth <= 1024,
                "a tile has one thread per element, at most 1024 threads per block");
  // TODO(step 2, approach 3): compute one element of C per thread, tile by tile.
  //  - Block (blockIdx.x, blockIdx.y) computes the tile whose top-left element is
  //    (blockIdx.y·kTileWidth, blockIdx.x·kTileWidth): blockIdx.y counts tiles DOWN (rows),
  //    blockIdx.x counts tiles ACROSS (columns). Thread (threadIdx.y, threadIdx.x) computes
  //    element (threadIdx.y, threadIdx.x) of that tile.
  //  - Boundary checks: tiles of the last block row (column) stick out below (right of) C
  //    when rows (cols) is not a multiple of kTileWidth. Such a thread has no element and
  //    must return before touching memory; check the row AND the column.
  //  - Then the dot product of row `row` of A and column `col` of B in a float, stored in
  //    c[row * cols + col].
  // "got -nan" in whole tiles usually means a wrong tile index (e.g. blockIdx.x and
  // blockIdx.y swapped: the tests use rectangular shapes, where that leaves tiles unwritten).
}

}  // namespace course::step2
/// @endcond
