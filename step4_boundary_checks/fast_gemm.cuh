/// @file fast_gemm.cuh
/// @brief Going further: a fast SGEMM that is still correct for every shape. 2-D register
/// tiling (8×8 outputs per thread, in four 4×4 quadrants), the A tile stored transposed in
/// shared memory, float4 global loads where alignment allows (a scalar path otherwise),
/// double buffering (the next tile is fetched into registers while this one is used) and
/// split-K (the inner dimension shared among blocks; split_k_reduce.cuh adds the parts).
/// Read tiled_checked.cuh first; the launcher is fast_gemm_launch.cu.
#pragma once

namespace course::step4 {

/// @brief Compile-time description of the fast kernel's tiling and its relations.
/// @tparam BLOCK_ROWS rows of C per block (BM)
/// @tparam BLOCK_COLS columns of C per block (BN)
/// @tparam DEPTH inner covered per tile (BK)
template <int BLOCK_ROWS, int BLOCK_COLS, int DEPTH>
struct FastTiling {
  static constexpr int kBlockRows = BLOCK_ROWS;  ///< BM: rows of C per block
  static constexpr int kBlockCols = BLOCK_COLS;  ///< BN: columns of C per block
  static constexpr int kDepth = DEPTH;           ///< BK: depth of one tile
  static constexpr int kThreadTile = 8;          ///< each thread computes 8×8 outputs
  static constexpr int kQuadrant = 4;            ///< ... as four 4×4 quadrants
  static constexpr int kThreadRows = BLOCK_ROWS / kThreadTile;  ///< threads along rows
  static constexpr int kThreadCols = BLOCK_COLS / kThreadTile;  ///< threads along columns
  static constexpr int kThreads = kThreadRows * kThreadCols;    ///< threads per block
  static constexpr int kWarpLaneCols = 8;  ///< a warp is 4 thread rows × 8 thread columns
  static constexpr int kWarpCols = kThreadCols / kWarpLaneCols;  ///< warps along columns
  /// Row length of the transposed A tile in shared memory; the +4 shifts consecutive
  /// depths by 4 banks so the transposing stores do not collide, and keeps float4 alignment.
  static constexpr int kATileStride = BLOCK_ROWS + 4;
  static constexpr int kAPerThread = BLOCK_ROWS * DEPTH / kThreads;  ///< A elements loaded
  static constexpr int kBPerThread = DEPTH * BLOCK_COLS / kThreads;  ///< B elements loaded

  static_assert(BLOCK_ROWS % (2 * kQuadrant) == 0 && BLOCK_COLS % (2 * kQuadrant) == 0,
                "the block tile must split into 8x8 thread tiles");
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  static_assert(kThreadCols % kWarpLaneCols == 0, "a warp spans 8 thread columns");
  static_assert((kThreads / 32) * 4 == kThreadRows * kWarpCols,
                "warps must tile the thread grid in 4x8 pieces");
  static_assert(DEPTH % 4 == 0 && BLOCK_COLS % 4 == 0, "float4 loads need multiples of 4");
  static_assert(kAPerThread % 4 == 0 && kBPerThread % 4 == 0,
                "each thread loads whole float4s of both tiles");
  static_assert(kAPerThread * kThreads == BLOCK_ROWS * DEPTH, "A tile splits evenly");
  static_assert(kBPerThread * kThreads == DEPTH * BLOCK_COLS, "B tile splits evenly");
  static_assert(2 * DEPTH * (kATileStride + BLOCK_COLS) * 4 <= 48 * 1024,
                "two buffers of both tiles must fit 48 KiB of static shared memory");
};

/// @brief Registers holding one tile of A and of B between the global load and the
/// shared-memory store (the double-buffering stage).
/// @tparam Tiling a FastTiling
template <typename Tiling>
struct FastStage {
  float a_values[Tiling::kAPerThread];  ///< this thread's share of the A tile
  float b_values[Tiling::kBPerThread];  ///< this thread's share of the B tile
};

/// @brief How the threads of a block share a TILE_ROWS×TILE_COLS tile of a row-major matrix:
/// in groups of 4 consecutive columns of one row, group g of thread t being the tile's group
/// t + g·THREADS in row-major order (so a warp's groups are consecutive in memory). Used by
/// load_tile and by async_copy_gemm.cuh's copy_tile_async.
/// @tparam TILE_ROWS rows of the tile
/// @tparam TILE_COLS columns of the tile (a multiple of 4)
/// @tparam THREADS threads of the block sharing the tile
template <int TILE_ROWS, int TILE_COLS, int THREADS>
struct TileGroups {
  static_assert(TILE_COLS % 4 == 0, "groups of 4 columns");
  static_assert((TILE_ROWS * TILE_COLS) % (4 * THREADS) == 0, "whole groups per thread");
  static constexpr int kPerRow = TILE_COLS / 4;                             ///< groups in a row
  static constexpr int kPerThread = TILE_ROWS * TILE_COLS / (4 * THREADS);  ///< groups a thread has

