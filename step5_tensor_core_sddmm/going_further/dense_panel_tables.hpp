/// @file dense_panel_tables.hpp
/// @brief Approach 4's plan: which 64-row panels go to Tensor Cores (DensePanelChoice, made on
/// the host by choose_dense_panels) and the tables on the device that lead
/// sddmm_dense_panels_kernel to their block tiles and nonzeros (DensePanelTables, from
/// upload_dense_panels). Both are implemented in sddmm_hybrid_panel_choice.cu.
///
/// Step 5, approach 4 (going further): the plan of approach 4, as data.
/// Read first: panel_classification.cuh (the panels), hybrid_options.hpp (HybridOptions),
/// hybrid_plan.hpp (HybridPlan).
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <cuda_runtime_api.h>  // __align__ in host-only translation units

#include <cstddef>
#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief Columns of a block tile of the dense-panel kernel.
constexpr int kPanelTileCols = 64;

/// @brief A dense panel's part of the tile-start table and of the tile masks (see
/// tile_starts_kernel).
struct __align__(16) DenseSlot {
  int first_block;    ///< first 64-column block of the panel's column span
  int stride;         ///< starts per row: the span's blocks + 1
  int starts_offset;  ///< where the panel's 64 rows of starts begin in the table
  int panel;          ///< the panel (rows 64·panel ..)
  int first_tile;     ///< the panel's first block tile (its tiles follow, one per column block)
};

/// @brief Rows of one block tile's mask: one 64-bit word per row, bit c set when S holds
/// column c of the tile in that row.
constexpr int kTileMaskRows = 64;

/// @brief Floats per block tile of DensePanelTables::tile_values: the tile's 64 rows of 64 columns.
constexpr int kDenseTileValues = kTileMaskRows * kPanelTileCols;

/// @brief One 64×64 block tile of a dense panel, as sddmm_dense_panels_kernel reads it in one load.
struct __align__(16) DenseTile {
  int first_row;  ///< first row of the tile
  int first_col;  ///< first column of the tile
  int starts;     ///< index in the tile-start table of the tile's row 0
  int stride;     ///< distance between the starts of consecutive rows
};

/// @brief Approach 4's choice of Tensor Core panels, made on the host from the pattern's counts.
struct DensePanelChoice {
  std::vector<int> panel_slot;    ///< 1 + slot of each panel, 0 for a sparse one
  std::vector<DenseSlot> slots;   ///< the dense panels
  std::vector<DenseTile> tiles;   ///< their block tiles, one per column block of each span
  std::int64_t starts_total = 0;  ///< size of the tile-start table
  std::int64_t dense_nnz = 0;     ///< nonzeros in the dense panels
};

/// @brief Approach 4's panel tables on the device, as Plan keeps them.
struct DensePanelTables {
  /// 1 + slot per panel, the slots, the tiles, the tile starts, the tile masks (from the
  /// stream-ordered pool)
  course::DeviceBuffer<unsigned char> storage;
  std::size_t slots_offset = 0;        ///< byte offset of the dense slots
  std::size_t tiles_offset = 0;        ///< byte offset of the dense tiles
  std::size_t tile_starts_offset = 0;  ///< byte offset of the tile starts
  std::size_t tile_masks_offset = 0;   ///< byte offset of the tile masks (kTileMaskRows a tile)
  std::int64_t tile_count = 0;         ///< block tiles for Tensor Cores
  bool sparse_rows = true;             ///< some nonzeros are left to lane groups
  /// A valued S: kDenseTileValues per tile, S's value at each row and column of the tile, 0
  /// where S holds none (order_dense_tile_values); empty for a pattern.
  course::DeviceBuffer<float> tile_values;
};

/// @brief Picks the panels whose density over the columns they span reaches
/// HybridOptions::tc_density (see sddmm_hybrid_panel_choice.cu for the reasoning).
/// @param pattern S on the device
/// @param spans the columns each 64-row panel of S spans (panel_statistics.hpp)
/// @param counts the nonzeros of each panel still to compute (the pattern's counts less the
/// entries of full tiles)
/// @param options tc_density and tc_min_nnz
/// @param selected when given, one flag per panel: the panels to take, in place of the
/// density test (the combined plan's choice by cost); tc_min_nnz and the int limits still apply
/// @return the chosen panels (none: every nonzero goes to the lane groups)
DensePanelChoice choose_dense_panels(const DevicePattern& pattern,
                                     const std::vector<PanelSpan>& spans,
                                     const std::vector<std::int64_t>& counts,
                                     const HybridOptions& options,
                                     const std::vector<char>* selected = nullptr);

/// @brief Uploads @p choice and fills its table of tile starts and its tile masks on the GPU
/// (asynchronous: the plan's synchronisation ends the reads of the host staging before it is
/// written again).
/// @param choice the chosen panels
/// @param pattern S on the device
/// @return the tables (empty storage when no panel was chosen)
DensePanelTables upload_dense_panels(const DensePanelChoice& choice, const DevicePattern& pattern);

}  // namespace course::step5
