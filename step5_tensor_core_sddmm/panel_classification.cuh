/// @file panel_classification.cuh
/// @brief Preprocessing of approach 4 on the GPU: which 16-row panels of S are dense enough
/// for Tensor Cores.
///
/// A 16×16 WMMA tile computes 256 products whether the tile holds 1 nonzero or 256. Reading
/// its A and Bᵀ slices costs about as much as 16 nonzeros done on CUDA cores (each reads a
/// row of A and a row of Bᵀ), so Tensor Cores pay off only where tiles hold more than about
/// 16 nonzeros: a density near 1/16. One thread per panel counts the panel's nonzeros with
/// two binary searches in the sorted row indices (no CSR needed) and appends dense panels to
/// a list with an atomic counter.
#pragma once

#include <cstdint>

namespace step5 {

/// @brief Rows per panel (the WMMA tile height).
constexpr int kPanelRows = 16;

/// @brief First position in the sorted array @p sorted (length @p count) whose value is
/// >= @p value.
/// @param sorted non-decreasing array
/// @param count its length
/// @param value the value sought
/// @return the position, in [0, count]
__device__ inline std::int64_t lower_bound_index(const int* sorted, std::int64_t count, int value) {
  std::int64_t low = 0;
  std::int64_t high = count;
  while (low < high) {
    const std::int64_t middle = low + (high - low) / 2;
    if (sorted[middle] < value) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

/// @brief Marks the panels whose density (nonzeros / (rows · N)) reaches @p threshold and
/// lists them in @p dense_panels (in no particular order), counting them in @p dense_count.
///
/// Preconditions: @p row_indices sorted; @p dense_count zeroed; one thread per panel.
/// @param panel_count number of panels, ceil(M / 16)
/// @param rows M
/// @param cols N
/// @param row_indices sorted rows of the nonzeros
/// @param nnz number of nonzeros
/// @param threshold density from which a panel uses Tensor Cores
/// @param panel_is_dense one flag per panel (output)
/// @param dense_panels list of dense panels (output)
/// @param dense_count number of dense panels (output)
__global__ void classify_panels_kernel(int panel_count, int rows, int cols, const int* row_indices,
                                       std::int64_t nnz, double threshold,
                                       unsigned char* panel_is_dense, int* dense_panels,
                                       int* dense_count) {
  const int panel = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (panel >= panel_count) {
    return;  // threads past the last panel
  }
  const int first_row = panel * kPanelRows;
  const int end_row = min(first_row + kPanelRows, rows);
  const std::int64_t count =
      lower_bound_index(row_indices, nnz, end_row) - lower_bound_index(row_indices, nnz, first_row);
  const double density =
      static_cast<double>(count) / (static_cast<double>(end_row - first_row) * cols);
  const bool dense = density >= threshold;
  panel_is_dense[panel] = dense ? 1 : 0;
  if (dense) {
    dense_panels[atomicAdd(dense_count, 1)] = panel;
  }
}

}  // namespace step5
