/// @file rect_tiles.cuh
/// @brief Rectangular tiles: the tile height, width and depth are independent, and each
/// thread computes several P elements. The same three boundary checks as tiled_checked.cuh.
#pragma once

namespace step4 {

/// @brief Compile-time description of a rectangular tiling and the relations it must obey.
/// @tparam TILE_ROWS rows of P per block (height of the M tile)
/// @tparam TILE_COLS columns of P per block (width of the N tile)
/// @tparam TILE_DEPTH columns of the M tile = rows of the N tile (one phase's share of J)
/// @tparam BLOCK_ROWS threads along y
/// @tparam BLOCK_COLS threads along x
template <int TILE_ROWS, int TILE_COLS, int TILE_DEPTH, int BLOCK_ROWS, int BLOCK_COLS>
struct RectTiling {
  static constexpr int kTileRows = TILE_ROWS;                    ///< rows of P per block
  static constexpr int kTileCols = TILE_COLS;                    ///< columns of P per block
  static constexpr int kTileDepth = TILE_DEPTH;                  ///< J covered by one phase
  static constexpr int kBlockRows = BLOCK_ROWS;                  ///< blockDim.y
  static constexpr int kBlockCols = BLOCK_COLS;                  ///< blockDim.x
  static constexpr int kThreads = BLOCK_ROWS * BLOCK_COLS;       ///< threads per block
  static constexpr int kRowsPerThread = TILE_ROWS / BLOCK_ROWS;  ///< P rows per thread
  static constexpr int kColsPerThread = TILE_COLS / BLOCK_COLS;  ///< P columns per thread
  static constexpr int kMLoadsPerThread = TILE_ROWS * TILE_DEPTH / kThreads;  ///< M loads
  static constexpr int kNLoadsPerThread = TILE_DEPTH * TILE_COLS / kThreads;  ///< N loads

  static_assert(kThreads >= 32 && kThreads <= 1024, "a block holds 32 to 1024 threads");
  static_assert(TILE_ROWS % BLOCK_ROWS == 0, "each thread must own whole rows of the P tile");
  static_assert(TILE_COLS % BLOCK_COLS == 0, "each thread must own whole columns of the P tile");
  static_assert(TILE_ROWS * TILE_DEPTH % kThreads == 0,
                "the M tile must split evenly over the block's threads");
  static_assert(TILE_DEPTH * TILE_COLS % kThreads == 0,
                "the N tile must split evenly over the block's threads");
  static_assert((TILE_ROWS * TILE_DEPTH + TILE_DEPTH * TILE_COLS) * 4 <= 48 * 1024,
                "both tiles must fit the 48 KiB of static shared memory");
};

/// @brief The tiling step 4 uses: a 64×16 M tile by a 16×64 N tile, 16×16 threads, each
/// computing 4×4 P elements.
using DefaultRectTiling = RectTiling<64, 64, 16, 16, 16>;

/// @brief P = M·N for any I, J, K >= 1 with rectangular tiles.
///
/// Preconditions: blockDim = (Tiling::kBlockCols, Tiling::kBlockRows); gridDim =
/// (ceil(K / kTileCols), ceil(I / kTileRows)); I·J, J·K, I·K fit in int. Thread (ty, tx)
/// computes P rows ty + i·kBlockRows and columns tx + j·kBlockCols of its block's tile, so
/// neighbouring threads touch neighbouring columns (coalesced stores, no bank conflicts).
/// @tparam Tiling a RectTiling
/// @param m_matrix M, I×J row-major
/// @param n_matrix N, J×K row-major
/// @param p_matrix P, I×K row-major (written)
/// @param rows I
/// @param inner J
/// @param cols K
template <typename Tiling>
__global__ void __launch_bounds__(Tiling::kThreads)
    rect_tiles_kernel(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                      int inner, int cols) {
  constexpr int kDepth = Tiling::kTileDepth;
  __shared__ float m_tile[Tiling::kTileRows][kDepth];
  __shared__ float n_tile[kDepth][Tiling::kTileCols];

  const int thread_id = threadIdx.y * Tiling::kBlockCols + threadIdx.x;
  const int block_row0 = blockIdx.y * Tiling::kTileRows;  // first P row of this block
  const int block_col0 = blockIdx.x * Tiling::kTileCols;  // first P column of this block

  float sums[Tiling::kRowsPerThread][Tiling::kColsPerThread] = {};
  const int phases = (inner + kDepth - 1) / kDepth;
  for (int phase = 0; phase < phases; ++phase) {
    const int depth0 = phase * kDepth;
#pragma unroll
    for (int load = 0; load < Tiling::kMLoadsPerThread; ++load) {
      const int element = thread_id + load * Tiling::kThreads;
      const int tile_row = element / kDepth;
      const int tile_depth = element % kDepth;
      const int m_row = block_row0 + tile_row;
      const int m_col = depth0 + tile_depth;
      // Check 1 -- loading the M tile: past the last row of M (m_row >= I, out of the
      // array) or past the end of a row (m_col >= J, the next row's element). Zero instead.
      m_tile[tile_row][tile_depth] =
          (m_row < rows && m_col < inner) ? m_matrix[m_row * inner + m_col] : 0.0f;
    }
#pragma unroll
    for (int load = 0; load < Tiling::kNLoadsPerThread; ++load) {
      const int element = thread_id + load * Tiling::kThreads;
      const int tile_depth = element / Tiling::kTileCols;
      const int tile_col = element % Tiling::kTileCols;
      const int n_row = depth0 + tile_depth;
      const int n_col = block_col0 + tile_col;
      // Check 2 -- loading the N tile: past the last row of N (n_row >= J, out of the
      // array) or past the end of a row (n_col >= K, the next row's element). Zero instead.
      n_tile[tile_depth][tile_col] =
          (n_row < inner && n_col < cols) ? n_matrix[n_row * cols + n_col] : 0.0f;
    }
    __syncthreads();  // both tiles must be complete before anyone reads them
                      // No check: entries outside M or N are zero and add nothing.
#pragma unroll
    for (int depth = 0; depth < kDepth; ++depth) {
      float n_values[Tiling::kColsPerThread];
#pragma unroll
      for (int j = 0; j < Tiling::kColsPerThread; ++j) {
        n_values[j] = n_tile[depth][threadIdx.x + j * Tiling::kBlockCols];
      }
#pragma unroll
      for (int i = 0; i < Tiling::kRowsPerThread; ++i) {
        const float m_value = m_tile[threadIdx.y + i * Tiling::kBlockRows][depth];
#pragma unroll
        for (int j = 0; j < Tiling::kColsPerThread; ++j) {
          sums[i][j] += m_value * n_values[j];
        }
      }
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
#pragma unroll
  for (int i = 0; i < Tiling::kRowsPerThread; ++i) {
    const int p_row = block_row0 + threadIdx.y + i * Tiling::kBlockRows;
#pragma unroll
    for (int j = 0; j < Tiling::kColsPerThread; ++j) {
      const int p_col = block_col0 + threadIdx.x + j * Tiling::kBlockCols;
      // Check 3 -- computing/storing P: this output lies outside P (row >= I or col >= K).
      if (p_row < rows && p_col < cols) {
        p_matrix[p_row * cols + p_col] = sums[i][j];
      }
    }
  }
}

}  // namespace step4
