/// @file sddmm_hybrid.cuh
/// @brief Approach 4, the fast one: CUDA cores for sparse rows, Tensor Cores for dense panels.
///
/// Most matrices of the benchmark are so sparse (99.97 % and more) that a 16×16 tile holds
/// one nonzero or none: a WMMA tile would compute 256 products to keep one. For them a small
/// group of lanes per nonzero reads the row of A and the row of Bᵀ with 16-byte vector loads
/// (8 halves per load), multiplies in float and adds the group's partial sums with shuffles.
/// The work is split by nonzero, not by row, so long rows cannot unbalance the warps, and it
/// needs no preprocessing at all. Only 16-row panels whose density reaches
/// Options::tc_density (found by classify_panels_kernel) go to the Tensor Core kernel, which
/// walks the panel's tiles and skips the empty ones.
#pragma once

#include "panel_classification.cuh"
#include "wmma_tile_product.cuh"

#include <cuda_fp16.h>

#include <cstdint>

namespace step5 {

/// @brief acc += dot of 8 halves of @p a with 8 halves of @p b, in float.
/// @param a 8 halves (16 bytes)
/// @param b 8 halves (16 bytes)
/// @param acc accumulator
/// @return the new accumulator
__device__ inline float dot8(const uint4& a, const uint4& b, float acc) {
  const __half2* a_pairs = reinterpret_cast<const __half2*>(&a);
  const __half2* b_pairs = reinterpret_cast<const __half2*>(&b);
#pragma unroll
  for (int pair = 0; pair < 4; ++pair) {
    const float2 a_values = __half22float2(a_pairs[pair]);
    const float2 b_values = __half22float2(b_pairs[pair]);
    acc = fmaf(a_values.x, b_values.x, acc);
    acc = fmaf(a_values.y, b_values.y, acc);
  }
  return acc;
}

/// @brief One group of kGroupLanes lanes per nonzero, CUDA cores.
///
/// Preconditions: blockDim.x is a multiple of 32; kVector only when A and Bᵀ allow 16-byte
/// loads (allows_vector_loads); kSkipDensePanels only with @p panel_is_dense from
/// classify_panels_kernel (those nonzeros are written by tensor_core_panel_kernel).
/// @tparam kGroupLanes lanes per nonzero (a power of two, 1..32)
/// @tparam kVector read 8 halves per load
/// @tparam kSkipDensePanels leave the nonzeros of dense panels alone
/// @param operands A and Bᵀ
/// @param nnz number of nonzeros
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero
/// @param panel_is_dense one flag per 16-row panel (kSkipDensePanels only)
/// @param output one float per nonzero
template <int kGroupLanes, bool kVector, bool kSkipDensePanels>
__global__ void __launch_bounds__(256)
    lane_group_kernel(DenseOperands operands, std::int64_t nnz, const int* __restrict__ row_indices,
                      const int* __restrict__ col_indices, const float* __restrict__ values,
                      const unsigned char* __restrict__ panel_is_dense,
                      float* __restrict__ output) {
  static_assert(kGroupLanes >= 1 && kGroupLanes <= 32 && (kGroupLanes & (kGroupLanes - 1)) == 0,
                "a group is a power of two of lanes within one warp");
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t nonzero = thread / kGroupLanes;
  const int lane_in_group = static_cast<int>(threadIdx.x) % kGroupLanes;
  // Lanes past the last nonzero (and of dense panels) stay: they must join the shuffles.
  bool active = nonzero < nnz;
  float partial = 0.0f;
  if (active) {
    const int row = __ldg(row_indices + nonzero);
    const int col = __ldg(col_indices + nonzero);
    if (kSkipDensePanels && panel_is_dense[row / kPanelRows] != 0) {
      active = false;  // the Tensor Core kernel writes this nonzero
    } else {
      const __half* a_row = operands.a + static_cast<std::int64_t>(row) * operands.lda;
      const __half* b_row = operands.b_transposed + static_cast<std::int64_t>(col) * operands.ldb;
      int k_scalar = lane_in_group;
      if (kVector) {
        const int full_chunks = operands.inner / 8;
#pragma unroll 4
        for (int chunk = lane_in_group; chunk < full_chunks; chunk += kGroupLanes) {
          const uint4 a_chunk = __ldg(reinterpret_cast<const uint4*>(a_row) + chunk);
          const uint4 b_chunk = __ldg(reinterpret_cast<const uint4*>(b_row) + chunk);
          partial = dot8(a_chunk, b_chunk, partial);
        }
        k_scalar = full_chunks * 8 + lane_in_group;  // the K % 8 tail, if any
      }
      for (int k = k_scalar; k < operands.inner; k += kGroupLanes) {
        partial = fmaf(__half2float(a_row[k]), __half2float(b_row[k]), partial);
      }
    }
  }
  // Butterfly inside the group: offsets below kGroupLanes keep partners in the same group,
  // and every lane of the warp executes every shuffle, so the full mask is exact.
#pragma unroll
  for (int offset = kGroupLanes / 2; offset > 0; offset >>= 1) {
    partial += __shfl_xor_sync(0xFFFFFFFFu, partial, offset);
  }
  if (active && lane_in_group == 0) {
    output[nonzero] = __ldg(values + nonzero) * partial;
  }
}

/// @brief Tensor Cores for the dense panels: one block per listed panel, its warps take the
/// panel's tile columns in turn, skip empty tiles, and write the tile's nonzeros from a copy
/// of the accumulator in shared memory (lane r < 16 walks row r).
///
/// Preconditions: S sorted row-major; blockDim.x = 32 · kWarps; dense_panels from
/// classify_panels_kernel.
/// @tparam kWarps warps per block
/// @param operands A and Bᵀ
/// @param dense_panels the panels to compute, one per block
/// @param row_indices sorted rows of the nonzeros
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros
/// @param nnz number of nonzeros
/// @param vector_a A allows 16-byte loads
/// @param vector_b Bᵀ allows 16-byte loads
/// @param output one float per nonzero
template <int kWarps>
__global__ void __launch_bounds__(32 * kWarps)
    tensor_core_panel_kernel(DenseOperands operands, const int* dense_panels,
                             const int* row_indices, const int* col_indices, const float* values,
                             std::int64_t nnz, bool vector_a, bool vector_b, float* output) {
  static_assert(kWarps >= 1 && kWarps <= 32, "1..32 warps per block");
  __shared__ WarpStage stages[kWarps];
  __shared__ int row_begin[kPanelRows + 1];
  const int panel = dense_panels[blockIdx.x];
  const int first_row = panel * kPanelRows;
  if (threadIdx.x <= kPanelRows) {
    const int row = min(first_row + static_cast<int>(threadIdx.x), operands.rows);
    row_begin[threadIdx.x] = static_cast<int>(lower_bound_index(row_indices, nnz, row));
  }
  __syncthreads();  // the panel's row ranges are known to every warp
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  // Lane r < 16 follows row first_row + r; its cursor only moves right, tile after tile.
  int cursor = lane < kPanelRows ? row_begin[lane] : 0;
  const int row_end = lane < kPanelRows ? row_begin[lane + 1] : 0;
  float* tile_values = reinterpret_cast<float*>(&stages[warp]);  // 256 floats after the product
  const int tile_cols = (operands.cols + kTile - 1) / kTile;
  for (int tile_col = warp; tile_col < tile_cols; tile_col += kWarps) {
    const int first_col = tile_col * kTile;
    while (cursor < row_end && col_indices[cursor] < first_col) {
      ++cursor;  // nonzeros of tiles that other warps own
    }
    const bool has_nonzero = cursor < row_end && col_indices[cursor] < first_col + kTile;
    if (!__any_sync(0xFFFFFFFFu, has_nonzero)) {
      continue;  // an empty tile: no Tensor Core work (uniform across the warp)
    }
    AccumulatorFragment accumulator;
    warp_tile_product(accumulator, operands, panel, tile_col, stages[warp], lane, vector_a,
                      vector_b);
    nvcuda::wmma::store_matrix_sync(tile_values, accumulator, kTile, nvcuda::wmma::mem_row_major);
    __syncwarp();  // the stored tile is visible to every lane
    while (cursor < row_end && col_indices[cursor] < first_col + kTile) {
      output[cursor] = values[cursor] * tile_values[lane * kTile + col_indices[cursor] - first_col];
      ++cursor;
    }
    __syncwarp();  // all lanes have read the tile before the next product reuses the stage
  }
}

}  // namespace step5
