/// @file async_copy_gemm.cuh
/// @brief Going further: the fast kernel with asynchronous copies (cp.async) into a 3-stage ring
/// of shared-memory buffers, depth 16. The copies go from global memory straight into shared
/// memory, so no registers hold the next tile (fast_gemm.cuh's FastStage), and three buffers let
/// one barrier per tile of depth 16 do the work that fast_gemm.cuh does with one barrier per tile
/// of depth 8: half the barriers per multiply-add. The A tile stays row-major (a_tile[row][depth])
/// so every copy moves 16 bytes; the compute loop reads it as float4s along the depth.
/// Read fast_gemm.cuh first (tiling, split-K, store_sums); the launcher is fast_gemm_launch.cu.
#pragma once

#include "step4_boundary_checks/going_further/fast_gemm.cuh"

namespace course::step4 {

/// @brief Buffers in the ring: tile t is computed while tiles t+1 and t+2 are being copied.
constexpr int kAsyncStages = 3;

// cp.async exists from sm_80 (Ampere) on. Compiled for an older target (sm_75, or the compute_75
// PTX that a newer GPU's driver compiles at load time), the three functions below copy
// synchronously instead: each thread loads its elements and stores them into shared memory
// itself, and the kernel's barriers make them visible exactly as they make the asynchronous
// copies visible. The ring then still works (a tile is written, a barrier passes, then it is
// read), only without the overlap. The host chooses these tiles only where the device and the
// compiled code have cp.async (fast_gemm_launch.cu); asked for by name, they run everywhere.
/// @def COURSE_ASYNC_COPIES
/// @brief 1 where this file compiles the cp.async instructions (sm_80 and newer), 0 where it
/// compiles the synchronous copies.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define COURSE_ASYNC_COPIES 1
#else
#define COURSE_ASYNC_COPIES 0
#endif

/// @brief Starts an asynchronous copy of @p bytes (4 or 16) from global to shared memory;
/// @p source_bytes of them are read and the rest zero-filled (0 reads nothing: a zero tile
/// entry outside the matrix, with @p source still a valid address). Before sm_80: the same
/// copy, done at once.
/// @tparam BYTES 4 or 16
/// @param shared_destination where the bytes go (aligned to BYTES)
/// @param source where they come from (aligned to BYTES)
/// @param source_bytes BYTES or 0
template <int BYTES>
__device__ __forceinline__ void copy_async(float* shared_destination, const float* source,
                                           int source_bytes) {
  static_assert(BYTES == 4 || BYTES == 16, "cp.async copies 4, 8 or 16 bytes; we use 4 and 16");
#if COURSE_ASYNC_COPIES
  const unsigned destination = static_cast<unsigned>(__cvta_generic_to_shared(shared_destination));
  if constexpr (BYTES == 16) {
    // .cg: cache in L2 only; the tile is reused from shared memory, not from L1.
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(destination), "l"(source),
                 "r"(source_bytes));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(destination), "l"(source),
                 "r"(source_bytes));
  }
#else
  // No cp.async: source_bytes == 0 reads nothing and stores zeros, as the zero-fill does.
  if constexpr (BYTES == 16) {
    *reinterpret_cast<float4*>(shared_destination) =
        source_bytes != 0 ? *reinterpret_cast<const float4*>(source) : make_float4(0, 0, 0, 0);
  } else {
    *shared_destination = source_bytes != 0 ? *source : 0.0f;
  }
#endif
}

