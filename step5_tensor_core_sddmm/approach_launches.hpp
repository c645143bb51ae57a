// Step 5, all approaches (lesson "Reading path"): what Plan::run calls for each approach.
// Read first: step5_launchers.hpp (Plan), then plan.cu (the dispatch).
/// @file approach_launches.hpp
/// @brief The launch of each approach, one file per approach beside its kernel: Plan::run
/// (plan.cu) checks the operands and calls one of these. Each chooses its launch
/// configuration and checks its launches.
#pragma once

#include "dense_panel_tables.hpp"
#include "full_tiles.hpp"
#include "step5_launchers.hpp"
#include "tile_grouping.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief Approach 1 (sddmm_warp_per_nonzero_launch.cu): one warp per nonzero.
/// @param operands A and Bᵀ
/// @param pattern S on the device
/// @param output device array of pattern.nnz() floats
void launch_warp_per_nonzero(const DenseOperands& operands, const DevicePattern& pattern,
                             float* output);

/// @brief Approach 2 (sddmm_dense_wmma_launch.cu): the dense product with the block shape of
/// Options::dense_warps_x × dense_warps_y warps, then sampled at S's nonzeros.
/// @param options the block shape
/// @param operands A and Bᵀ
/// @param pattern S on the device
/// @param dense the plan's padded dense rows×cols product
/// @param ld_dense its leading dimension
/// @param output device array of pattern.nnz() floats
void launch_dense_wmma(const Options& options, const DenseOperands& operands,
                       const DevicePattern& pattern, float* dense, int ld_dense, float* output);

/// @brief Approach 3 (sddmm_tile_grouped_launch.cu): one warp per non-empty 16×16 tile.
/// @param groups the plan's grouping of S by tile
/// @param tile_ranges Options::tile_ranges (false: the note's COO version 1)
/// @param operands A and Bᵀ
/// @param nnz nonzeros of S
/// @param output device array of nnz floats
void launch_tile_grouped(const TileGroups& groups, bool tile_ranges, const DenseOperands& operands,
                         std::int64_t nnz, float* output);

/// @brief What approach 4's plan found of full tiles, as its launch takes it.
struct FullTileWork {
  const FullTile* tiles = nullptr;  ///< the full tiles
  const int* row_starts = nullptr;  ///< the first entry of each row of each tile
  std::int64_t tile_count = 0;      ///< their number (0: none, the lane groups go by panels)
  const int* listed = nullptr;      ///< with full tiles: the entries left to the lane groups
  std::int64_t listed_count = 0;    ///< their number
};

/// @brief Approach 4 (sddmm_hybrid_launch.cu): the Tensor Core block tiles of the dense
/// panels and the full tiles, then the lane groups for the other nonzeros.
/// @param tables the plan's dense panel tables
/// @param dense_panels whether the plan chose any dense panel
/// @param full the plan's full tiles and the lane groups' list
/// @param options lanes per nonzero and runs per block
/// @param operands A and b_transposed
/// @param pattern S on the device
/// @param output device array of pattern.nnz() floats
void launch_hybrid(const DensePanelTables& tables, bool dense_panels, const FullTileWork& full,
                   const Options& options, const DenseOperands& operands,
                   const DevicePattern& pattern, float* output);

}  // namespace course::step5
