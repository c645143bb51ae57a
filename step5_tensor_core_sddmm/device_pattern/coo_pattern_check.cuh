/// @file coo_pattern_check.cuh
/// @brief The check of a large S uploaded as COO, on the GPU: every entry in range and in
/// row-major order, the nonzeros of each 64-row panel counted and the columns they span found.
///
/// Step 5, S on the device (device_pattern/README.md): the GPU check of COO.
/// Read first: panel_classification.cuh (what a panel is), then pattern_upload_coo.cu.
///
/// The counts come from two binary searches per panel in the sorted row indices (no CSR
/// needed); the columns a panel's nonzeros span (over which approach 4 measures its density,
/// panel_classification.cuh) come from one atomic per row start and row end. The same kernel checks
/// every entry (indices in range, row-major order), so a large S is validated without a pass over
/// it on the host.
#pragma once

#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief First position in the sorted array @p sorted, between @p begin and @p end, whose
/// value is >= @p value.
/// @param sorted non-decreasing array
/// @param begin first position searched
/// @param end one past the last position searched
/// @param value the value sought
/// @return the position, in [begin, end]
__device__ inline std::int64_t lower_bound_index(const int* sorted, std::int64_t begin,
                                                 std::int64_t end, int value) {
  while (begin < end) {
    const std::int64_t middle = begin + (end - begin) / 2;
    if (sorted[middle] < value) {
      begin = middle + 1;
    } else {
      end = middle;
    }
  }
  return begin;
}

/// @brief Widens the recorded column span of @p row's panel to include @p col, when that
/// entry starts or ends its row (the first and last columns of a sorted row are its extremes).
/// The span is kept as two maxima so that zero-filled memory means "no entry": span[0] =
/// max(cols - first column), span[1] = max(last column + 1).
/// @param panel_span two ints per panel (output, zeroed before the launch)
/// @param row the entry's row
/// @param col the entry's column
/// @param cols columns of S
/// @param row_start whether the entry is the first of its row
/// @param row_end whether the entry is the last of its row
__device__ inline void widen_panel_span(int* panel_span, int row, int col, int cols, bool row_start,
                                        bool row_end) {
  int* span = panel_span + 2 * (row / kPanelRows);
  if (row_start) {
    atomicMax(span, cols - col);
  }
  if (row_end) {
    atomicMax(span + 1, col + 1);
  }
}

/// @brief Result of validate_pattern_kernel, read back by the host in one copy.
struct PatternCheck {
  unsigned long long first_bad_entry;  ///< smallest entry out of range or order (~0: none)
};

/// @brief Checks each entry of S, counts the nonzeros of each 64-row panel and records the
/// columns each panel spans.
///
/// Thread t < nnz checks entry t (indices in range, not before entry t-1 in row-major order),
/// lowers check->first_bad_entry to t if it fails, and widens its panel's span if it starts
/// or ends a row. Thread t < panel_count counts panel t with two binary searches. Counts and
/// spans are meaningful only when no entry failed.
/// Preconditions: check->first_bad_entry set to ~0 and @p panel_span zeroed before the launch;
/// one thread per max(nnz, panel_count).
/// @param rows rows of S
/// @param cols columns of S
/// @param row_indices rows of the entries
/// @param col_indices columns of the entries
/// @param nnz number of entries
/// @param panel_count ceil(rows / kPanelRows)
/// @param check the first failing entry (output)
/// @param panel_nnz nonzeros of each panel (output)
/// @param panel_span two ints per panel, see widen_panel_span (output)
__global__ void validate_pattern_kernel(int rows, int cols, const int* __restrict__ row_indices,
                                        const int* __restrict__ col_indices, std::int64_t nnz,
                                        int panel_count, PatternCheck* check,
                                        std::int64_t* panel_nnz, int* panel_span) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread < nnz) {
    const int row = row_indices[thread];
    const int col = col_indices[thread];
    bool bad = row < 0 || row >= rows || col < 0 || col >= cols;
    if (thread > 0) {
      // Entry 0 has no predecessor to be compared with.
      const int previous_row = row_indices[thread - 1];
      bad = bad || row < previous_row || (row == previous_row && col < col_indices[thread - 1]);
    }
    if (bad) {
      atomicMin(&check->first_bad_entry, static_cast<unsigned long long>(thread));
    } else {
      // The first and last entries of S have no neighbour on one side.
      const bool row_start = thread == 0 || row_indices[thread - 1] != row;
      const bool row_end = thread + 1 == nnz || row_indices[thread + 1] != row;
      widen_panel_span(panel_span, row, col, cols, row_start, row_end);
    }
  }
  if (thread < panel_count) {
    const int first_row = static_cast<int>(thread) * kPanelRows;
    const int end_row = min(first_row + kPanelRows, rows);
    panel_nnz[thread] = lower_bound_index(row_indices, 0, nnz, end_row) -
                        lower_bound_index(row_indices, 0, nnz, first_row);
  }
}

}  // namespace course::step5
