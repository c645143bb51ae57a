/// @file thin_products.cuh
/// @brief Going further, the shapes a tile cannot serve: when C has at most 8 rows or at most
/// 8 columns, a 64×64 tile would compute mostly zeros and the product is really a
/// matrix-vector product, bound by reading the large input once. Read fast_gemm.cuh first
/// (split-K); the launcher is fast_gemm_launch.cu, the choice fast_gemm_cost_model.cpp.
#pragma once

#include "common/warp_lanes.cuh"
#include "step4_boundary_checks/going_further/fast_gemm_config.hpp"

namespace course::step4 {

/// @brief C = A·B when rows <= kThinMax: one thread per column of C, all its rows at once.
///
/// Each block stages a chunk of A (rows × kThinChunk columns, zero past rows and past the
/// split's end) in shared memory, transposed so a thread reads one float per (j, row) with
/// every thread of the warp reading the same address (a broadcast); then each thread walks
/// the chunk down its column of B (coalesced across the warp) and updates its rows sums.
/// Split-K: block z covers chunks [z·chunks_per_split, (z+1)·chunks_per_split) of inner and writes
/// slice z of @p out (rows×cols floats), as fast_gemm_kernel does.
/// Preconditions: blockDim.x = kThinChunk; gridDim = (ceil(cols / kThinChunk), 1, splits) with
/// no split empty; 1 <= rows <= kThinMax; @p out holds gridDim.z slices of rows×cols floats.
/// @param a A, rows×inner
/// @param b B, inner×cols
/// @param out C, or the split-K workspace
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param chunks_per_split chunks of kThinChunk that one split covers
__global__ void thin_rows_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ out, int rows, int inner, int cols,
                                 int chunks_per_split) {
  __shared__ float a_chunk[kThinChunk][kThinMax];
  const int col = blockIdx.x * kThinChunk + threadIdx.x;
  const int split_begin = blockIdx.z * chunks_per_split * kThinChunk;
  const int split_end = min(inner, split_begin + chunks_per_split * kThinChunk);
  float sums[kThinMax] = {};
  for (int chunk0 = split_begin; chunk0 < split_end; chunk0 += kThinChunk) {
    const int depth = chunk0 + threadIdx.x;
#pragma unroll
    for (int row = 0; row < kThinMax; ++row) {
      // Past rows (rows beyond the matrix) or past the split's end: zero, so the loop needs
      // no check on A.
      a_chunk[threadIdx.x][row] = row < rows && depth < split_end ? a[row * inner + depth] : 0.0f;
    }
    __syncthreads();  // the chunk of A is complete before anyone reads it
    const int chunk_end = min(kThinChunk, split_end - chunk0);
    if (col < cols) {  // a column past cols computes nothing (but helped to stage A above)
      // Unrolled so that 32 loads of B are in flight at once: one at a time, each step would
      // wait a whole trip to memory, and a thin product has few threads to hide it with.
#pragma unroll 32
      for (int step = 0; step < chunk_end; ++step) {
        const float b_value = b[(chunk0 + step) * cols + col];
#pragma unroll
        for (int row = 0; row < kThinMax; ++row) {
          sums[row] += a_chunk[step][row] * b_value;
        }
      }
    }
    __syncthreads();  // everyone is done with this chunk before the next overwrites it
  }
  float* c = out + static_cast<size_t>(blockIdx.z) * rows * cols;
  if (col < cols) {  // C check: the column past cols
#pragma unroll
    for (int row = 0; row < kThinMax; ++row) {
      if (row < rows) {  // C check: rows past rows
        c[row * cols + col] = sums[row];
      }
    }
  }
}

/// @brief C = A·B when cols <= kThinMax: one warp per row of C, all cols columns at once.
///
/// The lanes of a warp walk the row of A together (lane j reads A[row][j], coalesced) and
/// read B's row j (cols consecutive floats, so the warp reads one contiguous stretch of B), each
/// lane keeping cols partial sums; at the end the warp adds its lanes' sums with shuffles.
/// Split-K as in thin_rows_kernel: block z covers chunks [z·chunks_per_split, ...) of inner.
/// Preconditions: blockDim.x = 32·warps; gridDim = (ceil(rows / warps), 1, splits) with no split
/// empty; 1 <= cols <= kThinMax; @p out holds gridDim.z slices of rows×cols floats.
/// @param a A, rows×inner
/// @param b B, inner×cols
/// @param out C, or the split-K workspace
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param chunks_per_split chunks of kThinChunk that one split covers
__global__ void thin_cols_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                 float* __restrict__ out, int rows, int inner, int cols,
                                 int chunks_per_split) {
  const int warps = blockDim.x / 32;
  const int row = blockIdx.x * warps + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  // A row past rows: the whole warp leaves together, so the shuffles below see full warps.
  if (row >= rows) {
    return;
  }
  const int split_begin = blockIdx.z * chunks_per_split * kThinChunk;
  const int split_end = min(inner, split_begin + chunks_per_split * kThinChunk);
  float sums[kThinMax] = {};
  for (int depth = split_begin + lane; depth < split_end; depth += 32) {
    const float a_value = a[row * inner + depth];
    const float* b_row = b + depth * cols;
#pragma unroll
    for (int col = 0; col < kThinMax; ++col) {
      if (col < cols) {  // columns past cols: nothing to read
        sums[col] += a_value * b_row[col];
      }
    }
  }
  float* c = out + static_cast<size_t>(blockIdx.z) * rows * cols;
#pragma unroll
  for (int col = 0; col < kThinMax; ++col) {
    float sum = sums[col];
    // All 32 lanes are here (the warp stayed whole), so the full mask names every lane.
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(course::kAllLanes, sum, offset);
    }
    if (lane == 0 && col < cols) {  // C check: columns past cols
      c[row * cols + col] = sum;
    }
  }
}

}  // namespace course::step4
