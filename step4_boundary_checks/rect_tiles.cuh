/// @file rect_tiles.cuh
/// @brief Rectangular tiles: the tile height, width and depth are independent, and each
/// thread computes several C elements. The same three boundary checks as tiled_checked.cuh.
#pragma once

namespace course::step4 {

/// @brief Compile-time description of a rectangular tiling and the relations it must obey.
/// @tparam TILE_ROWS rows of C per block (height of the A tile)
/// @tparam TILE_COLS columns of C per block (width of the B tile)
/// @tparam TILE_DEPTH columns of the A tile = rows of the B tile (one phase's share of inner)
/// @tparam BLOCK_ROWS threads along y
/// @tparam BLOCK_COLS threads along x
template <int TILE_ROWS, int TILE_COLS, int TILE_DEPTH, int BLOCK_ROWS, int BLOCK_COLS>
struct RectTiling {
  static constexpr int kTileRows = TILE_ROWS;                    ///< rows of C per block
  static constexpr int kTileCols = TILE_COLS;                    ///< columns of C per block
  static constexpr int kTileDepth = TILE_DEPTH;                  ///< inner covered by one phase
  static constexpr int kBlockRows = BLOCK_ROWS;                  ///< blockDim.y
  static constexpr int kBlockCols = BLOCK_COLS;                  ///< blockDim.x
  static constexpr int kThreads = BLOCK_ROWS * BLOCK_COLS;       ///< threads per block
  static constexpr int kRowsPerThread = TILE_ROWS / BLOCK_ROWS;  ///< C rows per thread
  static constexpr int kColsPerThread = TILE_COLS / BLOCK_COLS;  ///< C columns per thread
  static constexpr int kALoadsPerThread = TILE_ROWS * TILE_DEPTH / kThreads;  ///< A loads
  static constexpr int kBLoadsPerThread = TILE_DEPTH * TILE_COLS / kThreads;  ///< B loads

  static_assert(kThreads >= 32 && kThreads <= 1024, "a block holds 32 to 1024 threads");
  static_assert(TILE_ROWS % BLOCK_ROWS == 0, "each thread must own whole rows of the C tile");
  static_assert(TILE_COLS % BLOCK_COLS == 0, "each thread must own whole columns of the C tile");
  static_assert(TILE_ROWS * TILE_DEPTH % kThreads == 0,
                "the A tile must split evenly over the block's threads");
  static_assert(TILE_DEPTH * TILE_COLS % kThreads == 0,
                "the B tile must split evenly over the block's threads");
  static_assert((TILE_ROWS * TILE_DEPTH + TILE_DEPTH * TILE_COLS) * 4 <= 48 * 1024,
                "both tiles must fit the 48 KiB of static shared memory");
};

/// @brief The tiling step 4 uses: a 64×16 A tile by a 16×64 B tile, 16×16 threads, each
/// computing 4×4 C elements.
using DefaultRectTiling = RectTiling<64, 64, 16, 16, 16>;

/// @brief C = A·B for any rows, inner, cols >= 1 with rectangular tiles.
///
/// Preconditions: blockDim = (Tiling::kBlockCols, Tiling::kBlockRows); gridDim =
/// (ceil(cols / kTileCols), ceil(rows / kTileRows)); rows·inner, inner·cols, rows·cols fit in int.
/// Thread (ty, tx) computes C rows ty + i·kBlockRows and columns tx + j·kBlockCols of its block's
/// tile, so neighbouring threads touch neighbouring columns (coalesced stores, no bank conflicts).
/// @tparam Tiling a RectTiling
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param c C, rows×cols row-major (written)
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
template <typename Tiling>
__global__ void __launch_bounds__(Tiling::kThreads)
    rect_tiles_kernel(const float* a, const float* b, float* c, int rows, int inner, int cols) {
  // BEGIN EXERCISE rect_tiles_kernel
  constexpr int kDepth = Tiling::kTileDepth;
  __shared__ float a_tile[Tiling::kTileRows][kDepth];
  __shared__ float b_tile[kDepth][Tiling::kTileCols];

  const int thread_id = threadIdx.y * Tiling::kBlockCols + threadIdx.x;
  const int block_row0 = blockIdx.y * Tiling::kTileRows;  // first C row of this block
  const int block_col0 = blockIdx.x * Tiling::kTileCols;  // first C column of this block

  float sums[Tiling::kRowsPerThread][Tiling::kColsPerThread] = {};
  const int phases = (inner + kDepth - 1) / kDepth;
  for (int phase = 0; phase < phases; ++phase) {
    const int depth0 = phase * kDepth;
#pragma unroll
    for (int load = 0; load < Tiling::kALoadsPerThread; ++load) {
      const int element = thread_id + load * Tiling::kThreads;
      const int tile_row = element / kDepth;
      const int tile_depth = element % kDepth;
      const int a_row = block_row0 + tile_row;
      const int a_col = depth0 + tile_depth;
      // Check 1 -- loading the A tile: past the last row of A (a_row >= rows, out of the
      // array) or past the end of a row (a_col >= inner, the next row's element). Zero instead.
      a_tile[tile_row][tile_depth] =
          (a_row < rows && a_col < inner) ? a[a_row * inner + a_col] : 0.0f;
    }
#pragma unroll
    for (int load = 0; load < Tiling::kBLoadsPerThread; ++load) {
      const int element = thread_id + load * Tiling::kThreads;
      const int tile_depth = element / Tiling::kTileCols;
      const int tile_col = element % Tiling::kTileCols;
      const int b_row = depth0 + tile_depth;
      const int b_col = block_col0 + tile_col;
      // Check 2 -- loading the B tile: past the last row of B (b_row >= inner, out of the
      // array) or past the end of a row (b_col >= cols, the next row's element). Zero instead.
      b_tile[tile_depth][tile_col] =
          (b_row < inner && b_col < cols) ? b[b_row * cols + b_col] : 0.0f;
    }
    __syncthreads();  // both tiles must be complete before anyone reads them
                      // No check: entries outside A or B are zero and add nothing.
#pragma unroll
    for (int depth = 0; depth < kDepth; ++depth) {
      float b_values[Tiling::kColsPerThread];
#pragma unroll
      for (int j = 0; j < Tiling::kColsPerThread; ++j) {
        b_values[j] = b_tile[depth][threadIdx.x + j * Tiling::kBlockCols];
      }
#pragma unroll
      for (int i = 0; i < Tiling::kRowsPerThread; ++i) {
        const float a_value = a_tile[threadIdx.y + i * Tiling::kBlockRows][depth];
#pragma unroll
        for (int j = 0; j < Tiling::kColsPerThread; ++j) {
          sums[i][j] += a_value * b_values[j];
        }
      }
    }
    __syncthreads();  // everyone must be done reading before the next phase overwrites
  }
#pragma unroll
  for (int i = 0; i < Tiling::kRowsPerThread; ++i) {
    const int c_row = block_row0 + threadIdx.y + i * Tiling::kBlockRows;
#pragma unroll
    for (int j = 0; j < Tiling::kColsPerThread; ++j) {
      const int c_col = block_col0 + threadIdx.x + j * Tiling::kBlockCols;
      // Check 3 -- computing/storing C: this output lies outside C (row >= rows or col >= cols).
      if (c_row < rows && c_col < cols) {
        c[c_row * cols + c_col] = sums[i][j];
      }
    }
  }
  // END EXERCISE rect_tiles_kernel
}

}  // namespace course::step4
