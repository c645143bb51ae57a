/// @file sddmm_hybrid_panel_choice.cu
/// @brief Approach 4's plan: the choice of dense panels on the host, from the counts and
/// column spans of S's panels (panel_statistics.hpp), and its tables on the device.
///
/// Step 5, approach 4 (going further): which panels go to Tensor Cores, and why.
/// Read first: panel_classification.cuh (panels and their spans), dense_panel_tables.hpp.
///
/// Why a panel goes to Tensor Cores: a 64×64 block tile computed with WMMA reads 64 rows of A
/// and 64 rows of Bᵀ once, about 16 bytes per output position at inner = 256, whereas a lane
/// group reads a 512-byte row of Bᵀ per nonzero. So Tensor Cores pay off from a density of a
/// few percent (HybridOptions::tc_density, 0.05: on the 2048×1024 mask at 50 % any threshold up to
/// 0.25 gave the same time, and on 8000² at 1 % no panel qualifies). The density is measured
/// over the columns the panel's nonzeros span, in whole 64-column blocks, so a banded matrix
/// sends only its band to Tensor Cores.
///
/// Why not always: the Tensor Core blocks form a chain of loads that one wave of lane groups
/// outruns when there is little dense work, so the choice is dropped below
/// HybridOptions::tc_min_nnz nonzeros in the dense panels (131 072: 512×512 at 10 % took 0.008 ms
/// on CUDA cores against 0.011 on Tensor Cores). It is also dropped when the tables could
/// not be indexed with int. Dropping it is always possible: the lane groups compute any
/// nonzero.
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.cuh"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"
#include "step5_tensor_core_sddmm/going_further/upload_resources.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {

/// Picks the panels whose density over the columns they span reaches HybridOptions::tc_density,
/// or those @p selected names (the combined plan's choice by cost). No panel is picked when they
/// hold fewer than HybridOptions::tc_min_nnz nonzeros together, or when their entries or their
/// table could not be indexed with int (more than 2³¹ - 1): the lane groups then compute every
/// nonzero, which is slower but always possible.
DensePanelChoice choose_dense_panels(const DevicePattern& pattern,
                                     const std::vector<PanelSpan>& spans,
                                     const std::vector<std::int64_t>& counts,
                                     const HybridOptions& options,
                                     const std::vector<char>* selected) {
  DensePanelChoice choice;
  if (pattern.nnz() > INT_MAX) {
    return choice;  // the tile starts hold entries as int: lane groups only
  }
  if (selected != nullptr && selected->size() != counts.size()) {
    throw std::invalid_argument("the panel selection names " + std::to_string(selected->size()) +
                                " panels, S has " + std::to_string(counts.size()));
  }
  choice.panel_slot.assign(counts.size(), 0);
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (counts[panel] == 0) {
      continue;  // nothing to compute in this panel
    }
    const int first_block = spans[panel].first_col / kPanelTileCols;
    const int blocks = spans[panel].last_col / kPanelTileCols - first_block + 1;
    const int span_cols = std::min((first_block + blocks) * kPanelTileCols, pattern.cols()) -
                          first_block * kPanelTileCols;
    const int panel_rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    const double density = static_cast<double>(counts[panel]) /
                           (static_cast<double>(panel_rows) * static_cast<double>(span_cols));
    if (selected != nullptr ? (*selected)[panel] == 0 : density < options.tc_density) {
      continue;  // not chosen, or sparse even within its span: the other kernels
    }
    const auto starts_offset = static_cast<int>(choice.starts_total);
    choice.panel_slot[panel] = static_cast<int>(choice.slots.size()) + 1;
    choice.slots.push_back({first_block, blocks + 1, starts_offset, static_cast<int>(panel),
                            static_cast<int>(choice.tiles.size())});
    for (int block = 0; block < blocks; ++block) {
      choice.tiles.push_back({static_cast<int>(panel) * kPanelRows,
                              (first_block + block) * kPanelTileCols, starts_offset + block,
                              blocks + 1});
    }
    choice.starts_total += static_cast<std::int64_t>(kPanelRows) * (blocks + 1);
    choice.dense_nnz += counts[panel];
    if (choice.starts_total > INT_MAX) {
      return {};  // the table would outgrow int indices: no Tensor Cores
    }
  }
  if (choice.dense_nnz < options.tc_min_nnz) {
    return {};  // too little dense work: one wave of lane groups is quicker
  }
  return choice;
}

