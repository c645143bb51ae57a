// Step 5, approach 4 (lesson Part 2): which panels go to Tensor Cores, and why.
// Read first: panel_classification.cuh (panels and their spans), dense_panel_tables.hpp.
/// @file sddmm_hybrid_panel_choice.cu
/// @brief Approach 4's plan: the choice of Tensor Core and staged panels on the host, from the
/// counts and column spans that came with the upload of S, and its tables on the device.
///
/// Why a panel goes to Tensor Cores: a 64×64 block tile computed with WMMA reads 64 rows of A
/// and 64 rows of Bᵀ once, about 16 bytes per output position at inner = 256, whereas a lane
/// group reads a 512-byte row of Bᵀ per nonzero. So Tensor Cores pay off from a density of a
/// few percent (Options::tc_density, 0.05: on the 2048×1024 mask at 50 % any threshold up to
/// 0.25 gave the same time, and on 8000² at 1 % no panel qualifies). The density is measured
/// over the columns the panel's nonzeros span, in whole 64-column blocks, so a banded matrix
/// sends only its band to Tensor Cores.
///
/// Why not always: the Tensor Core blocks form a chain of loads that one wave of lane groups
/// outruns when there is little dense work, so the choice is dropped below
/// Options::tc_min_nnz nonzeros in the dense panels (131 072: 512×512 at 10 % took 0.008 ms
/// on CUDA cores against 0.011 on Tensor Cores). It is also dropped when the tables could
/// not be indexed with int. Dropping it is always possible: the lane groups compute any
/// nonzero.
///
/// Why staged panels: below the Tensor Core density a lane group still reads a whole row of Bᵀ
/// per nonzero, and where many rows of a panel share columns (matrix_2000_12000_746000: 3 %
/// dense, 23 000 entries over 12 000 columns per panel) those reads come from L2 again and
/// again (Nsight Compute: the lane groups at 82 % of L2 throughput there). The staged kernel
/// reads each row of Bᵀ once per panel into shared memory and serves all of the panel's
/// entries in that column block from it, so a panel whose entries per spanned column reach
/// Options::staged_reuse (1.5) reads Bᵀ that many times less from L2. Its price is the panel's
/// rows of A staged too, and a block-wide wait per column block; the threshold on the total
/// (Options::staged_min_nnz) keeps small matrices on the one lane-group launch.
#include "common/cuda_check.hpp"
#include "dense_panel_tables.cuh"
#include "dense_panel_tables.hpp"
#include "launch_config.hpp"
#include "panel_classification.cuh"
#include "upload_resources.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace course::step5 {

namespace {

/// Where a panel's nonzeros go.
enum class PanelKind { lane_groups, tensor_cores, staged };

/// A panel's column span in whole 64-column blocks.
struct BlockSpan {
  int first_block;  ///< first 64-column block of the span
  int blocks;       ///< blocks in the span
  int cols;         ///< columns of those blocks inside the matrix
};

BlockSpan block_span(const DevicePattern& pattern, std::size_t panel) {
  const PanelSpan& span = pattern.panel_spans()[panel];
  const int first_block = span.first_col / kPanelTileCols;
  const int blocks = span.last_col / kPanelTileCols - first_block + 1;
  const int cols = std::min((first_block + blocks) * kPanelTileCols, pattern.cols()) -
                   first_block * kPanelTileCols;
  return {first_block, blocks, cols};
}

/// The kind of each panel before the thresholds on the totals. Tensor Cores where the density
/// over the span reaches tc_density; staged where the entries per spanned column reach
/// staged_reuse, the panel holds no full tile (the full-tile kernel then never meets a staged
/// panel) and inner fits the staged kernel's shared memory.
std::vector<PanelKind> panel_kinds(const DevicePattern& pattern,
                                   const std::vector<std::int64_t>& counts, int inner,
                                   const Options& options) {
  const bool staged_inner = options.staged_panels && inner > 0 && inner <= kStagedMaxInner;
  std::vector<PanelKind> kinds(counts.size(), PanelKind::lane_groups);
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (counts[panel] == 0) {
      continue;  // nothing to compute in this panel
    }
    const BlockSpan span = block_span(pattern, panel);
    const int panel_rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    const double density = static_cast<double>(counts[panel]) /
                           (static_cast<double>(panel_rows) * static_cast<double>(span.cols));
    const double per_col = static_cast<double>(counts[panel]) / static_cast<double>(span.cols);
    if (density >= options.tc_density) {
      kinds[panel] = PanelKind::tensor_cores;
    } else if (staged_inner && per_col >= options.staged_reuse &&
               counts[panel] == pattern.panel_nnz()[panel]) {
      kinds[panel] = PanelKind::staged;
    }
  }
  return kinds;
}