/// @brief Closes the group of copies this thread has started since the last commit (before
/// sm_80: nothing to do, the copies are done).
__device__ __forceinline__ void commit_copies() {
#if COURSE_ASYNC_COPIES
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/// @brief Waits until at most @p PENDING of this thread's committed groups are still in flight
/// (before sm_80: nothing is in flight).
/// @tparam PENDING groups allowed to remain in flight
template <int PENDING>
__device__ __forceinline__ void wait_copies() {
#if COURSE_ASYNC_COPIES
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
#endif
}

/// @brief Starts copying this thread's share of a TILE_ROWS×TILE_COLS tile of a row-major
/// matrix into @p tile (row-major, TILE_COLS floats a row), four columns at a time; entries
/// outside the matrix become zero. The same function copies the A tile (BM rows of A, BK
/// columns) and the B tile (BK rows of B, BN columns): the A-tile and B-tile checks are one test,
/// "is the element inside its matrix?".
/// @tparam TILE_ROWS rows of the tile
/// @tparam TILE_COLS columns of the tile (a multiple of 4)
/// @tparam THREADS threads of the block sharing the copy
/// @tparam VECTOR one 16-byte copy per group (the matrix has a multiple of 4 columns and is
/// 16-byte aligned); otherwise four 4-byte copies
/// @param matrix A or B, row-major
/// @param matrix_rows the rows of @p matrix
/// @param matrix_cols the columns of @p matrix (its row length)
/// @param tile_row0 the row of @p matrix where the tile starts
/// @param tile_col0 the column of @p matrix where the tile starts
/// @param tile the shared-memory buffer, TILE_ROWS×TILE_COLS floats
template <int TILE_ROWS, int TILE_COLS, int THREADS, bool VECTOR>
__device__ __forceinline__ void copy_tile_async(const float* __restrict__ matrix, int matrix_rows,
                                                int matrix_cols, int tile_row0, int tile_col0,
                                                float* tile) {
  using Groups = TileGroups<TILE_ROWS, TILE_COLS, THREADS>;
#pragma unroll
  for (int group = 0; group < Groups::kPerThread; ++group) {
    const int tile_row = Groups::row(group);
    const int tile_col = Groups::col();
    const int row = tile_row0 + tile_row;
    const int col = tile_col0 + tile_col;
    float* destination = tile + tile_row * TILE_COLS + tile_col;
    const bool row_inside = row < matrix_rows;  // tile check, rows: past the last row
    const float* row_start = matrix + static_cast<long long>(row_inside ? row : 0) * matrix_cols;
    if constexpr (VECTOR) {
      // Tile check: the row past the last one, or the four columns past the row's end (all or
      // none: the row length and col are multiples of 4). Outside: zero-fill, read nothing.
      const bool inside = row_inside && col < matrix_cols;
      copy_async<16>(destination, inside ? row_start + col : matrix, inside ? 16 : 0);
    } else {
#pragma unroll
      for (int part = 0; part < 4; ++part) {
        // Tile check, columns, one by one: past the end of the row (the next row's data).
        const bool inside = row_inside && col + part < matrix_cols;
        copy_async<4>(destination + part, inside ? row_start + col + part : matrix, inside ? 4 : 0);
      }
    }
  }
}

/// @brief Adds one tile's products to the thread's 8×8 sums, reading the row-major A tile as
/// float4s along the depth: for each 4 depths, 8 float4s of A (one per row of the thread) and
/// 2 float4s of B per depth. A warp's 8-lane phases share one thread row (thread_position), so
/// each A read is a broadcast, and each B read covers 128 consecutive bytes: no bank conflicts.
/// @tparam Tiling a FastTiling
/// @param a_tile the A tile, [kBlockRows][kDepth]
/// @param b_tile the B tile, [kDepth][kBlockCols]
/// @param thread_row the thread's row in the thread grid (thread_position)
/// @param thread_col the thread's column in the thread grid
/// @param sums the thread's outputs, updated
template <typename Tiling>
__device__ __forceinline__ void multiply_row_major_tile(const float* a_tile, const float* b_tile,
                                                        int thread_row, int thread_col,
                                                        float (&sums)[8][8]) {
  constexpr int kQ = Tiling::kQuadrant;
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
  constexpr int kBK = Tiling::kDepth;
#pragma unroll
  for (int depth0 = 0; depth0 < kBK; depth0 += 4) {
    float4 a_rows[2 * kQ];  // a_rows[i] = A[row i of the thread][depth0 .. depth0 + 3]
#pragma unroll
    for (int i = 0; i < 2 * kQ; ++i) {
      const int tile_row = i < kQ ? thread_row * kQ + i : kBM / 2 + thread_row * kQ + i - kQ;
      a_rows[i] = *reinterpret_cast<const float4*>(a_tile + tile_row * kBK + depth0);
    }
#pragma unroll
    for (int step = 0; step < 4; ++step) {
      const float* b_row = b_tile + (depth0 + step) * kBN;
      const float4 b_low = *reinterpret_cast<const float4*>(b_row + thread_col * kQ);
      const float4 b_high = *reinterpret_cast<const float4*>(b_row + kBN / 2 + thread_col * kQ);
      const float b_frag[2 * kQ] = {b_low.x,  b_low.y,  b_low.z,  b_low.w,
                                    b_high.x, b_high.y, b_high.z, b_high.w};
#pragma unroll
      for (int i = 0; i < 2 * kQ; ++i) {
        const float a_value = step == 0   ? a_rows[i].x
                              : step == 1 ? a_rows[i].y
                              : step == 2 ? a_rows[i].z
                                          : a_rows[i].w;
#pragma unroll
        for (int j = 0; j < 2 * kQ; ++j) {
          sums[i][j] += a_value * b_frag[j];
        }
      }
    }
  }
}

/// @brief C = A·B for any rows, inner, cols >= 1, with asynchronous copies; with split-K, one
/// slice of the inner dimension. Same grid, split-K slices, block order and outputs as
/// fast_gemm_kernel; only the way tiles reach shared memory differs.
///
/// The ring: before the loop, tiles 0 and 1 are requested. In iteration t the thread waits for
/// its copies of tile t, the barrier makes everyone's copies visible, then tile t+2 is requested
/// into the buffer of tile t-1 (which everyone finished before the barrier) and tile t is
/// multiplied while t+1 and t+2 are in flight.
///
/// Preconditions: those of fast_gemm_kernel, with Tiling::kDepth = 16; VECTOR_A only when
/// inner % 4 == 0 and A is 16-byte aligned; VECTOR_BC only when cols % 4 == 0 and B and out are
/// 16-byte aligned.
/// @tparam Tiling a FastTiling
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
__global__ void __launch_bounds__(Tiling::kThreads, 2)
    async_copy_gemm_kernel(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ out, int rows, int inner, int cols,
                           int tiles_per_split, int group_rows) {
  constexpr int kBM = Tiling::kBlockRows;
  constexpr int kBN = Tiling::kBlockCols;
  constexpr int kBK = Tiling::kDepth;
  static_assert(kBK == 16, "the ring is sized for depth 16 (4 float4s of A a row)");
  static_assert(kAsyncStages * kBK * (kBM + kBN) * 4 <= 48 * 1024,
                "the ring must fit 48 KiB of static shared memory");
  __shared__ __align__(16) float a_tiles[kAsyncStages][kBM * kBK];
  __shared__ __align__(16) float b_tiles[kAsyncStages][kBK * kBN];

  const BlockWork work = block_work<Tiling>(inner, tiles_per_split, group_rows);

  // Requests tile `tile` into ring slot `tile % kAsyncStages`; a tile past the split's end
  // requests nothing, but its (empty) group is still committed so the counting stays uniform.
  auto request = [&](int tile) {
    if (tile < work.end_tile) {
      const int slot = (tile - work.first_tile) % kAsyncStages;
      copy_tile_async<kBM, kBK, Tiling::kThreads, VECTOR_A>(a, rows, inner, work.block_row0,
                                                            tile * kBK, a_tiles[slot]);
      copy_tile_async<kBK, kBN, Tiling::kThreads, VECTOR_BC>(b, inner, cols, tile * kBK,
                                                             work.block_col0, b_tiles[slot]);
    }
    commit_copies();
  };

  float sums[8][8] = {};
  request(work.first_tile);
  request(work.first_tile + 1);
  for (int tile = work.first_tile; tile < work.end_tile; ++tile) {
    wait_copies<1>();  // this thread's copies of `tile` have landed (tile + 1 may be in flight)
    __syncthreads();   // everyone's copies of `tile` are visible, and everyone has finished
                       // multiplying tile - 1, whose slot the next request overwrites
    request(tile + 2);
    const int slot = (tile - work.first_tile) % kAsyncStages;
    multiply_row_major_tile<Tiling>(a_tiles[slot], b_tiles[slot], work.thread_row, work.thread_col,
                                    sums);
  }
  wait_copies<0>();  // no copy may still be writing shared memory when the block exits
  store_sums<Tiling, VECTOR_BC>(sums, out + static_cast<size_t>(blockIdx.z) * rows * cols, rows,
                                cols, work.block_row0, work.block_col0, work.thread_row,
                                work.thread_col);
}

}  // namespace course::step4
