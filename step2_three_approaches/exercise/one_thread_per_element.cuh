/// @cond COURSE_EXERCISE
// Exercise version of step2_three_approaches/one_thread_per_element.cuh, approach 2 (kept
// out of the course book). See single_block_loop.cuh in this folder for how to build and
// test; an element your kernel never writes shows up as "got -nan" (the tests poison C).
//
// All matrices are row-major: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

namespace course::step2 {

// Approach 2: one thread per element of C; each block is a strip of kStripWidth threads
// along one row of C.
//
// Preconditions (the launcher sets them): blockDim = (kStripWidth, 1), gridDim =
// (ceil(cols / kStripWidth), rows); rows <= 65535.
template <int kStripWidth>
__global__ void one_thread_per_element_kernel(const float* __restrict__ a,
                                              const float* __restrict__ b, float* __restrict__ c,
                                              int inner, int cols) {
  static_assert(kStripWidth >= 32 && kStripWidth <= 1024 && kStripWidth % 32 == 0,
                "a strip is whole warps and at most 1024 threads");
  // TODO(step 2, approach 2): compute one element of C per thread.
  //  - Block (blockIdx.x, blockIdx.y) covers row blockIdx.y of C, columns
  //    blockIdx.x·kStripWidth .. blockIdx.x·kStripWidth + kStripWidth - 1; this thread's
  //    column adds threadIdx.x.
  //  - Boundary check: the last strip of a row sticks out past the end of the row when cols
  //    is not a multiple of kStripWidth. Those threads have no element and must return
  //    before reading A or B or writing C (without the check they would overwrite the start
  //    of the next row and, in the last row, write past the end of C; run the tests under
  //    `compute-sanitizer --tool memcheck` to see such accesses).
  //  - Then the dot product of row `row` of A and column `col` of B in a float, stored in
  //    c[row * cols + col].
}

}  // namespace course::step2
/// @endcond
