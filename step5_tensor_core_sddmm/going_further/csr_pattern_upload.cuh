/// @file csr_pattern_upload.cuh
/// @brief Uploading S from CSR: one kernel rebuilds the row of each nonzero from the row
/// offsets, writes the values of a pattern matrix (all ones), checks S and finds the columns
/// each 64-row panel spans, and writes its verdict straight into host memory.
///
/// Step 5, approach 4 (going further, "Preprocessing: S on the device"): the one-pass GPU
/// check of a CSR S. Read first: panel_statistics.hpp, then panel_pattern_upload.cu (which
/// launches it).
///
/// The "other" time of approach 4 is mostly the upload of S over PCIe (about 50 GB/s). From
/// COO it sends 12 bytes per nonzero (row, column, value). From CSR it sends 4 bytes per
/// nonzero plus 4 per row, and 4 more per nonzero only when the values are not all one:
/// the GPU writes the rows (one binary search per nonzero in the offsets, at device memory
/// speed) and the ones, so the kernels find the same three arrays as after a COO upload.
///
/// On a small S every operation in the stream costs a few microseconds of its own (measured
/// on the H200: 3–4 µs per memset, 6–12 µs for a read-back copy after a kernel), more than the
/// bytes. So this kernel needs no memory set beforehand and no copy afterwards: it writes two
/// flags and the panel spans into mapped, page-locked host memory (zero-copy), which the host
/// reads once the stream is synchronised. No atomics: the flags are only ever set to 1 (any
/// writer writes the same value), and each panel's span is reduced inside one block. The
/// host finds which offset or entry failed, and counts the panels, from its own CSR arrays.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <climits>
#include <cstdint>

