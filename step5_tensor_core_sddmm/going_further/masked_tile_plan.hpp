/// @file masked_tile_plan.hpp
/// @brief plan_masked_tiles(): the threshold and the kernel's shape from the device, the
/// search for masked tiles, whether they pay, the list of the lane groups' entries, and the
/// dense path when it wins; with the figures (bytes, FLOPs, seconds) the benchmark's LIMIT
/// column reads.
///
/// Step 5, going further: the plan that splits S between Tensor Core tiles, lane groups and
/// the dense product, by the cost model.
/// Read first: tile_cost_model.hpp (the model), masked_tiles.hpp (the tiles),
/// dense_product_path.hpp (the dense path).
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"
#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_cost_choice.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief The masked tiles as the cost model weighs them: a kernel and its grouping.
struct MaskedTileWeighing {
  MaskedTileKernel kernel = MaskedTileKernel::registers;  ///< ring or registers
  std::int64_t steps = 0;                                 ///< tile columns copied
  std::int64_t items = 0;                                 ///< blocks (ring) or warps (registers)
  int panels = 0;                                         ///< panels per super-panel
};

/// @brief What the plan chose, and what its choice must move and compute.
struct MaskedPlanFigures {
  bool dense_path = false;            ///< the dense product computes every entry
  TileThreshold threshold;            ///< the tiles' threshold used
  MaskedTileShape shape;              ///< the kernel's launch shape (panels 0: no tiles)
  std::int64_t tiles = 0;             ///< tiles on Tensor Cores
  std::int64_t steps = 0;             ///< tile columns copied
  std::int64_t items = 0;             ///< blocks of the masked-tile kernel
  std::int64_t covered = 0;           ///< entries inside the tiles
  std::int64_t lane_entries = 0;      ///< entries the lane groups compute
  double gathered_bytes = 0.0;        ///< bytes brought from L2: rows of Bᵀ and of A
  double tensor_flops = 0.0;          ///< Tensor Core FLOPs (tiles, or the dense product)
  double extra_dram_bytes = 0.0;      ///< the dense path's product, written and gathered
  double model_sparse_seconds = 0.0;  ///< the model's time of tiles and lane groups
  double model_dense_seconds = 0.0;   ///< the model's time of the dense path
  int launches = 0;                   ///< kernels per run
  /// what the cost model weighs the tiles as: the kernel that runs them, or the ring where the
  /// register kernel runs a dense mask at one tile column a stage (masked_kernel_for)
  MaskedTileWeighing weighed;
};

/// @brief A plan's Tensor Core tiles, the lane groups' entries and the dense path.
struct MaskedTilePlan {
  MaskedTiles tiles;                        ///< the tiles (none when tile_count is 0)
  course::DeviceBuffer<int> listed;         ///< the lane groups' entries, when there are tiles
  std::unique_ptr<DenseProductPath> dense;  ///< the dense path, when the plan took it
  MaskedPlanFigures figures;                ///< what was chosen and what it costs
};

/// @brief Plans @p pattern for @p inner on @p device: finds and groups the masked
/// tiles when the model says any tile can pay (a 64-row panel holds the threshold's entries) for
/// the kernel the options name (automatic: register_tile_kernel, or the ring where the tiles fill
/// kRingTileShare of the tiles their panels span and a stage holds several tile columns,
/// masked_kernel_for), keeps
/// them when they pay for their launch, lists the entries left to the lane groups, and takes the
/// dense path instead when it is cheaper and fits (then nothing else runs).
///
/// With an @p exclusion (entries that 64×64 full tiles or dense panels compute), the search
/// leaves those entries out, and the lane groups' list is always made: the entries in no
/// full tile, no dense panel and no masked tile.
/// @param pattern S on the device
/// @param statistics entries and column spans of each 64-row panel of S (panel_statistics.hpp)
/// @param inner the inner size
/// @param options the switches
/// @param device the current GPU (course::describe_current_gpu); the kernel's copies there are
/// read from the kernel loaded on it (masked_tiles_compiled_with_async_copy)
/// @param exclusion entries other kernels compute (none by default)
/// @param remaining entries not excluded (-1: all of S)
/// @return the plan
MaskedTilePlan plan_masked_tiles(const DevicePattern& pattern, const PanelStatistics& statistics,
                                 int inner, const MaskedTileOptions& options,
                                 const GpuDescription& device,
                                 const MaskedExclusion& exclusion = {},
                                 std::int64_t remaining = -1);

/// @brief The masked tiles' kernel and how their work is cut, for a plan's description: " (T
/// tiles, S tile columns, I items: registers, a warp an item)" or "...: ring, P panels a block)";
/// empty without tiles.
/// @param figures the plan's figures
/// @return the text
std::string describe_masked_tiles(const MaskedPlanFigures& figures);

/// @brief Turns @p plan into the dense path for @p pattern: the product's buffer and cuBLAS
/// handle, no tile and no list, and the figures the LIMIT column reads (the whole product's
/// FLOPs, its buffer written and gathered, two launches).
/// @param plan the plan (its tiles and list are dropped)
/// @param pattern S on the device
/// @param statistics entries and column spans of each 64-row panel of S (the gather's tables)
/// @param inner the inner size
void take_dense_path(MaskedTilePlan& plan, const DevicePattern& pattern,
                     const PanelStatistics& statistics, int inner);

/// @brief The masked tiles the plan would find in each 64-row panel if no panel were dense
/// (the combined plan's choice by cost weighs them against the dense-panel kernel): one search
/// with @p options' threshold and the ring's shape on the device (the model the choice by cost
/// was tuned with; the register kernel's where no ring fits), its keys and masks read back, and
/// add_masked_panel_figures. Adds nothing when no tile can be found (inner 0, or no shape fits).
/// @param pattern S on the device
/// @param inner the inner size
/// @param options the switches (the threshold)
/// @param device the current GPU (as for plan_masked_tiles)
/// @param full_covered per entry of S: 1 inside a full tile (left out), or nullptr
/// @param figures one per 64-row panel: the masked figures are added to
void add_masked_tiles_by_panel(const DevicePattern& pattern, int inner,
                               const MaskedTileOptions& options, const GpuDescription& device,
                               const unsigned char* full_covered,
                               std::vector<PanelFigures>& figures);

}  // namespace course::step5
