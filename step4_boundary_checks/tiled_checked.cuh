/// @file tiled_checked.cuh
/// @brief The tiled shared-memory kernel made correct for every shape: three boundary
/// checks (loading the M tile, loading the N tile, computing/storing P), with zeros
/// standing in for the tile entries that lie outside the matrices.
#pragma once

namespace step4 {

/// @brief P = M·N for any I, J, K >= 1 with TILE×TILE tiles staged in shared memory.
///
/// Preconditions: blockDim = (TILE, TILE); gridDim = (ceil(K / TILE), ceil(I / TILE));
/// I·J, J·K and I·K fit in int (see problem_shape.hpp). Thread (ty, tx) = (threadIdx.y,
/// threadIdx.x) of block (by, bx) computes P(by·TILE + ty, bx·TILE + tx) and, in phase ph,
/// loads M(by·TILE + ty, ph·TILE + tx) and N(ph·TILE + ty, bx·TILE + tx).
/// @tparam TILE tile width
/// @param m_matrix M, I×J row-major
/// @param n_matrix N, J×K row-major
/// @param p_matrix P, I×K row-major (written)
/// @param rows I
/// @param inner J
/// @param cols K
template <int TILE>
__global__ void tiled_checked_kernel(const float* m_matrix, const float* n_matrix, float* p_matrix,
                                     int rows, int inner, int cols) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "a TILE x TILE block must fit 1024 threads");
  __shared__ float m_tile[TILE][TILE];
  __shared__ float n_tile[TILE][TILE];

  const int tile_row = threadIdx.y;
  const int tile_col = threadIdx.x;
  const int row = blockIdx.y * TILE + tile_row;  // row of P (and of M) this thread owns
  const int col = blockIdx.x * TILE + tile_col;  // column of P (and of N) this thread owns

  float sum = 0.0f;
  const int phases = (inner + TILE - 1) / TILE;  // the last phase may be a partial tile
  for (int phase = 0; phase < phases; ++phase) {
    // Check 1 -- loading the M tile. Guards M elements past the end of a row
    // (m_col >= J: in row-major order they would silently be the next row's first
    // elements) and past the last row (row >= I: out of the array). Every thread loads,
    // even one whose P element does not exist: its neighbours need the value.
    const int m_col = phase * TILE + tile_col;
    m_tile[tile_row][tile_col] =
        (row < rows && m_col < inner) ? m_matrix[row * inner + m_col] : 0.0f;
    // Check 2 -- loading the N tile. Guards N elements past the last row (n_row >= J: out
    // of the array) and past the end of a row (col >= K: the next row's elements).
    const int n_row = phase * TILE + tile_row;
    n_tile[tile_row][tile_col] =
        (n_row < inner && col < cols) ? n_matrix[n_row * cols + col] : 0.0f;
    __syncthreads();  // the whole tile must be loaded before anyone reads it
    // No check here: out-of-range entries are zero, so they add 0 * x = 0 to the sum.
    for (int k = 0; k < TILE; ++k) {
      sum += m_tile[tile_row][k] * n_tile[k][tile_col];
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
  // Check 3 -- computing and storing P. Guards threads whose P element does not exist
  // (row >= I or col >= K); they took part in the loads above but must not store.
  if (row < rows && col < cols) {
    p_matrix[row * cols + col] = sum;
  }
}

}  // namespace step4