/// Entries of the panels of @p kind, and whether they reach @p min_nnz; if not, they become
/// lane-group panels.
std::int64_t keep_if_enough(std::vector<PanelKind>& kinds, const std::vector<std::int64_t>& counts,
                            PanelKind kind, long long min_nnz) {
  std::int64_t total = 0;
  for (std::size_t panel = 0; panel < kinds.size(); ++panel) {
    total += kinds[panel] == kind ? counts[panel] : 0;
  }
  if (total >= min_nnz) {
    return total;
  }
  std::replace(kinds.begin(), kinds.end(), kind, PanelKind::lane_groups);
  return 0;
}

/// Adds the panels of @p kind to @p choice (slot, starts, and its block tiles or ranges);
/// false when the table of starts would outgrow int indices.
bool add_panels(DensePanelChoice& choice, const DevicePattern& pattern,
                const std::vector<PanelKind>& kinds, PanelKind kind) {
  for (std::size_t panel = 0; panel < kinds.size(); ++panel) {
    if (kinds[panel] != kind) {
      continue;
    }
    const BlockSpan span = block_span(pattern, panel);
    const auto starts_offset = static_cast<int>(choice.starts_total);
    const int first_row = static_cast<int>(panel) * kPanelRows;
    const int stride = span.blocks + 1;
    choice.panel_slot[panel] = static_cast<int>(choice.slots.size()) + 1;
    choice.slots.push_back({span.first_block, stride, starts_offset, static_cast<int>(panel)});
    const int step = kind == PanelKind::tensor_cores ? 1 : kStagedRangeBlocks;
    for (int block = 0; block < span.blocks; block += step) {
      const int first_col = (span.first_block + block) * kPanelTileCols;
      if (kind == PanelKind::tensor_cores) {
        choice.tiles.push_back({first_row, first_col, starts_offset + block, stride});
      } else {
        const int blocks = std::min(kStagedRangeBlocks, span.blocks - block);
        choice.staged.push_back(
            {first_row, first_col, starts_offset + block, stride, blocks, {0, 0, 0}});
      }
    }
    choice.starts_total += static_cast<std::int64_t>(kPanelRows) * stride;
    if (choice.starts_total > INT_MAX) {
      return false;
    }
  }
  return true;
}

}  // namespace

/// Picks the Tensor Core panels (density over the columns they span at least
/// Options::tc_density) and the staged panels (see panel_kinds). Either kind is dropped when
/// its panels hold fewer than its threshold of nonzeros together (Options::tc_min_nnz,
/// Options::staged_min_nnz), and both when the entries or the table could not be indexed with
/// int (more than 2³¹ - 1): the lane groups then compute every nonzero, which is slower but
/// always possible.
DensePanelChoice choose_dense_panels(const DevicePattern& pattern,
                                     const std::vector<std::int64_t>& counts, int inner,
                                     const Options& options) {
  DensePanelChoice choice;
  if (pattern.nnz() > INT_MAX) {
    return choice;  // the tile starts hold entries as int: lane groups only
  }
  std::vector<PanelKind> kinds = panel_kinds(pattern, counts, inner, options);
  choice.dense_nnz = keep_if_enough(kinds, counts, PanelKind::tensor_cores, options.tc_min_nnz);
  choice.staged_nnz = keep_if_enough(kinds, counts, PanelKind::staged, options.staged_min_nnz);
  choice.panel_slot.assign(counts.size(), 0);
  if (!add_panels(choice, pattern, kinds, PanelKind::tensor_cores)) {
    return {};  // the table would outgrow int indices: no Tensor Cores
  }
  choice.tensor_panels = static_cast<std::int64_t>(choice.slots.size());
  if (!add_panels(choice, pattern, kinds, PanelKind::staged)) {
    return {};
  }
  return choice;
}

