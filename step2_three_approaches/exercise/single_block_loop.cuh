/// @cond COURSE_EXERCISE
// Exercise version of step2_three_approaches/single_block_loop.cuh, approach 1 (kept out of
// the course book).
//
// Build it with -DCOURSE_KERNELS=exercise, or copy this folder to
// <your folder>/step2_three_approaches/ and build with -DCOURSE_KERNELS=<your folder>. Then
//   ctest --test-dir <build> -L step2 --output-on-failure
// The tests compare your result with a CPU product in double precision. Before each launch
// they fill C with the bit pattern 0xFF (a NaN), so an element your kernel never writes
// shows up as "got -nan" in the list of first mismatches; "got -nan" everywhere means the
// kernel wrote nothing. The launcher (step2_launchers.cu) is given.
//
// All matrices are row-major: element (row, col) of a matrix with `cols` columns is at
// index row * cols + col. A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step2 {

// Approach 1: the whole product in ONE block of kBlockSide×kBlockSide threads, each thread
// looping over several elements of C.
//
// Preconditions (the launcher sets them): gridDim = (1, 1), blockDim = (kBlockSide,
// kBlockSide). Any size: C may be much larger than the block, or smaller.
template <int kBlockSide>
__global__ void single_block_loop_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                         float* __restrict__ c, int rows, int inner, int cols) {
  static_assert(kBlockSide >= 1 && kBlockSide * kBlockSide <= 1024,
                "the block is kBlockSide×kBlockSide threads, at most 1024");
  // TODO(step 2, approach 1): lay the block over C like a stencil and move it across C.
  //  - Thread (threadIdx.y, threadIdx.x) computes every element C(row, col) with
  //    row = threadIdx.y + i·kBlockSide and col = threadIdx.x + j·kBlockSide that lies
  //    inside C: two nested loops, `for (int row = threadIdx.y; row < rows; row +=
  //    kBlockSide)` and the same for col along x.
  //  - The loop conditions are the boundary checks: when rows (cols) is not a multiple of
  //    kBlockSide, the last position of the stencil sticks out of C.
  //  - For each element: a float sum over k = 0 .. inner-1 of a[row * inner + k] *
  //    b[k * cols + col], stored in c[row * cols + col].
  // Mismatches ("got -nan") only in the last rows or columns point to a loop bound.
}

}  // namespace course::step2
/// @endcond
