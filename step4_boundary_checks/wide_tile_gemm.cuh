/// @file wide_tile_gemm.cuh
/// @brief Going further: the asynchronous-copy kernel with a larger tile per thread (up to
/// 8×16 outputs) and a deeper ring of buffers in dynamic shared memory. More outputs per thread
/// means fewer shared-memory loads per multiply-add (8 + 16 float4s feed 512 of them, against
/// 8 + 8 for 256 with 8×8) at the price of registers: such a thread needs about 200 of them, so
/// the kernel asks for one block per SM (`__launch_bounds__(threads, 1)`) and relies on each
/// thread's 128 independent sums, not on many warps, to hide latency. The ring may exceed the
/// 48 KiB of static shared memory; the launcher (wide_tile_launch.cu) opts in to more.
/// Read async_copy_gemm.cuh first (the ring, copy_tile_async); fast_gemm.cuh has the rest
/// (split-K, block order).
#pragma once

#include "step4_boundary_checks/async_copy_gemm.cuh"
#include "step4_boundary_checks/fast_gemm.cuh"

namespace course::step4 {

/// @brief Compile-time description of a wide tiling and its relations.
/// @tparam BLOCK_ROWS rows of C per block (BM)
/// @tparam BLOCK_COLS columns of C per block (BN)
/// @tparam DEPTH inner covered per tile (BK)
/// @tparam THREAD_ROWS rows of C per thread (TM, a multiple of 4)
/// @tparam THREAD_COLS columns of C per thread (TN, a multiple of 4)
/// @tparam STAGES buffers in the ring (tile t is multiplied while t+1 .. t+STAGES-1 arrive)
template <int BLOCK_ROWS, int BLOCK_COLS, int DEPTH, int THREAD_ROWS, int THREAD_COLS, int STAGES>
struct WideTiling {
  static constexpr int kBlockRows = BLOCK_ROWS;                 ///< BM: rows of C per block
  static constexpr int kBlockCols = BLOCK_COLS;                 ///< BN: columns of C per block
  static constexpr int kDepth = DEPTH;                          ///< BK: depth of one tile
  static constexpr int kTileRows = THREAD_ROWS;                 ///< TM: rows of C per thread
  static constexpr int kTileCols = THREAD_COLS;                 ///< TN: columns of C per thread
  static constexpr int kStages = STAGES;                        ///< buffers in the ring
  static constexpr int kQuadrant = 4;                           ///< outputs come in 4×4 quadrants
  static constexpr int kRowQuadrants = THREAD_ROWS / 4;         ///< quadrants down a thread tile
  static constexpr int kColQuadrants = THREAD_COLS / 4;         ///< quadrants across it
  static constexpr int kThreadRows = BLOCK_ROWS / THREAD_ROWS;  ///< threads along rows
  static constexpr int kThreadCols = BLOCK_COLS / THREAD_COLS;  ///< threads along columns
  static constexpr int kThreads = kThreadRows * kThreadCols;    ///< threads per block
  static constexpr int kWarpLaneCols = 8;  ///< a warp is 4 thread rows × 8 thread columns
  static constexpr int kWarpCols = kThreadCols / kWarpLaneCols;  ///< warps along columns
  /// A thread's row quadrants lie this many rows apart (all threads' first quadrants, then all
  /// threads' second ones), and its column quadrants kColStride columns apart, so the 8 lanes
  /// of a warp that read together read 8 consecutive float4s of B.
  static constexpr int kRowStride = 4 * kThreadRows;
  static constexpr int kColStride = 4 * kThreadCols;                            ///< see kRowStride
  static constexpr int kStageFloats = BLOCK_ROWS * DEPTH + DEPTH * BLOCK_COLS;  ///< one buffer
  static constexpr int kSharedBytes = STAGES * kStageFloats * 4;                ///< the whole ring

