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
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];

  const int tile_row = threadIdx.y;
  const int tile_col = threadIdx.x;
  const int row = blockIdx.y * TILE + tile_row;  // row of C (and of A) this thread owns
  const int col = blockIdx.x * TILE + tile_col;  // column of C (and of B) this thread owns

  float sum = 0.0f;
  const int phases = (inner + TILE - 1) / TILE;  // the last phase may be a partial tile
  for (int phase = 0; phase < phases; ++phase) {
    // Check 1 -- loading the A tile. Guards A elements past the end of a row
    // (a_col >= inner: in row-major order they would silently be the next row's first
    // elements) and past the last row (row >= rows: out of the array). Every thread loads,
    // even one whose C element does not exist: its neighbours need the value.
    const int a_col = phase * TILE + tile_col;
    a_tile[tile_row][tile_col] = (row < rows && a_col < inner) ? a[row * inner + a_col] : 0.0f;
    // Check 2 -- loading the B tile. Guards B elements past the last row (b_row >= inner: out
    // of the array) and past the end of a row (col >= cols: the next row's elements).
    const int b_row = phase * TILE + tile_row;
    b_tile[tile_row][tile_col] = (b_row < inner && col < cols) ? b[b_row * cols + col] : 0.0f;
    __syncthreads();  // the whole tile must be loaded before anyone reads it
    // No check here: out-of-range entries are zero, so they add 0 * x = 0 to the sum.
    for (int k = 0; k < TILE; ++k) {
      sum += a_tile[tile_row][k] * b_tile[k][tile_col];
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
  // Check 3 -- computing and storing C. Guards threads whose C element does not exist
  // (row >= rows or col >= cols); they took part in the loads above but must not store.
  if (row < rows && col < cols) {
    c[row * cols + col] = sum;
  }
  // END EXERCISE tiled_checked_kernel
}

}  // namespace course::step4