DensePanelTables upload_dense_panels(const DensePanelChoice& choice, const DevicePattern& pattern,
                                     bool skip_empty_tiles) {
  DensePanelTables tables;
  tables.tile_count = static_cast<std::int64_t>(choice.tiles.size());
  tables.staged_count = static_cast<std::int64_t>(choice.staged.size());
  tables.has_slots = !choice.slots.empty();
  tables.sparse_rows = choice.dense_nnz + choice.staged_nnz < pattern.nnz();
  if (choice.slots.empty()) {
    return tables;  // every nonzero goes to the lane groups
  }
  // One allocation: 1 + slot per panel, the slots, the tiles, the staged ranges; then the
  // table of tile starts, cleared by panel_tables_kernel and filled by tile_starts_kernel.
  const std::size_t slot_bytes = align_bytes(choice.panel_slot.size() * sizeof(int));
  const std::size_t slots_bytes = align_bytes(choice.slots.size() * sizeof(DenseSlot));
  const std::size_t tiles_bytes = align_bytes(choice.tiles.size() * sizeof(DenseTile));
  const std::size_t staged_bytes = align_bytes(choice.staged.size() * sizeof(StagedRange));
  const std::size_t table_bytes = static_cast<std::size_t>(choice.starts_total) * sizeof(int);
  tables.slots_offset = slot_bytes;
  tables.tiles_offset = slot_bytes + slots_bytes;
  tables.staged_offset = tables.tiles_offset + tiles_bytes;
  tables.tile_starts_offset = tables.staged_offset + staged_bytes;
  tables.storage = course::DeviceBuffer<unsigned char>(tables.tile_starts_offset + table_bytes,
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
  std::memcpy(staging + tables.staged_offset, choice.staged.data(),
              choice.staged.size() * sizeof(StagedRange));
  int* tile_starts = tables.storage.at<int>(tables.tile_starts_offset);
  const auto copy_words = static_cast<std::int64_t>(tables.tile_starts_offset / sizeof(int));
  const std::int64_t words = copy_words + choice.starts_total;
  const unsigned table_blocks = std::min<unsigned>(blocks_for(words, kThreadsPerBlock), 1024);
  panel_tables_kernel<<<table_blocks, kThreadsPerBlock>>>(reinterpret_cast<const int*>(staging),
                                                          tables.storage.at<int>(0), copy_words,
                                                          choice.starts_total);
  CUDA_CHECK_LAUNCH(panel_tables_kernel);
  tile_starts_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), pattern.nnz(), tables.storage.at<int>(0),
      tables.storage.at<DenseSlot>(tables.slots_offset), tile_starts);
  CUDA_CHECK_LAUNCH(tile_starts_kernel);
  if (skip_empty_tiles && tables.tile_count > 0) {
    mark_empty_tiles_kernel<<<blocks_for(tables.tile_count, kThreadsPerBlock), kThreadsPerBlock>>>(
        tables.storage.at<DenseTile>(tables.tiles_offset), tables.tile_count, tile_starts);
    CUDA_CHECK_LAUNCH(mark_empty_tiles_kernel);
  }
  // The constructor's synchronisation ends the reads of staging before it is written again.
  return tables;
}

}  // namespace course::step5