DensePanelTables upload_dense_panels(const DensePanelChoice& choice, const DevicePattern& pattern) {
  DensePanelTables tables;
  tables.tile_count = static_cast<std::int64_t>(choice.tiles.size());
  tables.sparse_rows = choice.dense_nnz < pattern.nnz();
  if (choice.slots.empty()) {
    return tables;  // every nonzero goes to the lane groups
  }
  // One allocation: 1 + slot per panel, the slots, the tiles; then the table of tile starts
  // and the tile masks, cleared by panel_tables_kernel and filled by tile_starts_kernel.
  const std::size_t slot_bytes = align_bytes(choice.panel_slot.size() * sizeof(int));
  const std::size_t slots_bytes = align_bytes(choice.slots.size() * sizeof(DenseSlot));
  const std::size_t tiles_bytes = align_bytes(choice.tiles.size() * sizeof(DenseTile));
  const std::size_t table_bytes =
      align_bytes(static_cast<std::size_t>(choice.starts_total) * sizeof(int));
  const std::size_t masks_bytes = choice.tiles.size() * kTileMaskRows * sizeof(unsigned long long);
  tables.slots_offset = slot_bytes;
  tables.tiles_offset = slot_bytes + slots_bytes;
  tables.tile_starts_offset = tables.tiles_offset + tiles_bytes;
  tables.tile_masks_offset = tables.tile_starts_offset + table_bytes;
  tables.storage = course::DeviceBuffer<unsigned char>(tables.tile_masks_offset + masks_bytes,
                                                       "approach 4's dense panel tables",
                                                       course::DeviceMemorySource::stream_pool);
  // The tables go through mapped page-locked memory, which panel_tables_kernel reads.
  auto* staging =
      static_cast<unsigned char*>(pinned_scratch(PinnedUse::staging, tables.tile_starts_offset));
  std::memcpy(staging, choice.panel_slot.data(), choice.panel_slot.size() * sizeof(int));
  std::memcpy(staging + tables.slots_offset, choice.slots.data(),
              choice.slots.size() * sizeof(DenseSlot));
  std::memcpy(staging + tables.tiles_offset, choice.tiles.data(),
              choice.tiles.size() * sizeof(DenseTile));
  // The starts and the masks follow the copied words: both are cleared.
  const auto copy_words = static_cast<std::int64_t>(tables.tile_starts_offset / sizeof(int));
  const auto zero_words = static_cast<std::int64_t>((table_bytes + masks_bytes) / sizeof(int));
  const unsigned table_blocks =
      std::min<unsigned>(blocks_for(copy_words + zero_words, kThreadsPerBlock), 1024);
  panel_tables_kernel<<<table_blocks, kThreadsPerBlock>>>(
      reinterpret_cast<const int*>(staging), tables.storage.at<int>(0), copy_words, zero_words);
  CUDA_CHECK_LAUNCH(panel_tables_kernel);
  tile_starts_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), pattern.nnz(), tables.storage.at<int>(0),
      tables.storage.at<DenseSlot>(tables.slots_offset),
      tables.storage.at<int>(tables.tile_starts_offset),
      tables.storage.at<unsigned long long>(tables.tile_masks_offset));
  CUDA_CHECK_LAUNCH(tile_starts_kernel);
  // The constructor's synchronisation ends the reads of staging before it is written again.
  return tables;
}

}  // namespace course::step5
