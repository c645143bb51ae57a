/// @file tiled_unchecked.cuh
/// @brief Step 3's shared-memory tiled kernel, copied here unchanged in spirit: it has NO
/// boundary checks. Step 4 keeps it for two reasons: to show the bug on a 3×3 product
/// (`--demo-unchecked`), and as the engine of the padding approach (padded.cuh), which
/// makes every size a multiple of the tile width so that no check is needed.
#pragma once

namespace course::step4 {

/// @brief C = A·B with TILE×TILE tiles in shared memory and no boundary checks.
///
/// Preconditions: blockDim = (TILE, TILE); gridDim = (ceil(cols / TILE), ceil(rows / TILE)); and
/// rows, inner, cols are all multiples of TILE. The phase count is rounded up, as a student writes
/// it to "handle" any inner; when a size is not a multiple of TILE, the loads of A run past
/// the end of a row (silently reading the next row), the loads of B and the stores of C
/// run past the end of the arrays (out-of-bounds accesses): the note's 3×3 walk-through,
/// and exactly the bug step 4 fixes.
/// @tparam TILE tile width (threads per block edge)
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param c C, rows×cols row-major (written)
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
template <int TILE>
__global__ void tiled_unchecked_kernel(const float* a, const float* b, float* c, int inner,
                                       int cols) {
  static_assert(TILE >= 1 && TILE * TILE <= 1024, "a TILE x TILE block must fit 1024 threads");
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];

  const int tile_row = threadIdx.y;
  const int tile_col = threadIdx.x;
  const int row = blockIdx.y * TILE + tile_row;
  const int col = blockIdx.x * TILE + tile_col;

  float sum = 0.0f;
  const int phases = (inner + TILE - 1) / TILE;  // exact only when TILE divides inner
  for (int phase = 0; phase < phases; ++phase) {
    // No checks: every index below is assumed to be inside its matrix.
    a_tile[tile_row][tile_col] = a[row * inner + phase * TILE + tile_col];
    b_tile[tile_row][tile_col] = b[(phase * TILE + tile_row) * cols + col];
    __syncthreads();  // the whole tile must be loaded before anyone reads it
    for (int k = 0; k < TILE; ++k) {
      sum += a_tile[tile_row][k] * b_tile[k][tile_col];
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
  c[row * cols + col] = sum;
}

}  // namespace course::step4
