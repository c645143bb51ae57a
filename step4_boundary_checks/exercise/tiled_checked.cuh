/// @cond COURSE_EXERCISE
// Exercise version of step4_boundary_checks/tiled_checked.cuh, approach 1 (kept out of the
// course book).
//
// Build it with -DCOURSE_KERNELS=exercise, or copy this folder to
// <your folder>/step4_boundary_checks/ and build with -DCOURSE_KERNELS=<your folder>. Then
//   ctest --test-dir <build> -L step4 --output-on-failure
// The tests compare your C with a CPU product in double precision on every shape up to
// 40×40×40, one below, at and one above each tile edge, thin shapes (one row, one column,
// inner = 1) and large ragged shapes. Before each launch they fill C with the bit pattern 0xFF
// (a NaN), so an element your kernel never writes shows up as "got -nan" in the list of
// first mismatches; "got -nan" everywhere means the kernel wrote nothing. The launcher
// (step4_launchers.cu) is given: blockDim = (TILE, TILE), gridDim = (ceil(cols / TILE),
// ceil(rows / TILE)), so the last blocks of a row or a column of blocks stick out of C.
//
// A dropped load check may still give the right C (the out-of-range A value meets a zero
// of the B tile, or the other way round) while reading past the arrays. Run the tests
// under the sanitizer too, which reports every such read:
//   compute-sanitizer --tool memcheck <build>/step4_boundary_checks/test_step4
//       "the lesson's kernels are right one below and at and one above each tile edge"
// (one command line).
//
// All matrices are row-major: A is rows×inner, B is inner×cols, C is
// rows×cols.
#pragma once

namespace course::step4 {

// C = A·B for any rows, inner, cols >= 1 with TILE×TILE tiles staged in shared memory: step 3's
// tiled kernel (step3_shared_tiling/tiled_shared.cuh) made correct for every shape.
//
// Preconditions (the launcher ensures them): blockDim = (TILE, TILE); gridDim =
// (ceil(cols / TILE), ceil(rows / TILE)); rows·inner, inner·cols and rows·cols fit in int.
template <int TILE>
__global__ void tiled_checked_kernel(const float* a, const float* b, float* c, int rows, int inner,
                                     int cols) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "a TILE x TILE block must fit 1024 threads");
  // TODO(step 4): step 3's tiled product with three boundary checks.
  //  - Two __shared__ float [TILE][TILE] arrays: a_tile and b_tile.
  //  - Thread (threadIdx.y, threadIdx.x) of block (blockIdx.y, blockIdx.x) owns C element
  //    (row, col) = (blockIdx.y·TILE + threadIdx.y, blockIdx.x·TILE + threadIdx.x). It may
  //    lie outside C (row >= rows or col >= cols): such a thread must still load its share
  //    of every tile (its neighbours need those values) and must not return early (it also
  //    has to reach every __syncthreads()).
  //  - Phases: ceil(inner / TILE) of them; the last one may be a partial tile. In phase
  //    `phase` the thread loads
  //      a_tile[ty][tx] = A(row, phase·TILE + tx)   -- check 1: only if row < rows AND
  //        that column < inner. Without the column test a thread reads past the end of a
  //        row of A, i.e. silently the NEXT row's first elements: wrong results. Without
  //        the row test it reads past the end of A.
  //      b_tile[ty][tx] = B(phase·TILE + ty, col)   -- check 2: only if that row < inner
  //        AND col < cols (past the last row: past the end of B; past the end of a row:
  //        the next row's elements).
  //    and stores 0.0f instead where a check fails. Zeros make the inner product need no
  //    check: an out-of-range entry adds 0·x = 0 to the sum.
  //  - __syncthreads() after the loads (others' elements are read next) and after the
  //    inner product (the next phase overwrites tiles that slower threads may still read).
  //  - Check 3: store the float sum in c[row * cols + col] only if row < rows AND
  //    col < cols.
}

}  // namespace course::step4
/// @endcond
