/// @file fast_gemm.cuh
/// @brief Going further: a fast SGEMM that is still correct for every shape. 2-D register
/// tiling (8×8 outputs per thread, in four 4×4 quadrants), the M tile stored transposed in
/// shared memory, float4 global loads where alignment allows (a scalar path otherwise),
/// double buffering (the next tile is fetched into registers while this one is used) and
/// split-K (the inner dimension shared among blocks; split_k_reduce.cuh adds the parts).
/// Read tiled_checked.cuh first; the launcher is fast_gemm_launch.cu.
#pragma once

namespace step4 {

/// @brief Compile-time description of the fast kernel's tiling and its relations.
/// @tparam BLOCK_ROWS rows of P per block (BM)
/// @tparam BLOCK_COLS columns of P per block (BN)
/// @tparam DEPTH J covered per tile (BK)
template <int BLOCK_ROWS, int BLOCK_COLS, int DEPTH>
struct FastTiling {
  static constexpr int kBlockRows = BLOCK_ROWS;  ///< BM: rows of P per block
  static constexpr int kBlockCols = BLOCK_COLS;  ///< BN: columns of P per block
  static constexpr int kDepth = DEPTH;           ///< BK: depth of one tile
  static constexpr int kThreadTile = 8;          ///< each thread computes 8×8 outputs
  static constexpr int kQuadrant = 4;            ///< ... as four 4×4 quadrants
  static constexpr int kThreadRows = BLOCK_ROWS / kThreadTile;  ///< threads along rows
  static constexpr int kThreadCols = BLOCK_COLS / kThreadTile;  ///< threads along columns
  static constexpr int kThreads = kThreadRows * kThreadCols;    ///< threads per block
  static constexpr int kWarpLaneCols = 8;  ///< a warp is 4 thread rows × 8 thread columns
  static constexpr int kWarpCols = kThreadCols / kWarpLaneCols;  ///< warps along columns
  /// Row length of the transposed M tile in shared memory; the +4 shifts consecutive
  /// depths by 4 banks so the transposing stores do not collide, and keeps float4 alignment.
  static constexpr int kMTileStride = BLOCK_ROWS + 4;
  static constexpr int kMPerThread = BLOCK_ROWS * DEPTH / kThreads;  ///< M elements loaded
  static constexpr int kNPerThread = DEPTH * BLOCK_COLS / kThreads;  ///< N elements loaded