namespace course::step5 {

/// @brief What csr_pattern_kernel writes into host memory (followed by the panel spans).
struct CsrVerdict {
  int bad_offset;  ///< 1 when some row offset fails its check (set to 0 by the host)
  int bad_entry;   ///< 1 when some column is out of range or out of order (set to 0 by the host)
};

/// @brief Smallest first column and largest last column of the rows held by one warp
/// (INT_MAX and -1 when none of its rows has a nonzero), in every lane.
/// @param first_col the lane's row's first column (INT_MAX when empty)
/// @param last_col the lane's row's last column (-1 when empty)
/// @return {first, last} of the warp
__device__ inline int2 warp_column_span(int first_col, int last_col) {
  for (int offset = 16; offset > 0; offset /= 2) {
    // Every lane takes part: the block reaches this point as a whole.
    first_col = min(first_col, __shfl_xor_sync(kAllLanes, first_col, offset));
    last_col = max(last_col, __shfl_xor_sync(kAllLanes, last_col, offset));
  }
  return make_int2(first_col, last_col);
}

/// @brief The row of entry @p entry: the last row r with row_offsets[r] <= entry, by binary
/// search among offsets 1..rows; in [0, rows) even when the offsets are bad.
/// @param row_offsets rows + 1 offsets
/// @param rows rows of S (>= 1)
/// @param entry the entry
/// @return its row
__device__ inline int row_of_entry(const int* row_offsets, int rows, std::int64_t entry) {
  int low = 1;
  int high = rows;
  while (low < high) {
    const int middle = low + (high - low) / 2;
    if (row_offsets[middle] <= entry) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low - 1;
}

/// @brief One thread per panel of the block's rows reduces its warps' spans and writes the
/// panel's span as two ints (first and last column, -1 and -1 when the panel is empty).
/// Preconditions: called by the whole block after a __syncthreads that follows the writes to
/// @p warp_spans.
/// @tparam kBlockThreads threads per block, whole panels of rows
/// @param warp_spans each warp's {first, last} column (warp_column_span)
/// @param rows rows of S
/// @param panel_span two ints per panel (output)
template <int kBlockThreads>
__device__ inline void write_panel_spans(const int2* warp_spans, int rows, int* panel_span) {
  constexpr int kWarpsPerPanel = kPanelRows / 32;
  const std::int64_t panel =
      (static_cast<std::int64_t>(blockIdx.x) * kBlockThreads) / kPanelRows + threadIdx.x;
  // One thread per panel of this block's rows; rows past the last leave no panel to write.
  if (threadIdx.x < kBlockThreads / kPanelRows && panel * kPanelRows < rows) {
    int2 span = make_int2(INT_MAX, -1);
    for (int part = 0; part < kWarpsPerPanel; ++part) {
      const int2 warp_part = warp_spans[threadIdx.x * kWarpsPerPanel + part];
      span = make_int2(min(span.x, warp_part.x), max(span.y, warp_part.y));
    }
    const bool empty = span.y < 0;
    panel_span[2 * panel] = empty ? -1 : span.x;
    panel_span[2 * panel + 1] = span.y;
  }
}

/// @brief Rebuilds, checks and measures S uploaded as CSR, in one pass.
///
/// Thread t <= rows checks offset t (offset 0 is 0, offset rows is nnz, no offset is above
/// the next). Thread t < rows reads the first and last column of row t; the block reduces
/// them per 64-row panel (its kBlockThreads rows are kBlockThreads / 64 whole panels) and
/// writes each panel's span as two ints (first and last column, -1 and -1 when the panel is
/// empty). Thread t < nnz writes the row of nonzero t (the last row r with
/// row_offsets[r] <= t, by binary search), writes its value 1 when @p write_ones, and checks
/// its column (in range, not below the column of nonzero t-1 in the same row). A block that
/// found a failing offset or entry sets the matching flag of @p verdict. The rows and spans
/// are meaningful only when no flag is set; every index read stays in range regardless.
/// Preconditions: rows >= 1; both flags of @p verdict set to 0 before the launch;
/// kBlockThreads threads per block and one thread per max(nnz, rows + 1).
/// @tparam kBlockThreads threads per block, whole panels of rows
/// @param row_offsets rows + 1 offsets
/// @param col_indices column of each nonzero
/// @param rows rows of S
/// @param cols columns of S
/// @param nnz number of nonzeros
/// @param write_ones write 1 to every value
/// @param rows_out row of each nonzero (output)
/// @param values_out value of each nonzero (output, only when @p write_ones)
/// @param verdict the flags, in mapped host memory (output)
/// @param panel_span two ints per panel, in mapped host memory (output)
template <int kBlockThreads>
__global__ void __launch_bounds__(kBlockThreads)
    csr_pattern_kernel(const int* __restrict__ row_offsets, const int* __restrict__ col_indices,
                       int rows, int cols, std::int64_t nnz, bool write_ones,
                       int* __restrict__ rows_out, float* __restrict__ values_out,
                       CsrVerdict* verdict, int* panel_span) {
  static_assert(kBlockThreads % kPanelRows == 0, "a block must hold whole panels of rows");
  static_assert(kPanelRows % 32 == 0, "a panel must be whole warps of rows");
  __shared__ int2 warp_spans[kBlockThreads / 32];
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  bool bad_offset = false;
  int first_col = INT_MAX;  // an empty row (or a thread past the last row) widens nothing
  int last_col = -1;
  if (thread <= rows) {
    const int offset_index = static_cast<int>(thread);
    const int offset = row_offsets[offset_index];
    bad_offset = offset < 0 || offset > nnz;
    bad_offset = bad_offset || (offset_index == 0 && offset != 0);
    bad_offset = bad_offset || (offset_index == rows && offset != nnz);
    // The last offset has no successor: it ends the last row instead.
    if (offset_index < rows) {
      const int next = row_offsets[offset_index + 1];
      bad_offset = bad_offset || offset > next;
      // Guards bad offsets: read columns only inside [0, nnz).
      if (offset < next && offset >= 0 && next <= nnz) {
        first_col = col_indices[offset];
        last_col = col_indices[next - 1];
      }
    }
  }
  bool bad_entry = false;
  if (thread < nnz) {
    const int row = row_of_entry(row_offsets, rows, thread);
    rows_out[thread] = row;
    const int col = col_indices[thread];
    bad_entry = col < 0 || col >= cols;
    // The first nonzero of a row has no predecessor in its row to be compared with.
    bad_entry = bad_entry || (thread > row_offsets[row] && col < col_indices[thread - 1]);
    if (write_ones) {
      values_out[thread] = 1.0f;
    }
  }
  const int2 warp_span = warp_column_span(first_col, last_col);
  const int warp = static_cast<int>(threadIdx.x) / 32;
  if (threadIdx.x % 32 == 0) {
    warp_spans[warp] = warp_span;
  }
  // Every flag of the block is known, and every warp's span is in warp_spans.
  const bool block_bad_offset = __syncthreads_or(bad_offset) != 0;
  const bool block_bad_entry = __syncthreads_or(bad_entry) != 0;
  if (threadIdx.x == 0 && block_bad_offset) {
    verdict->bad_offset = 1;
  }
  if (threadIdx.x == 0 && block_bad_entry) {
    verdict->bad_entry = 1;
  }
  write_panel_spans<kBlockThreads>(warp_spans, rows, panel_span);
}

}  // namespace course::step5
