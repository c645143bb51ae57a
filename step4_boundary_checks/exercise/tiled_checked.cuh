/// @file tiled_checked.cuh
/// @brief The tiled shared-memory kernel made correct for every shape: three boundary
/// checks (loading the A tile, loading the B tile, computing/storing C), with zeros
/// standing in for the tile entries that lie outside the matrices.
#pragma once

namespace course::step4 {

/// @brief C = A·B for any rows, inner, cols >= 1 with TILE×TILE tiles staged in shared memory.
///
/// Preconditions: blockDim = (TILE, TILE); gridDim = (ceil(cols / TILE), ceil(rows / TILE));
/// rows·inner, inner·cols and rows·cols fit in int (see problem_shape.hpp). Thread (ty, tx) =
/// (threadIdx.y, threadIdx.x) of block (by, bx) computes C(by·TILE + ty, bx·TILE + tx) and, in
/// phase ph, loads A(by·TILE + ty, ph·TILE + tx) and B(ph·TILE + ty, bx·TILE + tx).
/// @tparam TILE tile width
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param c C, rows×cols row-major (written)
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
template <int TILE>
__global__ void tiled_checked_kernel(const float* a, const float* b, float* c, int rows, int inner,
                                     int cols) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "a TILE x TILE block must fit 1024 threads");
  // BEGIN EXERCISE tiled_checked_kernel
  // TODO(step 4): step 3's tiled product (step3_shared_tiling/tiled_shared.cuh), made right
  // for every shape.
  // What to achieve: C = A·B for any rows, inner, cols >= 1, with TILE×TILE tiles of A and B
  // staged in shared memory and thread (ty, tx) of block (by, bx) computing C(by·TILE + ty,
  // bx·TILE + tx), as the preconditions above say. The grid is rounded up, so blocks of the
  // last tile row and column stick out of C; when inner is not a multiple of TILE, the last
  // phase's tiles stick out of A and B. Your kernel must
  //  - write every element of C exactly once, and nothing outside C;
  //  - read nothing outside A and B, not even a value that ends up multiplied by zero
  //    (memcheck reports such a read even when C comes out right);
  //  - keep every __syncthreads() reached by every thread of the block.
  // Find every place where an index may leave its matrix, and decide what the thread does
  // there: a check that makes a thread skip work it must do is as wrong as a missing one.
  // Checked on the GPU by "the lesson's kernels match the CPU reference on every shape up to
  // 40", "the checked kernel with the note's tile width 2 matches on every shape up to 20",
  // "the lesson's kernels are right one below and at and one above each tile edge", "the
  // lesson's kernels handle inner = 1 and single rows and single columns" and "the lesson's
  // kernels are right on large ragged shapes" (a failure names the kernel: "tiled checked
  // 32", ...):
  //   scripts/try_exercise.sh step4
  // then the memcheck command of step4_boundary_checks/exercise/README.md. Hints: HINTS.md.
  // END EXERCISE tiled_checked_kernel
}

}  // namespace course::step4