  static_assert(THREAD_ROWS % 4 == 0 && THREAD_COLS % 4 == 0, "thread tiles of 4x4 quadrants");
  static_assert(BLOCK_ROWS % THREAD_ROWS == 0 && BLOCK_COLS % THREAD_COLS == 0,
                "the block tile splits into thread tiles");
  static_assert(kThreads % 32 == 0 && kThreads <= 1024, "whole warps, at most 1024 threads");
  static_assert(kThreadCols % kWarpLaneCols == 0, "a warp spans 8 thread columns");
  static_assert(kThreadRows % 4 == 0, "a warp spans 4 thread rows");
  static_assert(DEPTH % 4 == 0, "the A tile is read 4 depths (one float4) at a time");
  static_assert((BLOCK_ROWS * DEPTH) % (4 * kThreads) == 0, "A tile: whole float4s per thread");
  static_assert((DEPTH * BLOCK_COLS) % (4 * kThreads) == 0, "B tile: whole float4s per thread");
  static_assert(STAGES >= 2, "a ring needs one buffer in use and one arriving");
  static_assert(kSharedBytes <= 227 * 1024, "the ring must fit an SM's shared memory (sm_90)");
};

/// @brief Row, within the block tile, of a thread's row @p index (0 .. TM - 1).
/// @tparam Tiling a WideTiling
/// @param thread_row the thread's row in the thread grid (thread_position)
/// @param index which of the thread's rows
/// @return the tile row
template <typename Tiling>
__device__ __forceinline__ int wide_tile_row(int thread_row, int index) {
  return (index / 4) * Tiling::kRowStride + thread_row * 4 + index % 4;
}

/// @brief Adds one tile's products to the thread's TM×TN sums. The A tile is row-major
/// (a_tile[row][depth], as the asynchronous copies leave it), read one float4 (4 depths) per
/// row of the thread; B is read one float4 per column quadrant per depth. A warp's 8-lane
/// phases share one thread row, so the A reads are broadcasts and each B read covers 128
/// consecutive bytes: no bank conflicts.
/// @tparam Tiling a WideTiling
/// @param a_tile the A tile, [kBlockRows][kDepth]
/// @param b_tile the B tile, [kDepth][kBlockCols]
/// @param thread_row the thread's row in the thread grid
/// @param thread_col the thread's column in the thread grid
/// @param sums the thread's outputs, updated
template <typename Tiling>
__device__ __forceinline__ void multiply_wide_tile(
    const float* a_tile, const float* b_tile, int thread_row, int thread_col,
    float (&sums)[Tiling::kTileRows][Tiling::kTileCols]) {
  constexpr int kTM = Tiling::kTileRows;
  constexpr int kTN = Tiling::kTileCols;
  constexpr int kBK = Tiling::kDepth;
#pragma unroll
  for (int depth0 = 0; depth0 < kBK; depth0 += 4) {
    float4 a_rows[kTM];  // a_rows[i] = A[row i of the thread][depth0 .. depth0 + 3]
#pragma unroll
    for (int i = 0; i < kTM; ++i) {
      a_rows[i] = *reinterpret_cast<const float4*>(
          a_tile + wide_tile_row<Tiling>(thread_row, i) * kBK + depth0);
    }
#pragma unroll
    for (int step = 0; step < 4; ++step) {
      const float* b_row = b_tile + (depth0 + step) * Tiling::kBlockCols;
      float b_frag[kTN];
#pragma unroll
      for (int quadrant = 0; quadrant < Tiling::kColQuadrants; ++quadrant) {
        const float4 loaded = *reinterpret_cast<const float4*>(
            b_row + quadrant * Tiling::kColStride + thread_col * 4);
        b_frag[quadrant * 4 + 0] = loaded.x;
        b_frag[quadrant * 4 + 1] = loaded.y;
        b_frag[quadrant * 4 + 2] = loaded.z;
        b_frag[quadrant * 4 + 3] = loaded.w;
      }
#pragma unroll
      for (int i = 0; i < kTM; ++i) {
        const float a_value = step == 0   ? a_rows[i].x
                              : step == 1 ? a_rows[i].y
                              : step == 2 ? a_rows[i].z
                                          : a_rows[i].w;
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
          sums[i][j] += a_value * b_frag[j];
        }
      }
    }
  }
}

/// @brief Writes the thread's TM×TN sums to its quadrants of C (or of a split-K slice), with
/// the C check.
/// @tparam Tiling a WideTiling
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
__device__ __forceinline__ void store_wide_sums(
    const float (&sums)[Tiling::kTileRows][Tiling::kTileCols], float* c, int rows, int cols,
    int block_row0, int block_col0, int thread_row, int thread_col) {
#pragma unroll
  for (int i = 0; i < Tiling::kTileRows; ++i) {
    const int c_row = block_row0 + wide_tile_row<Tiling>(thread_row, i);
#pragma unroll
    for (int quadrant = 0; quadrant < Tiling::kColQuadrants; ++quadrant) {
      const int c_col = block_col0 + quadrant * Tiling::kColStride + thread_col * 4;
      const float* values = &sums[i][quadrant * 4];
      if (VECTOR_BC) {
        // C check: the row past rows, or the four columns past cols (all or none, cols % 4 == 0).
        if (c_row < rows && c_col < cols) {
          *reinterpret_cast<float4*>(c + static_cast<long long>(c_row) * cols + c_col) =
              make_float4(values[0], values[1], values[2], values[3]);
        }
      } else {
#pragma unroll
        for (int part = 0; part < 4; ++part) {
          // C check, one element at a time: the row past rows or the column past cols.
          if (c_row < rows && c_col + part < cols) {
            c[static_cast<long long>(c_row) * cols + c_col + part] = values[part];
          }
        }
      }
    }
  }
}

