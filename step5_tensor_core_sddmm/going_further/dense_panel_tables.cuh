/// @file dense_panel_tables.cuh
/// @brief The two kernels of approach 4's plan: the panel tables moved to the device in one
/// launch, and the tables of where each tile's nonzeros start and which columns they hold
/// (which sddmm_dense_panels_kernel reads instead of searching S).
///
/// Step 5, approach 4 (going further): the plan's kernels for the dense panels.
/// Read first: dense_panel_tables.hpp, then sddmm_hybrid_panel_choice.cu (which launches them).
#pragma once

#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief Moves approach 4's panel tables from mapped host memory to the device and clears
/// the tile-start table after them, in one launch: word w < @p copy_words is copied from
/// @p host_tables, the next @p zero_words words are set to 0. A kernel instead of a copy
/// and a memset: one operation fewer in the stream, and no wait behind S's values, which
/// may still be on their way through the copy engine (DevicePattern's CSR upload).
/// One thread per word, grid-stride.
/// @param host_tables the tables, in mapped page-locked host memory
/// @param device_tables destination: copy_words + zero_words words
/// @param copy_words words to copy
/// @param zero_words words to clear after them
__global__ void panel_tables_kernel(const int* host_tables, int* __restrict__ device_tables,
                                    std::int64_t copy_words, std::int64_t zero_words) {
  const std::int64_t total = copy_words + zero_words;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t word = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       word < total; word += stride) {
    device_tables[word] = word < copy_words ? host_tables[word] : 0;
  }
}

/// @brief Where each (row, 64-column block) of the dense panels starts in S, and which of
/// the block's columns it holds: for the row at position r of the panel of slot p, and block b
/// of the panel's column span, tile_starts[slots[p].starts_offset + r·slots[p].stride + b] is
/// the first entry of the row with a column >= 64·(slots[p].first_block + b) (entry b = span is
/// the row's end), and bit c of tile_masks[(slots[p].first_tile + b)·kTileMaskRows + r] is set
/// when the row holds column 64·(slots[p].first_block + b) + c.
/// sddmm_dense_panels_kernel then finds a tile's entries with three loads a row, no search,
/// and never reads S's columns.
///
/// One thread per nonzero: an entry writes the starts of the column blocks between its
/// predecessor's block (exclusive) and its own (inclusive), and the last entry of a row also
/// those after it; it sets its bit with an atomic OR (the row's other entries share the word).
/// Rows without entries keep the zeros the caller filled in (start = end, no bit).
/// Preconditions: S sorted row-major; @p tile_starts and @p tile_masks zeroed; panel_slot[p] is
/// 1 + the slot of a dense panel p, 0 for a sparse one; every entry of a dense panel lies in its
/// span.
/// @param row_indices sorted rows of the nonzeros
/// @param col_indices columns of the nonzeros
/// @param nnz number of nonzeros
/// @param panel_slot 1 + slot of each panel, 0 when sparse
/// @param slots the dense panels
/// @param tile_starts the starts (output)
/// @param tile_masks the masks (output)
__global__ void tile_starts_kernel(const int* __restrict__ row_indices,
                                   const int* __restrict__ col_indices, std::int64_t nnz,
                                   const int* __restrict__ panel_slot,
                                   const DenseSlot* __restrict__ slots,
                                   int* __restrict__ tile_starts,
                                   unsigned long long* __restrict__ tile_masks) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // threads past the last nonzero
  }
  const int row = row_indices[entry];
  const int slot_index = panel_slot[row / kPanelRows] - 1;
  if (slot_index < 0) {
    return;  // a sparse panel: the lane groups do its entries
  }
  const DenseSlot slot = slots[slot_index];
  const int panel_row = row % kPanelRows;
  int* starts =
      tile_starts + slot.starts_offset + static_cast<std::int64_t>(panel_row) * slot.stride;
  const int col = col_indices[entry];
  const int block = col / kPanelTileCols - slot.first_block;
  atomicOr(
      tile_masks + static_cast<std::int64_t>(slot.first_tile + block) * kTileMaskRows + panel_row,
      1ULL << (col % kPanelTileCols));
  // The first entry of a row also starts the empty column blocks before it.
  const bool row_start = entry == 0 || row_indices[entry - 1] != row;
  const int previous_block =
      row_start ? -1 : col_indices[entry - 1] / kPanelTileCols - slot.first_block;
  for (int col_block = previous_block + 1; col_block <= block; ++col_block) {
    starts[col_block] = static_cast<int>(entry);
  }
  // The last entry of a row ends its block and every block after it.
  const bool row_end = entry + 1 == nnz || row_indices[entry + 1] != row;
  if (row_end) {
    for (int col_block = block + 1; col_block < slot.stride; ++col_block) {
      starts[col_block] = static_cast<int>(entry + 1);
    }
  }
}

}  // namespace course::step5
