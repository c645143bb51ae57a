// Step 5, approach 4 (lesson Part 2, "Row windows"): the lane groups again, in another order.
// Read first: sddmm_hybrid.cuh (lane_group_kernel and row_dot_fixed), then row_windows.hpp.
/// @file sddmm_row_windows.cuh
/// @brief Approach 4's CUDA-core kernel for S whose rows share columns: the rows of a block
/// walk the same window of columns together, so that a row of Bᵀ that one row loads is
/// still in L1 when a neighbouring row needs it.
///
/// lane_group_kernel takes S's nonzeros in S's order: one block runs through consecutive
/// nonzeros of one or two rows, and every nonzero reads its own 512-byte row of Bᵀ from L2
/// (at inner = 256). Where S is dense enough that neighbouring rows often hold the same
/// column (a uniform mask at 3 % over 16 rows: a column of the window is in 1 - 0.97¹⁶ = 39 %
/// of them, so about 20 % of the loads find their row of Bᵀ already in L1), it pays to walk
/// the rows side by side. Here one warp walks one row's nonzeros inside one window of
/// columns, kRowsPerBlock neighbouring rows per block in the same window, each warp's nonzeros
/// in groups of kGroupLanes lanes exactly as lane_group_kernel computes them.
#pragma once

#include "sddmm_hybrid.cuh"
#include "step5_launchers.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief One warp per (row, column window), kRowsPerBlock rows of one window per block.
///
/// Block b computes window b % windows of rows (b / windows)·kRowsPerBlock onwards, one warp
/// per row; the warp's nonzeros are window_starts[row·(windows + 1) + window] up to the next
/// start, taken 32 / kGroupLanes at a time, one group of kGroupLanes lanes per nonzero.
/// Preconditions: blockDim.x = 32·kRowsPerBlock; A and Bᵀ allow 16-byte loads
/// (allows_vector_loads) and inner = 8·kFixedChunks; @p window_starts from build_row_windows
/// for this S and @p windows; S has at most INT_MAX entries (the starts are int).
/// @tparam kGroupLanes lanes per nonzero (a power of two, 1..32)
/// @tparam kRowsPerBlock rows (warps) per block
/// @tparam kFixedChunks inner / 8
/// @param operands A and Bᵀ
/// @param col_indices column of each nonzero
/// @param values value of each nonzero, or nullptr when every value is one
/// @param window_starts the first nonzero of each row in each window, and the row's end
/// @param windows column windows per row
/// @param output one float per nonzero
template <int kGroupLanes, int kRowsPerBlock, int kFixedChunks>
__global__ void __launch_bounds__(32 * kRowsPerBlock)
    row_window_kernel(DenseOperands operands, const int* __restrict__ col_indices,
                      const float* __restrict__ values, const int* __restrict__ window_starts,
                      int windows, float* __restrict__ output) {
  static_assert(kGroupLanes >= 1 && kGroupLanes <= 32 && (kGroupLanes & (kGroupLanes - 1)) == 0,
                "a group is a power of two of lanes within one warp");
  static_assert(kRowsPerBlock >= 1 && kRowsPerBlock <= 32, "one warp per row, 32 warps at most");
  static_assert(kFixedChunks > 0 && kFixedChunks % kGroupLanes == 0,
                "whole 16-byte chunks, the same number in every lane");
  constexpr int kGroupsPerWarp = 32 / kGroupLanes;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int row = static_cast<int>(blockIdx.x) / windows * kRowsPerBlock + warp;
  const int window = static_cast<int>(blockIdx.x) % windows;
  if (row >= operands.rows) {
    return;  // the last block's rows past S's last row: no barrier follows, so a warp may leave
  }
  const int* starts = window_starts + static_cast<std::int64_t>(row) * (windows + 1) + window;
  const int first = __ldg(starts);
  const int end = __ldg(starts + 1);
  const __half* a_row = operands.a + static_cast<std::int64_t>(row) * operands.lda;
  const int lane_in_group = lane % kGroupLanes;
  // first and end are the same for the whole warp, so every lane runs every pass and joins
  // every shuffle: the full mask is exact.
  for (int base = first; base < end; base += kGroupsPerWarp) {
    const int nonzero = base + lane / kGroupLanes;
    const bool active = nonzero < end;  // the row's last pass may hold fewer nonzeros
    float partial = 0.0f;
    if (active) {
      const int col = __ldg(col_indices + nonzero);
      const __half* b_row = operands.b_transposed + static_cast<std::int64_t>(col) * operands.ldb;
      partial = row_dot_fixed<kGroupLanes, kFixedChunks>(a_row, b_row, lane_in_group);
    }
#pragma unroll
    for (int offset = kGroupLanes / 2; offset > 0; offset >>= 1) {
      partial += __shfl_xor_sync(0xFFFFFFFFu, partial, offset);
    }
    if (active && lane_in_group == 0) {
      output[nonzero] = values == nullptr ? partial : __ldg(values + nonzero) * partial;
    }
  }
}

}  // namespace course::step5
