/// @file csr_pattern_upload.cuh
/// @brief Uploading S from CSR: one kernel rebuilds the row of each nonzero from the row
/// offsets, writes the values of a pattern matrix (all ones), checks S and counts its panels.
///
/// The "other" time of approach 4 is mostly the upload of S over PCIe (about 50 GB/s). From
/// COO it sends 12 bytes per nonzero (row, column, value). From CSR it sends 4 bytes per
/// nonzero plus 4 per row, and 4 more per nonzero only when the values are not all one:
/// the GPU writes the rows (one binary search per nonzero in the offsets, at device memory
/// speed) and the ones, so the kernels find the same three arrays as after a COO upload.
#pragma once

#include "panel_classification.cuh"

#include <cstdint>

namespace step5 {

/// @brief Rebuilds, checks and counts S uploaded as CSR, in one pass.
///
/// Thread t <= rows checks offset t (offset 0 is 0, offset rows is nnz, no offset is above
/// the next) and lowers *first_bad_offset to t if it fails. Thread t < panel_count writes the
/// nonzeros of 64-row panel t (a difference of two offsets). Thread t < nnz writes the row of
/// nonzero t (the last row r with row_offsets[r] <= t, by binary search), writes its value
/// 1 when @p write_ones, lowers check->first_bad_entry to t when its column is out of
/// range or below the column of nonzero t-1 in the same row, and otherwise widens its panel's
/// column span when it starts or ends its row. The rows, counts, spans and entry checks are
/// meaningful only when no offset failed (the rows stay in [0, rows) regardless).
/// Preconditions: rows >= 1; both check words set to ~0 and @p panel_span zeroed before the
/// launch; one thread per max(nnz, rows + 1).
/// @param row_offsets rows + 1 offsets
/// @param col_indices column of each nonzero
/// @param rows M
/// @param cols N
/// @param nnz number of nonzeros
/// @param panel_count ceil(M / kPanelRows)
/// @param write_ones write 1 to every value
/// @param rows_out row of each nonzero (output)
/// @param values_out value of each nonzero (output, only when @p write_ones)
/// @param check the first failing entry (output)
/// @param first_bad_offset the first offset that fails its check (output)
/// @param panel_nnz nonzeros of each panel (output)
/// @param panel_span two ints per panel, see widen_panel_span (output)
__global__ void csr_pattern_kernel(const int* __restrict__ row_offsets,
                                   const int* __restrict__ col_indices, int rows, int cols,
                                   std::int64_t nnz, int panel_count, bool write_ones,
                                   int* __restrict__ rows_out, float* __restrict__ values_out,
                                   PatternCheck* check, unsigned long long* first_bad_offset,
                                   std::int64_t* __restrict__ panel_nnz, int* panel_span) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (thread <= rows) {
    const int offset_index = static_cast<int>(thread);
    const int offset = row_offsets[offset_index];
    bool bad = offset < 0 || offset > nnz;
    bad = bad || (offset_index == 0 && offset != 0);
    bad = bad || (offset_index == rows && offset != nnz);
    // The last offset has no successor to be compared with.
    bad = bad || (offset_index < rows && offset > row_offsets[offset_index + 1]);
    if (bad) {
      atomicMin(first_bad_offset, static_cast<unsigned long long>(offset_index));
    }
  }
  if (thread < panel_count) {
    const int first_row = static_cast<int>(thread) * kPanelRows;
    const int end_row = min(first_row + kPanelRows, rows);
    panel_nnz[thread] = row_offsets[end_row] - row_offsets[first_row];
  }
  if (thread < nnz) {
    // Binary search for the first offset above this nonzero, among offsets 1..rows.
    int low = 1;
    int high = rows;
    while (low < high) {
      const int middle = low + (high - low) / 2;
      if (row_offsets[middle] <= thread) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    const int row = low - 1;  // in [0, rows): even bad offsets give an in-range row
    rows_out[thread] = row;
    const int col = col_indices[thread];
    bool bad = col < 0 || col >= cols;
    // The first nonzero of a row has no predecessor in its row to be compared with.
    bad = bad || (thread > row_offsets[row] && col < col_indices[thread - 1]);
    if (bad) {
      atomicMin(&check->first_bad_entry, static_cast<unsigned long long>(thread));
    } else {
      const bool row_start = thread == row_offsets[row];
      const bool row_end = thread + 1 == row_offsets[row + 1];
      widen_panel_span(panel_span, row, col, cols, row_start, row_end);
    }
    if (write_ones) {
      values_out[thread] = 1.0f;
    }
  }
}

}  // namespace step5