  static_assert(BLOCK_ROWS % (2 * kQuadrant) == 0 && BLOCK_COLS % (2 * kQuadrant) == 0,
                "the block tile must split into 8x8 thread tiles");
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  static_assert(kThreadCols % kWarpLaneCols == 0, "a warp spans 8 thread columns");
  static_assert((kThreads / 32) * 4 == kThreadRows * kWarpCols,
                "warps must tile the thread grid in 4x8 pieces");
  static_assert(DEPTH % 4 == 0 && BLOCK_COLS % 4 == 0, "float4 loads need multiples of 4");
  static_assert(kMPerThread % 4 == 0 && kNPerThread % 4 == 0,
                "each thread loads whole float4s of both tiles");
  static_assert(kMPerThread * kThreads == BLOCK_ROWS * DEPTH, "M tile splits evenly");
  static_assert(kNPerThread * kThreads == DEPTH * BLOCK_COLS, "N tile splits evenly");
  static_assert(2 * DEPTH * (kMTileStride + BLOCK_COLS) * 4 <= 48 * 1024,
                "two buffers of both tiles must fit 48 KiB of static shared memory");
};

/// @brief Registers holding one tile of M and of N between the global load and the
/// shared-memory store (the double-buffering stage).
/// @tparam Tiling a FastTiling
template <typename Tiling>
struct FastStage {
  float m_values[Tiling::kMPerThread];  ///< this thread's share of the M tile
  float n_values[Tiling::kNPerThread];  ///< this thread's share of the N tile
};

/// @brief Loads this thread's share of a TILE_ROWS×TILE_COLS tile of a row-major matrix into
/// registers; entries outside the matrix become zero. The same function loads the M tile
/// (TILE_ROWS = BM rows of M, TILE_COLS = BK columns) and the N tile (BK rows of N, BN
/// columns): the M-tile check and the N-tile check of the lesson are this one test, "is the
/// element inside its matrix?", asked of two different matrices.
///
/// Each thread loads groups of 4 consecutive columns of one row: one float4 when allowed,
/// otherwise 4 scalar loads. Both paths share this mapping, so both are stored alike and
/// the scalar path needs one row check per group (fewer registers than one per element).
/// @tparam TILE_ROWS rows of the tile
/// @tparam TILE_COLS columns of the tile (a multiple of 4)
/// @tparam THREADS threads of the block sharing the load
/// @tparam VECTOR true when the matrix has a multiple of 4 columns and is 16-byte aligned
/// @param matrix the row-major matrix
/// @param matrix_rows its rows (I for M, J for N)
/// @param matrix_cols its columns (J for M, K for N)
/// @param tile_row0 first row of the tile
/// @param tile_col0 first column of the tile
/// @param values receives TILE_ROWS·TILE_COLS / THREADS values
template <int TILE_ROWS, int TILE_COLS, int THREADS, bool VECTOR>
__device__ __forceinline__ void load_tile(const float* __restrict__ matrix, int matrix_rows,
                                          int matrix_cols, int tile_row0, int tile_col0,
                                          float* values) {
  static_assert(TILE_COLS % 4 == 0, "groups of 4 columns");
  static_assert((TILE_ROWS * TILE_COLS) % (4 * THREADS) == 0, "whole groups per thread");
  constexpr int kGroupsPerRow = TILE_COLS / 4;
#pragma unroll
  for (int group = 0; group < TILE_ROWS * TILE_COLS / (4 * THREADS); ++group) {
    const int index = threadIdx.x + group * THREADS;
    const int row = tile_row0 + index / kGroupsPerRow;
    const int col = tile_col0 + (index % kGroupsPerRow) * 4;
    float4 loaded = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (VECTOR) {
      // Tile check: a row past the last one, or columns past the row's end. The row length
      // and col are multiples of 4, so the four columns are all inside or all outside.
      if (row < matrix_rows && col < matrix_cols) {
        loaded = *reinterpret_cast<const float4*>(matrix + row * matrix_cols + col);
      }
    } else if (row < matrix_rows) {  // tile check, rows: past the last row of the matrix
      const float* row_start = matrix + row * matrix_cols;
      // Tile check, columns, one by one: past the end of the row (the next row's data).
      loaded.x = col + 0 < matrix_cols ? row_start[col + 0] : 0.0f;
      loaded.y = col + 1 < matrix_cols ? row_start[col + 1] : 0.0f;
      loaded.z = col + 2 < matrix_cols ? row_start[col + 2] : 0.0f;
      loaded.w = col + 3 < matrix_cols ? row_start[col + 3] : 0.0f;
    }
    values[group * 4 + 0] = loaded.x;
    values[group * 4 + 1] = loaded.y;
    values[group * 4 + 2] = loaded.z;
    values[group * 4 + 3] = loaded.w;
  }
}

/// @brief Loads the M tile (BM rows from @p block_row0, BK columns from @p depth0) and the N
/// tile (BK rows from @p depth0, BN columns from @p block_col0) into @p stage.
/// @tparam Tiling a FastTiling
/// @tparam VECTOR_M float4 loads of M
/// @tparam VECTOR_NP float4 loads of N
/// @param m_matrix M, I×J
/// @param n_matrix N, J×K
/// @param rows I
/// @param inner J
/// @param cols K
/// @param block_row0 first row of the block's tile of P
/// @param block_col0 first column of the block's tile of P
/// @param depth0 first column of M and row of N in this tile
/// @param stage receives both tiles
template <typename Tiling, bool VECTOR_M, bool VECTOR_NP>
__device__ __forceinline__ void load_stage(const float* __restrict__ m_matrix,
                                           const float* __restrict__ n_matrix, int rows, int inner,
                                           int cols, int block_row0, int block_col0, int depth0,
                                           FastStage<Tiling>& stage) {
  load_tile<Tiling::kBlockRows, Tiling::kDepth, Tiling::kThreads, VECTOR_M>(
      m_matrix, rows, inner, block_row0, depth0, stage.m_values);
  load_tile<Tiling::kDepth, Tiling::kBlockCols, Tiling::kThreads, VECTOR_NP>(
      n_matrix, inner, cols, depth0, block_col0, stage.n_values);
}

/// @brief Stores the staged registers into one shared-memory buffer: the M tile transposed
/// (m_tile[depth][row]) so the compute loop reads 4 consecutive rows as one float4.
/// @tparam Tiling a FastTiling
/// @param stage the registers
/// @param m_tile the M buffer, [kDepth][kMTileStride]
/// @param n_tile the N buffer, [kDepth][kBlockCols]
template <typename Tiling>
__device__ __forceinline__ void fast_store_stage(const FastStage<Tiling>& stage,
                                                 float (*m_tile)[Tiling::kMTileStride],
                                                 float (*n_tile)[Tiling::kBlockCols]) {
  constexpr int kMGroupsPerRow = Tiling::kDepth / 4;
#pragma unroll
  for (int group = 0; group < Tiling::kMPerThread / 4; ++group) {
    const int index = threadIdx.x + group * Tiling::kThreads;
    const int tile_row = index / kMGroupsPerRow;
    const int tile_depth = (index % kMGroupsPerRow) * 4;
#pragma unroll
    for (int part = 0; part < 4; ++part) {
      m_tile[tile_depth + part][tile_row] = stage.m_values[group * 4 + part];
    }
  }
  constexpr int kNGroupsPerRow = Tiling::kBlockCols / 4;
#pragma unroll
  for (int group = 0; group < Tiling::kNPerThread / 4; ++group) {
    const int index = threadIdx.x + group * Tiling::kThreads;
    *reinterpret_cast<float4*>(&n_tile[index / kNGroupsPerRow][(index % kNGroupsPerRow) * 4]) =
        make_float4(stage.n_values[group * 4 + 0], stage.n_values[group * 4 + 1],
                    stage.n_values[group * 4 + 2], stage.n_values[group * 4 + 3]);
  }
}

/// @brief The output tile a block computes, with the blocks taken in groups of @p group_rows
/// tile-rows: consecutive blocks walk down a group's rows before moving right, so the blocks
/// that run at the same time share M's row panels and N's column panels in L2 (rasterization).
/// group_rows = 1 is the plain row-by-row order.
/// @param group_rows tile-rows per group (>= 1)
/// @param tile_row receives the block's tile row
/// @param tile_col receives the block's tile column
__device__ __forceinline__ void grouped_tile(int group_rows, int& tile_row, int& tile_col) {
  const int linear = blockIdx.y * gridDim.x + blockIdx.x;
  const int per_group = group_rows * gridDim.x;
  const int first_row = linear / per_group * group_rows;
  const int rows_here = min(group_rows, static_cast<int>(gridDim.y) - first_row);
  const int in_group = linear % per_group;
  tile_row = first_row + in_group % rows_here;
  tile_col = in_group / rows_here;
}

/// @brief P = M·N for any I, J, K >= 1, fast; with split-K, one slice of the inner dimension.
///
/// Split-K: block z of the grid (blockIdx.z) covers the inner tiles [z·tiles_per_split,
/// min((z+1)·tiles_per_split, ceil(J / BK))) and writes its partial product to slice z of
/// @p out, the I×K matrix at out + z·I·K. With a single split (gridDim.z = 1) @p out is P
/// itself; with several, the launcher adds the slices with split_k_reduce_kernel. A split
/// boundary is always a tile boundary, so the only ragged depth is J's own end, which the
/// tile checks of load_tile already zero-fill: split-K needs no fourth boundary check.
///
/// Preconditions: blockDim = (Tiling::kThreads); gridDim = (ceil(K / kBlockCols),
/// ceil(I / kBlockRows), splits) with every split owning at least one tile (splits =
/// ceil(ceil(J / BK) / tiles_per_split)); I·J, J·K, I·K fit in int; @p out holds gridDim.z
/// slices of I×K floats; VECTOR_M only when J % 4 == 0 and M is 16-byte aligned; VECTOR_NP
/// only when K % 4 == 0 and N and out are 16-byte aligned.
/// Thread (thread_row, thread_col) owns P rows {4·thread_row + 0..3, BM/2 + 4·thread_row +
/// 0..3} and columns {4·thread_col + 0..3, BN/2 + 4·thread_col + 0..3} of the block tile:
/// four 4×4 quadrants, so a warp's float4 reads of shared memory hit distinct banks.
/// @tparam Tiling a FastTiling
/// @tparam VECTOR_M float4 loads of M
/// @tparam VECTOR_NP float4 loads of N and float4 stores of P
/// @param m_matrix M, I×J row-major
/// @param n_matrix N, J×K row-major
/// @param out P (one split) or the split-K workspace (several), I×K row-major per slice
/// @param rows I
/// @param inner J
/// @param cols K
/// @param tiles_per_split inner tiles of depth BK that one split covers
/// @param group_rows tile-rows per group of the block order (grouped_tile)
template <typename Tiling, bool VECTOR_M, bool VECTOR_NP>
__global__ void __launch_bounds__(Tiling::kThreads, 2)
    fast_gemm_kernel(const float* __restrict__ m_matrix, const float* __restrict__ n_matrix,
                     float* __restrict__ out, int rows, int inner, int cols, int tiles_per_split,
                     int group_rows) {
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
  constexpr int kBK = Tiling::kDepth;
  constexpr int kQ = Tiling::kQuadrant;
  __shared__ __align__(16) float m_tiles[2][kBK][Tiling::kMTileStride];
  __shared__ __align__(16) float n_tiles[2][kBK][kBN];

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int thread_row = (warp / Tiling::kWarpCols) * 4 + lane / Tiling::kWarpLaneCols;
  const int thread_col =
      (warp % Tiling::kWarpCols) * Tiling::kWarpLaneCols + lane % Tiling::kWarpLaneCols;
  int tile_row = 0;
  int tile_col = 0;
  grouped_tile(group_rows, tile_row, tile_col);
  const int block_row0 = tile_row * kBM;
  const int block_col0 = tile_col * kBN;
  const int inner_tiles = (inner + kBK - 1) / kBK;
  const int first_tile = blockIdx.z * tiles_per_split;
  const int end_tile = min(inner_tiles, first_tile + tiles_per_split);
  float* p_matrix = out + static_cast<size_t>(blockIdx.z) * rows * cols;

  float sums[2 * kQ][2 * kQ] = {};
  FastStage<Tiling> stage;
  load_stage<Tiling, VECTOR_M, VECTOR_NP>(m_matrix, n_matrix, rows, inner, cols, block_row0,
                                          block_col0, first_tile * kBK, stage);
  fast_store_stage<Tiling>(stage, m_tiles[0], n_tiles[0]);
  __syncthreads();  // the first tile must be in shared memory before anyone computes with it

  for (int tile = first_tile; tile < end_tile; ++tile) {
    const int current = (tile - first_tile) & 1;
    const bool has_next = tile + 1 < end_tile;
    if (has_next) {  // start fetching the next tile; its latency hides behind the math
      load_stage<Tiling, VECTOR_M, VECTOR_NP>(m_matrix, n_matrix, rows, inner, cols, block_row0,
                                              block_col0, (tile + 1) * kBK, stage);
    }
    // No boundary checks in the math: entries outside M and N were stored as zeros.
#pragma unroll
    for (int depth = 0; depth < kBK; ++depth) {
      float m_frag[2 * kQ];
      float n_frag[2 * kQ];
      const float4 m_low =
          *reinterpret_cast<const float4*>(&m_tiles[current][depth][thread_row * kQ]);
      const float4 m_high =
          *reinterpret_cast<const float4*>(&m_tiles[current][depth][kBM / 2 + thread_row * kQ]);
      const float4 n_low =
          *reinterpret_cast<const float4*>(&n_tiles[current][depth][thread_col * kQ]);
      const float4 n_high =
          *reinterpret_cast<const float4*>(&n_tiles[current][depth][kBN / 2 + thread_col * kQ]);
      m_frag[0] = m_low.x, m_frag[1] = m_low.y, m_frag[2] = m_low.z, m_frag[3] = m_low.w;
      m_frag[4] = m_high.x, m_frag[5] = m_high.y, m_frag[6] = m_high.z, m_frag[7] = m_high.w;
      n_frag[0] = n_low.x, n_frag[1] = n_low.y, n_frag[2] = n_low.z, n_frag[3] = n_low.w;
      n_frag[4] = n_high.x, n_frag[5] = n_high.y, n_frag[6] = n_high.z, n_frag[7] = n_high.w;
#pragma unroll
      for (int i = 0; i < 2 * kQ; ++i) {
#pragma unroll
        for (int j = 0; j < 2 * kQ; ++j) {
          sums[i][j] += m_frag[i] * n_frag[j];
        }
      }
    }
    if (has_next) {
      // The other buffer was last read in the previous iteration, which every thread left
      // through the barrier below, so it is free to overwrite now.
      fast_store_stage<Tiling>(stage, m_tiles[current ^ 1], n_tiles[current ^ 1]);
    }
    __syncthreads();  // the next buffer is complete, and nobody still reads this one
  }

#pragma unroll
  for (int i = 0; i < 2 * kQ; ++i) {
    const int p_row =
        block_row0 + (i < kQ ? thread_row * kQ + i : kBM / 2 + thread_row * kQ + i - kQ);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int p_col = block_col0 + half * (kBN / 2) + thread_col * kQ;
      const float* values = &sums[i][half * kQ];
      if (VECTOR_NP) {
        // P check: the row past I, or the four columns past K (all or none, K % 4 == 0).
        if (p_row < rows && p_col < cols) {
          *reinterpret_cast<float4*>(p_matrix + p_row * cols + p_col) =
              make_float4(values[0], values[1], values[2], values[3]);
        }
      } else {
#pragma unroll
        for (int part = 0; part < kQ; ++part) {
          // P check, one element at a time: the row past I or the column past K.
          if (p_row < rows && p_col + part < cols) {
            p_matrix[p_row * cols + p_col + part] = values[part];
          }
        }
      }
    }
  }
}

}  // namespace step4
