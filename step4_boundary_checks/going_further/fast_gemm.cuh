/// @file fast_gemm.cuh
/// @brief Going further: a fast SGEMM that is still correct for every shape. 2-D register
/// tiling (8×8 outputs per thread, in four 4×4 quadrants), the A tile stored transposed in
/// shared memory, float4 global loads where alignment allows (a scalar path otherwise),
/// double buffering (the next tile is fetched into registers while this one is used), loads
/// that check only what can be outside (tile_cursor.cuh) and split-K (the inner dimension
/// shared among blocks; split_k_reduce.cuh adds the parts).
/// Read ../tiled_checked.cuh first; the launcher is fast_gemm_launch.cu.
#pragma once

#include "common/launch_math.hpp"
#include "step4_boundary_checks/going_further/tile_cursor.cuh"

#include <type_traits>

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

/// @brief Registers holding one tile of A and of B between the global load (TileCursor::load)
/// and the shared-memory store (the double-buffering stage).
/// @tparam Tiling a FastTiling
template <typename Tiling>
struct FastStage {
  float a_values[Tiling::kAPerThread];  ///< this thread's share of the A tile
  float b_values[Tiling::kBPerThread];  ///< this thread's share of the B tile
};

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
  using AGroups = TileGroups<Tiling::kBlockRows, Tiling::kDepth, Tiling::kThreads>;
#pragma unroll
  for (int group = 0; group < AGroups::kPerThread; ++group) {
#pragma unroll
    for (int part = 0; part < 4; ++part) {
      a_tile[AGroups::col() + part][AGroups::row(group)] = stage.a_values[group * 4 + part];
    }
  }
  using BGroups = TileGroups<Tiling::kDepth, Tiling::kBlockCols, Tiling::kThreads>;
#pragma unroll
  for (int group = 0; group < BGroups::kPerThread; ++group) {
    *reinterpret_cast<float4*>(&b_tile[BGroups::row(group)][BGroups::col()]) =
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

/// @brief What one block of the fast kernels (fast_gemm_kernel, async_copy_gemm_kernel) works
/// on: where its thread sits, which output tile it computes, which inner tiles its split covers.
struct BlockWork {
  int thread_row;  ///< the thread's row in the grid of 8×8 thread tiles (thread_position)
  int thread_col;  ///< the thread's column in that grid
  int block_row0;  ///< first row of the block's tile of C
  int block_col0;  ///< first column of the block's tile of C
  int first_tile;  ///< first inner tile (of depth BK) of this split: blockIdx.z · tiles_per_split
  int end_tile;    ///< one past the split's last inner tile (at most ceil(inner / BK))
};

/// @brief The BlockWork of this thread's block: thread_position, grouped_tile and split-K's
/// share of the inner tiles (see fast_gemm_kernel).
/// @tparam Tiling a FastTiling
/// @param inner columns of A, rows of B
/// @param tiles_per_split inner tiles of depth BK that one split covers
/// @param group_rows tile-rows per group of the block order (grouped_tile)
/// @return the block's work
template <typename Tiling>
__device__ __forceinline__ BlockWork block_work(int inner, int tiles_per_split, int group_rows) {
  BlockWork work;
  thread_position<Tiling>(work.thread_row, work.thread_col);
  int tile_row = 0;
  int tile_col = 0;
  grouped_tile(group_rows, tile_row, tile_col);
  work.block_row0 = tile_row * Tiling::kBlockRows;
  work.block_col0 = tile_col * Tiling::kBlockCols;
  const int inner_tiles = ceil_div(inner, Tiling::kDepth);
  work.first_tile = blockIdx.z * tiles_per_split;
  work.end_tile = min(inner_tiles, work.first_tile + tiles_per_split);
  return work;
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
/// inner check of TileCursor::load already zero-fills: split-K needs no fourth boundary check.
///
/// The loop: while the next tile lies wholly inside the inner dimension, it is loaded with no
/// check (TileCursor::load<true>), two tiles per pass so that each names its shared-memory
/// buffer at compile time (no buffer index to compute). The tiles that remain (the last one or
/// two, among them a ragged one) take the checked loop. Both do the same thing per tile: load
/// the next tile into registers, multiply this one, store the next into the other buffer.
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

  const BlockWork work = block_work<Tiling>(inner, tiles_per_split, group_rows);
  const int first_depth = work.first_tile * kBK;
  TileCursor<Tiling::kBlockRows, kBK, Tiling::kThreads, true, VECTOR_A> a_cursor(
      a, rows, inner, work.block_row0, first_depth);
  TileCursor<kBK, Tiling::kBlockCols, Tiling::kThreads, false, VECTOR_BC> b_cursor(
      b, inner, cols, first_depth, work.block_col0);

  float sums[8][8] = {};
  FastStage<Tiling> stage;
  a_cursor.template load<false>(inner, stage.a_values);
  b_cursor.template load<false>(inner, stage.b_values);
  fast_store_stage<Tiling>(stage, a_tiles[0], b_tiles[0]);
  __syncthreads();  // the first tile must be in shared memory before anyone computes with it

  // One tile: fetch the next (if any; unchecked when FULL), multiply this one from buffer
  // `current`, store the next into the other buffer.
  auto step = [&](int tile, int current, auto full) {
    constexpr bool kFull = decltype(full)::value;
    const bool has_next = kFull || tile + 1 < work.end_tile;
    if (has_next) {  // start fetching the next tile; its latency hides behind the math
      a_cursor.advance(inner);
      b_cursor.advance(cols);
      a_cursor.template load<kFull>(inner, stage.a_values);
      b_cursor.template load<kFull>(inner, stage.b_values);
    }
    multiply_tile<Tiling>(a_tiles[current], b_tiles[current], work.thread_row, work.thread_col,
                          sums);
    if (has_next) {
      // The other buffer was last read in the previous step, which every thread left
      // through the barrier below, so it is free to overwrite now.
      fast_store_stage<Tiling>(stage, a_tiles[current ^ 1], b_tiles[current ^ 1]);
    }
    __syncthreads();  // the next buffer is complete, and nobody still reads this one
  };
  // Tiles below full_tiles lie wholly inside the inner dimension.
  const int full_tiles = inner / kBK;
  const int unchecked_end = min(work.end_tile, full_tiles);
  int tile = work.first_tile;
  for (; tile + 2 < unchecked_end; tile += 2) {  // both steps' next tiles are full
    step(tile, 0, std::true_type{});
    step(tile + 1, 1, std::true_type{});
  }
  for (; tile < work.end_tile; ++tile) {  // the last tiles, the ragged one among them: checked
    step(tile, (tile - work.first_tile) & 1, std::false_type{});
  }
  store_sums<Tiling, VECTOR_BC>(sums, out + static_cast<size_t>(blockIdx.z) * rows * cols, rows,
                                cols, work.block_row0, work.block_col0, work.thread_row,
                                work.thread_col);
}

}  // namespace course::step4