/// @brief C = A·B for any rows, inner, cols >= 1 with a wide thread tile; with split-K, one
/// slice of the inner dimension. Same grid, split-K slices, block order and outputs as
/// fast_gemm_kernel; the ring works as in async_copy_gemm_kernel with kStages buffers.
///
/// The ring: before the loop, tiles 0 .. kStages-2 are requested. In iteration t the thread
/// waits until at most kStages-2 of its groups are in flight (so tile t has landed), the
/// barrier makes everyone's copies visible, then tile t+kStages-1 is requested into the buffer
/// of tile t-1 (which everyone finished before the barrier) and tile t is multiplied.
///
/// Preconditions: those of fast_gemm_kernel; blockDim = (Tiling::kThreads); dynamic shared
/// memory of Tiling::kSharedBytes; VECTOR_A only when inner % 4 == 0 and A is 16-byte aligned;
/// VECTOR_BC only when cols % 4 == 0 and B and out are 16-byte aligned. Thread (thread_row,
/// thread_col) owns C rows {q·kRowStride + 4·thread_row + 0..3} and columns {q·kColStride +
/// 4·thread_col + 0..3} of the block tile.
/// @tparam Tiling a WideTiling
/// @tparam VECTOR_A 16-byte copies of A
/// @tparam VECTOR_BC 16-byte copies of B and float4 stores of C
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param out C (one split) or the split-K workspace (several), rows×cols row-major per slice
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param tiles_per_split inner tiles of depth BK that one split covers
/// @param group_rows tile-rows per group of the block order (grouped_tile)
template <typename Tiling, bool VECTOR_A, bool VECTOR_BC>
__global__ void __launch_bounds__(Tiling::kThreads, 1)
    wide_tile_gemm_kernel(const float* __restrict__ a, const float* __restrict__ b,
                          float* __restrict__ out, int rows, int inner, int cols,
                          int tiles_per_split, int group_rows) {
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
  constexpr int kBK = Tiling::kDepth;
  constexpr int kStages = Tiling::kStages;
  extern __shared__ __align__(16) float ring[];  // kStages A tiles, then kStages B tiles
  float* const a_tiles = ring;
  float* const b_tiles = ring + kStages * kBM * kBK;

  int thread_row = 0;
  int thread_col = 0;
  thread_position<Tiling>(thread_row, thread_col);
  int tile_row = 0;
  int tile_col = 0;
  grouped_tile(group_rows, tile_row, tile_col);
  const int block_row0 = tile_row * kBM;
  const int block_col0 = tile_col * kBN;
  const int inner_tiles = (inner + kBK - 1) / kBK;
  const int first_tile = blockIdx.z * tiles_per_split;
  const int end_tile = min(inner_tiles, first_tile + tiles_per_split);

  // Requests tile `tile` into ring slot `tile % kStages`; a tile past the split's end requests
  // nothing, but its (empty) group is still committed so the counting stays uniform.
  auto request = [&](int tile) {
    if (tile < end_tile) {
      const int slot = (tile - first_tile) % kStages;
      copy_tile_async<kBM, kBK, Tiling::kThreads, VECTOR_A>(a, rows, inner, block_row0, tile * kBK,
                                                            a_tiles + slot * kBM * kBK);
      copy_tile_async<kBK, kBN, Tiling::kThreads, VECTOR_BC>(b, inner, cols, tile * kBK, block_col0,
                                                             b_tiles + slot * kBK * kBN);
    }
    commit_copies();
  };

  float sums[Tiling::kTileRows][Tiling::kTileCols] = {};
#pragma unroll
  for (int ahead = 0; ahead < kStages - 1; ++ahead) {
    request(first_tile + ahead);
  }
  for (int tile = first_tile; tile < end_tile; ++tile) {
    wait_copies<kStages - 2>();  // this thread's copies of `tile` have landed
    __syncthreads();  // everyone's copies of `tile` are visible, and everyone has finished
                      // multiplying tile - 1, whose slot the next request overwrites
    request(tile + kStages - 1);
    const int slot = (tile - first_tile) % kStages;
    multiply_wide_tile<Tiling>(a_tiles + slot * kBM * kBK, b_tiles + slot * kBK * kBN, thread_row,
                               thread_col, sums);
  }
  wait_copies<0>();  // no copy may still be writing shared memory when the block exits
  store_wide_sums<Tiling, VECTOR_BC>(sums, out + static_cast<size_t>(blockIdx.z) * rows * cols,
                                     rows, cols, block_row0, block_col0, thread_row, thread_col);
}

}  // namespace course::step4
