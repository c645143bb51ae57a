/// @file thin_products.cuh
/// @brief Going further, the shapes a tile cannot serve: when P has at most 8 rows or at most
/// 8 columns, a 64×64 tile would compute mostly zeros and the product is really a
/// matrix-vector product, bound by reading the large input once. Read fast_gemm.cuh first
/// (split-K); the launcher is fast_gemm_launch.cu, the choice fast_gemm_config.cpp.
#pragma once

#include "step4_boundary_checks/fast_gemm_config.hpp"

namespace step4 {

/// @brief P = M·N when I <= kThinMax: one thread per column of P, all I rows at once.
///
/// Each block stages a chunk of M (I rows × kThinChunk columns, zero past I and past the
/// split's end) in shared memory, transposed so a thread reads one float per (j, row) with
/// every thread of the warp reading the same address (a broadcast); then each thread walks
/// the chunk down its column of N (coalesced across the warp) and updates its I sums.
/// Split-K: block z covers chunks [z·chunks_per_split, (z+1)·chunks_per_split) of J and writes
/// slice z of @p out (I×K floats), as fast_gemm_kernel does.
/// Preconditions: blockDim.x = kThinChunk; gridDim = (ceil(K / kThinChunk), 1, splits) with
/// no split empty; 1 <= I <= kThinMax; @p out holds gridDim.z slices of I×K floats.
/// @param m_matrix M, I×J
/// @param n_matrix N, J×K
/// @param out P, or the split-K workspace
/// @param rows I
/// @param inner J
/// @param cols K
/// @param chunks_per_split chunks of kThinChunk that one split covers
__global__ void thin_rows_kernel(const float* __restrict__ m_matrix,
                                 const float* __restrict__ n_matrix, float* __restrict__ out,
                                 int rows, int inner, int cols, int chunks_per_split) {
  __shared__ float m_chunk[kThinChunk][kThinMax];
  const int col = blockIdx.x * kThinChunk + threadIdx.x;
  const int split_begin = blockIdx.z * chunks_per_split * kThinChunk;
  const int split_end = min(inner, split_begin + chunks_per_split * kThinChunk);
  float sums[kThinMax] = {};
  for (int chunk0 = split_begin; chunk0 < split_end; chunk0 += kThinChunk) {
    const int depth = chunk0 + threadIdx.x;
#pragma unroll
    for (int row = 0; row < kThinMax; ++row) {
      // Past I (rows beyond the matrix) or past the split's end: zero, so the loop needs
      // no check on M.
      m_chunk[threadIdx.x][row] =
          row < rows && depth < split_end ? m_matrix[row * inner + depth] : 0.0f;
    }
    __syncthreads();  // the chunk of M is complete before anyone reads it
    const int chunk_end = min(kThinChunk, split_end - chunk0);
    if (col < cols) {  // a column past K computes nothing (but helped to stage M above)
      for (int step = 0; step < chunk_end; ++step) {
        const float n_value = n_matrix[(chunk0 + step) * cols + col];
#pragma unroll
        for (int row = 0; row < kThinMax; ++row) {
          sums[row] += m_chunk[step][row] * n_value;
        }
      }
    }
    __syncthreads();  // everyone is done with this chunk before the next overwrites it
  }
  float* p_matrix = out + static_cast<size_t>(blockIdx.z) * rows * cols;
  if (col < cols) {  // P check: the column past K
#pragma unroll
    for (int row = 0; row < kThinMax; ++row) {
      if (row < rows) {  // P check: rows past I
        p_matrix[row * cols + col] = sums[row];
      }
    }
  }
}

/// @brief P = M·N when K <= kThinMax: one warp per row of P, all K columns at once.
///
/// The lanes of a warp walk the row of M together (lane j reads M[row][j], coalesced) and
/// read N's row j (K consecutive floats, so the warp reads one contiguous stretch of N), each
/// lane keeping K partial sums; at the end the warp adds its lanes' sums with shuffles.
/// Split-K as in thin_rows_kernel: block z covers chunks [z·chunks_per_split, ...) of J.
/// Preconditions: blockDim.x = 32·warps; gridDim = (ceil(I / warps), 1, splits) with no split
/// empty; 1 <= K <= kThinMax; @p out holds gridDim.z slices of I×K floats.
/// @param m_matrix M, I×J
/// @param n_matrix N, J×K
/// @param out P, or the split-K workspace
/// @param rows I
/// @param inner J
/// @param cols K
/// @param chunks_per_split chunks of kThinChunk that one split covers
__global__ void thin_cols_kernel(const float* __restrict__ m_matrix,
                                 const float* __restrict__ n_matrix, float* __restrict__ out,
                                 int rows, int inner, int cols, int chunks_per_split) {
  const int warps = blockDim.x / 32;
  const int row = blockIdx.x * warps + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  // A row past I: the whole warp leaves together, so the shuffles below see full warps.
  if (row >= rows) {
    return;
  }
  const int split_begin = blockIdx.z * chunks_per_split * kThinChunk;
  const int split_end = min(inner, split_begin + chunks_per_split * kThinChunk);
  float sums[kThinMax] = {};
  for (int depth = split_begin + lane; depth < split_end; depth += 32) {
    const float m_value = m_matrix[row * inner + depth];
    const float* n_row = n_matrix + depth * cols;
#pragma unroll
    for (int col = 0; col < kThinMax; ++col) {
      if (col < cols) {  // columns past K: nothing to read
        sums[col] += m_value * n_row[col];
      }
    }
  }
  float* p_matrix = out + static_cast<size_t>(blockIdx.z) * rows * cols;
#pragma unroll
  for (int col = 0; col < kThinMax; ++col) {
    float sum = sums[col];
    // All 32 lanes are here (the warp stayed whole), so the full mask names every lane.
    for (int offset = 16; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    }
    if (lane == 0 && col < cols) {  // P check: columns past K
      p_matrix[row * cols + col] = sum;
    }
  }
}

}  // namespace step4