  /// @brief The tile row of this thread's group @p group.
  /// @param group 0 .. kPerThread - 1
  /// @return the row within the tile
  __device__ static int row(int group) {
    const int index = threadIdx.x + group * THREADS;
    return index / kPerRow;
  }

  /// @brief The first tile column of this thread's group @p group (a multiple of 4).
  /// @param group 0 .. kPerThread - 1
  /// @return the column within the tile
  __device__ static int col(int group) {
    const int index = threadIdx.x + group * THREADS;
    return (index % kPerRow) * 4;
  }
};

/// @brief Loads this thread's share of a TILE_ROWS×TILE_COLS tile of a row-major matrix into
/// registers; entries outside the matrix become zero. The same function loads the A tile
/// (TILE_ROWS = BM rows of A, TILE_COLS = BK columns) and the B tile (BK rows of B, BN
/// columns): the A-tile check and the B-tile check of the lesson are this one test, "is the
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
/// @param matrix_rows its rows (rows for A, inner for B)
/// @param matrix_cols its columns (inner for A, cols for B)
/// @param tile_row0 first row of the tile
/// @param tile_col0 first column of the tile
/// @param values receives TILE_ROWS·TILE_COLS / THREADS values
template <int TILE_ROWS, int TILE_COLS, int THREADS, bool VECTOR>
__device__ __forceinline__ void load_tile(const float* __restrict__ matrix, int matrix_rows,
                                          int matrix_cols, int tile_row0, int tile_col0,
                                          float* values) {
  using Groups = TileGroups<TILE_ROWS, TILE_COLS, THREADS>;
#pragma unroll
  for (int group = 0; group < Groups::kPerThread; ++group) {
    const int row = tile_row0 + Groups::row(group);
    const int col = tile_col0 + Groups::col(group);
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

/// @brief Loads the A tile (BM rows from @p block_row0, BK columns from @p depth0) and the B
/// tile (BK rows from @p depth0, BN columns from @p block_col0) into @p stage.
/// @tparam Tiling a FastTiling
/// @tparam VECTOR_A float4 loads of A
/// @tparam VECTOR_BC float4 loads of B
/// @param a A, rows×inner
/// @param b B, inner×cols
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param block_row0 first row of the block's tile of C
/// @param block_col0 first column of the block's tile of C
/// @param depth0 first column of A and row of B in this tile
/// @param stage receives both tiles
template <typename Tiling, bool VECTOR_A, bool VECTOR_BC>
__device__ __forceinline__ void load_stage(const float* __restrict__ a, const float* __restrict__ b,
                                           int rows, int inner, int cols, int block_row0,
                                           int block_col0, int depth0, FastStage<Tiling>& stage) {
  load_tile<Tiling::kBlockRows, Tiling::kDepth, Tiling::kThreads, VECTOR_A>(
      a, rows, inner, block_row0, depth0, stage.a_values);
  load_tile<Tiling::kDepth, Tiling::kBlockCols, Tiling::kThreads, VECTOR_BC>(
      b, inner, cols, depth0, block_col0, stage.b_values);
}

/// @brief Stores the staged registers into one shared-memory buffer: the A tile transposed
/// (a_tile[depth][row]) so the compute loop reads 4 consecutive rows as one float4.
/// @tparam Tiling a FastTiling
/// @param stage the registers
/// @param a_tile the A buffer, [kDepth][kATileStride]
/// @param b_tile the B buffer, [kDepth][kBlockCols]
template <typename Tiling>
__device__ __forceinline__ void fast_store_stage(const FastStage<Tiling>& stage,
                                                 float (*a_tile)[Tiling::kATileStride],
                                                 float (*b_tile)[Tiling::kBlockCols]) {
  constexpr int kAGroupsPerRow = Tiling::kDepth / 4;
#pragma unroll
  for (int group = 0; group < Tiling::kAPerThread / 4; ++group) {
    const int index = threadIdx.x + group * Tiling::kThreads;
    const int tile_row = index / kAGroupsPerRow;
    const int tile_depth = (index % kAGroupsPerRow) * 4;
#pragma unroll
    for (int part = 0; part < 4; ++part) {
      a_tile[tile_depth + part][tile_row] = stage.a_values[group * 4 + part];
    }
  }
  constexpr int kBGroupsPerRow = Tiling::kBlockCols / 4;
#pragma unroll
  for (int group = 0; group < Tiling::kBPerThread / 4; ++group) {
    const int index = threadIdx.x + group * Tiling::kThreads;
    *reinterpret_cast<float4*>(&b_tile[index / kBGroupsPerRow][(index % kBGroupsPerRow) * 4]) =
        make_float4(stage.b_values[group * 4 + 0], stage.b_values[group * 4 + 1],
                    stage.b_values[group * 4 + 2], stage.b_values[group * 4 + 3]);
  }
}

/// @brief The output tile a block computes, with the blocks taken in groups of @p group_rows
/// tile-rows: consecutive blocks walk down a group's rows before moving right, so the blocks
/// that run at the same time share A's row panels and B's column panels in L2 (rasterization).
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

/// @brief Where thread threadIdx.x sits in the grid of 8×8 thread tiles: a warp covers 4
/// thread rows × 8 thread columns, so its float4 reads of shared memory hit distinct banks.
/// @tparam Tiling a FastTiling
/// @param thread_row receives the thread's row in the thread grid
/// @param thread_col receives the thread's column in the thread grid
template <typename Tiling>
__device__ __forceinline__ void thread_position(int& thread_row, int& thread_col) {
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  thread_row = (warp / Tiling::kWarpCols) * 4 + lane / Tiling::kWarpLaneCols;
  thread_col = (warp % Tiling::kWarpCols) * Tiling::kWarpLaneCols + lane % Tiling::kWarpLaneCols;
}

/// @brief Adds one tile's products to the thread's 8×8 sums: for each depth, 8 values of the
/// (transposed) A tile and 8 of the B tile, read as four float4s, and their 64 products. No
/// boundary checks: entries outside A and B were stored as zeros.
/// @tparam Tiling a FastTiling
/// @param a_tile the A tile in shared memory, [kDepth][kATileStride]
/// @param b_tile the B tile in shared memory, [kDepth][kBlockCols]
/// @param thread_row the thread's row in the thread grid (thread_position)
/// @param thread_col the thread's column in the thread grid
/// @param sums the thread's outputs, updated
template <typename Tiling>
__device__ __forceinline__ void multiply_tile(const float (*a_tile)[Tiling::kATileStride],
                                              const float (*b_tile)[Tiling::kBlockCols],
                                              int thread_row, int thread_col, float (&sums)[8][8]) {
  constexpr int kQ = Tiling::kQuadrant;
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
#pragma unroll
  for (int depth = 0; depth < Tiling::kDepth; ++depth) {
    float a_frag[2 * kQ];
    float b_frag[2 * kQ];
    const float4 a_low = *reinterpret_cast<const float4*>(&a_tile[depth][thread_row * kQ]);
    const float4 a_high =
        *reinterpret_cast<const float4*>(&a_tile[depth][kBM / 2 + thread_row * kQ]);
    const float4 b_low = *reinterpret_cast<const float4*>(&b_tile[depth][thread_col * kQ]);
    const float4 b_high =
        *reinterpret_cast<const float4*>(&b_tile[depth][kBN / 2 + thread_col * kQ]);
    a_frag[0] = a_low.x, a_frag[1] = a_low.y, a_frag[2] = a_low.z, a_frag[3] = a_low.w;
    a_frag[4] = a_high.x, a_frag[5] = a_high.y, a_frag[6] = a_high.z, a_frag[7] = a_high.w;
    b_frag[0] = b_low.x, b_frag[1] = b_low.y, b_frag[2] = b_low.z, b_frag[3] = b_low.w;
    b_frag[4] = b_high.x, b_frag[5] = b_high.y, b_frag[6] = b_high.z, b_frag[7] = b_high.w;
#pragma unroll
    for (int i = 0; i < 2 * kQ; ++i) {
#pragma unroll
      for (int j = 0; j < 2 * kQ; ++j) {
        sums[i][j] += a_frag[i] * b_frag[j];
      }
    }
  }
}

/// @brief Writes the thread's 8×8 sums to its four 4×4 quadrants of C (or of a split-K slice),
/// with the C check.
/// @tparam Tiling a FastTiling
/// @tparam VECTOR_BC float4 stores (cols % 4 == 0 and @p c 16-byte aligned)
/// @param sums the thread's outputs
/// @param c C or the split's slice of the workspace, rows×cols row-major
/// @param rows rows of C
/// @param cols columns of C
/// @param block_row0 first row of the block's tile of C
/// @param block_col0 first column of the block's tile of C
/// @param thread_row the thread's row in the thread grid (thread_position)
/// @param thread_col the thread's column in the thread grid
template <typename Tiling, bool VECTOR_BC>
__device__ __forceinline__ void store_sums(const float (&sums)[8][8], float* c, int rows, int cols,
                                           int block_row0, int block_col0, int thread_row,
                                           int thread_col) {
  constexpr int kQ = Tiling::kQuadrant;
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
#pragma unroll
  for (int i = 0; i < 2 * kQ; ++i) {
    const int c_row =
        block_row0 + (i < kQ ? thread_row * kQ + i : kBM / 2 + thread_row * kQ + i - kQ);
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int c_col = block_col0 + half * (kBN / 2) + thread_col * kQ;
      const float* values = &sums[i][half * kQ];
      if (VECTOR_BC) {
        // C check: the row past rows, or the four columns past cols (all or none, cols % 4 == 0).
        if (c_row < rows && c_col < cols) {
          *reinterpret_cast<float4*>(c + c_row * cols + c_col) =
              make_float4(values[0], values[1], values[2], values[3]);
        }
      } else {
#pragma unroll
        for (int part = 0; part < kQ; ++part) {
          // C check, one element at a time: the row past rows or the column past cols.
          if (c_row < rows && c_col + part < cols) {
            c[c_row * cols + c_col + part] = values[part];
          }
        }
      }
    }
  }
}

/// @brief C = A·B for any rows, inner, cols >= 1, fast; with split-K, one slice of the inner
/// dimension.
///
/// Split-K: block z of the grid (blockIdx.z) covers the inner tiles [z·tiles_per_split,
/// min((z+1)·tiles_per_split, ceil(inner / BK))) and writes its partial product to slice z of
/// @p out, the rows×cols matrix at out + z·rows·cols. With a single split (gridDim.z = 1) @p out is
/// C itself; with several, the launcher adds the slices with split_k_reduce_kernel. A split
/// boundary is always a tile boundary, so the only ragged depth is inner's own end, which the
/// tile checks of load_tile already zero-fill: split-K needs no fourth boundary check.
///
/// Preconditions: blockDim = (Tiling::kThreads); gridDim = (ceil(cols / kBlockCols),
/// ceil(rows / kBlockRows), splits) with every split owning at least one tile (splits =
/// ceil(ceil(inner / BK) / tiles_per_split)); rows·inner, inner·cols, rows·cols fit in int; @p out
/// holds gridDim.z slices of rows×cols floats; VECTOR_A only when inner % 4 == 0 and A is 16-byte
/// aligned; VECTOR_BC only when cols % 4 == 0 and B and out are 16-byte aligned. Thread
/// (thread_row, thread_col) owns C rows {4·thread_row + 0..3, BM/2 + 4·thread_row + 0..3} and
/// columns {4·thread_col + 0..3, BN/2 + 4·thread_col + 0..3} of the block tile: four 4×4 quadrants,
/// so a warp's float4 reads of shared memory hit distinct banks.
/// @tparam Tiling a FastTiling
/// @tparam VECTOR_A float4 loads of A
/// @tparam VECTOR_BC float4 loads of B and float4 stores of C
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param out C (one split) or the split-K workspace (several), rows×cols row-major per slice
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param tiles_per_split inner tiles of depth BK that one split covers
/// @param group_rows tile-rows per group of the block order (grouped_tile)
template <typename Tiling, bool VECTOR_A, bool VECTOR_BC>
__global__ void __launch_bounds__(Tiling::kThreads, 2)
    fast_gemm_kernel(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ out, int rows, int inner, int cols, int tiles_per_split,
                     int group_rows) {
  constexpr int kBK = Tiling::kDepth;
  __shared__ __align__(16) float a_tiles[2][kBK][Tiling::kATileStride];
  __shared__ __align__(16) float b_tiles[2][kBK][Tiling::kBlockCols];

  int thread_row = 0;
  int thread_col = 0;
  thread_position<Tiling>(thread_row, thread_col);
  int tile_row = 0;
  int tile_col = 0;
  grouped_tile(group_rows, tile_row, tile_col);
  const int block_row0 = tile_row * Tiling::kBlockRows;
  const int block_col0 = tile_col * Tiling::kBlockCols;
  const int inner_tiles = (inner + kBK - 1) / kBK;
  const int first_tile = blockIdx.z * tiles_per_split;
  const int end_tile = min(inner_tiles, first_tile + tiles_per_split);

  float sums[8][8] = {};
  FastStage<Tiling> stage;
  load_stage<Tiling, VECTOR_A, VECTOR_BC>(a, b, rows, inner, cols, block_row0, block_col0,
                                          first_tile * kBK, stage);
  fast_store_stage<Tiling>(stage, a_tiles[0], b_tiles[0]);
  __syncthreads();  // the first tile must be in shared memory before anyone computes with it

  for (int tile = first_tile; tile < end_tile; ++tile) {
    const int current = (tile - first_tile) & 1;
    const bool has_next = tile + 1 < end_tile;
    if (has_next) {  // start fetching the next tile; its latency hides behind the math
      load_stage<Tiling, VECTOR_A, VECTOR_BC>(a, b, rows, inner, cols, block_row0, block_col0,
                                              (tile + 1) * kBK, stage);
    }
    multiply_tile<Tiling>(a_tiles[current], b_tiles[current], thread_row, thread_col, sums);
    if (has_next) {
      // The other buffer was last read in the previous iteration, which every thread left
      // through the barrier below, so it is free to overwrite now.
      fast_store_stage<Tiling>(stage, a_tiles[current ^ 1], b_tiles[current ^ 1]);
    }
    __syncthreads();  // the next buffer is complete, and nobody still reads this one
  }
  store_sums<Tiling, VECTOR_BC>(sums, out + static_cast<size_t>(blockIdx.z) * rows * cols, rows,
                                cols, block_row0, block_col0, thread_row, thread_col);
}

}  // namespace course::step4
