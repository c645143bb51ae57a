/// @cond COURSE_EXERCISE
// Exercise version of step3_shared_tiling/tiled_shared.cuh, approach 4 (kept out of the
// course book).
//
// Build it with -DCOURSE_KERNELS=exercise, or copy this folder to
// <your folder>/step3_shared_tiling/ and build with -DCOURSE_KERNELS=<your folder>. Then
//   ctest --test-dir <build> -L step3 --output-on-failure
// The tests compare your result with a CPU product in double precision. Before each launch
// they fill C with the bit pattern 0xFF (a NaN), so an element your kernel never writes
// shows up as "got -nan" in the list of first mismatches; "got -nan" everywhere means the
// kernel wrote nothing. The launcher (step3_launchers.cu) is given; it refuses sizes that
// are not multiples of kTileWidth, so the kernel needs no boundary check. A missing
// __syncthreads() may pass the tests by luck: run them under
//   compute-sanitizer --tool racecheck <build>/step3_shared_tiling/test_step3 "[gpu]"
// which reports every shared-memory race.
//
// All matrices are row-major: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step3 {

// Approach 4: tiled product with kTileWidth×kTileWidth tiles of A and B staged in shared
// memory.
//
// Preconditions (the launcher checks them): rows, inner and cols are multiples of
// kTileWidth; blockDim = (kTileWidth, kTileWidth), gridDim = (cols / kTileWidth,
// rows / kTileWidth).
template <int kTileWidth>
__global__ void tiled_shared_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int inner, int cols) {
  static_assert(kTileWidth >= 1 && kTileWidth * kTileWidth <= 1024,
                "a tile has one thread per element, at most 1024 threads per block");
  // TODO(step 3): the tiled product.
  //  - Declare two __shared__ float arrays [kTileWidth][kTileWidth], one tile of A and one
  //    tile of B.
  //  - Block (blockIdx.x, blockIdx.y) computes the tile of C whose top-left element is
  //    (blockIdx.y·kTileWidth, blockIdx.x·kTileWidth); thread (threadIdx.y, threadIdx.x)
  //    computes element (threadIdx.y, threadIdx.x) of it: row and col in C.
  //  - Walk the inner dimension in phases of kTileWidth (phase_start = 0, kTileWidth, ...
  //    while phase_start < inner). In each phase every thread:
  //      1. loads ONE element of each tile: tile_a[ty][tx] = A(row, phase_start + tx) and
  //         tile_b[ty][tx] = B(phase_start + ty, col);
  //      2. waits for the whole block (__syncthreads()): it next reads elements that other
  //         threads loaded;
  //      3. adds tile_a[ty][k] * tile_b[k][tx] for k = 0 .. kTileWidth-1 to its float sum;
  //      4. waits again (__syncthreads()) before the next phase overwrites the tiles that
  //         slower threads may still be reading.
  //  - Finally store the sum in c[row * cols + col].
}

}  // namespace course::step3
/// @endcond
