/// @file tiled_unchecked.cuh
/// @brief Step 3's shared-memory tiled kernel, copied here unchanged in spirit: it has NO
/// boundary checks. Step 4 keeps it for two reasons: to show the bug on a 3×3 product
/// (`--demo-unchecked`), and as the engine of the padding approach (padded.cuh), which
/// makes every size a multiple of the tile width so that no check is needed.
#pragma once

namespace step4 {

/// @brief P = M·N with TILE×TILE tiles in shared memory and no boundary checks.
///
/// Preconditions: blockDim = (TILE, TILE); gridDim = (ceil(K / TILE), ceil(I / TILE)); and
/// I, J, K are all multiples of TILE. The phase count is rounded up, as a student writes
/// it to "handle" any J; when a size is not a multiple of TILE, the loads of M run past
/// the end of a row (silently reading the next row), the loads of N and the stores of P
/// run past the end of the arrays (out-of-bounds accesses): the note's 3×3 walk-through,
/// and exactly the bug step 4 fixes.
/// @tparam TILE tile width (threads per block edge)
/// @param m_matrix M, I×J row-major
/// @param n_matrix N, J×K row-major
/// @param p_matrix P, I×K row-major (written)
/// @param inner J
/// @param cols K
template <int TILE>
__global__ void tiled_unchecked_kernel(const float* m_matrix, const float* n_matrix,
                                       float* p_matrix, int inner, int cols) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "a TILE x TILE block must fit 1024 threads");
  __shared__ float m_tile[TILE][TILE];
  __shared__ float n_tile[TILE][TILE];

  const int tile_row = threadIdx.y;
  const int tile_col = threadIdx.x;
  const int row = blockIdx.y * TILE + tile_row;
  const int col = blockIdx.x * TILE + tile_col;

  float sum = 0.0f;
  const int phases = (inner + TILE - 1) / TILE;  // exact only when TILE divides J
  for (int phase = 0; phase < phases; ++phase) {
    // No checks: every index below is assumed to be inside its matrix.
    m_tile[tile_row][tile_col] = m_matrix[row * inner + phase * TILE + tile_col];
    n_tile[tile_row][tile_col] = n_matrix[(phase * TILE + tile_row) * cols + col];
    __syncthreads();  // the whole tile must be loaded before anyone reads it
    for (int k = 0; k < TILE; ++k) {
      sum += m_tile[tile_row][k] * n_tile[k][tile_col];
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
  p_matrix[row * cols + col] = sum;
}

}  // namespace step4
