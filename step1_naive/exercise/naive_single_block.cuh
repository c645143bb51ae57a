/// @cond COURSE_EXERCISE
// Exercise version of step1_naive/naive_single_block.cuh (kept out of the course book).
//
// Build it with -DCOURSE_KERNELS=exercise, or copy this folder to
// <your folder>/step1_naive/ and build with -DCOURSE_KERNELS=<your folder>. Then
//   ctest --test-dir <build> -L step1 --output-on-failure
// The tests compare your result with a CPU product in double precision. Before each launch
// they fill C with the bit pattern 0xFF (a NaN), so an element your kernel never writes
// shows up as "got -nan" in the list of first mismatches; "got -nan" everywhere means the
// kernel wrote nothing (or was never launched: see the TODO in step1_launchers.cu).
//
// All matrices are row-major: element (row, col) of a matrix with `cols` columns is at
// index row * cols + col. A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step1 {

// Naive product in a single block: each thread computes one element of C.
//
// Preconditions (the launcher checks them): one block of exactly cols×rows threads
// (blockDim.x = cols, blockDim.y = rows), so every thread owns one valid element of C and
// needs no boundary check.
__global__ void naive_single_block_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                          float* __restrict__ c, int inner, int cols) {
  // TODO(step 1): compute one element of C.
  //  1. The block is the whole matrix C: this thread's element is row = threadIdx.y and
  //     col = threadIdx.x (x runs along a row, so a warp reads consecutive elements of B).
  //  2. Accumulate in a float the dot product of row `row` of A with column `col` of B:
  //     the sum over k = 0 .. inner-1 of a[row * inner + k] times b[k * cols + col].
  //  3. Store the sum in c[row * cols + col].
  // If the tests report mismatches only in some rows or columns, check which index you
  // took from threadIdx.x and which from threadIdx.y (square shapes hide a swap; the tests
  // also use rectangular ones).
}

}  // namespace course::step1
/// @endcond
