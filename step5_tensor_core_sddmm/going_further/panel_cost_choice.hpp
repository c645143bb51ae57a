/// @file panel_cost_choice.hpp
/// @brief The combined plan's choice per 64-row panel (HybridOptions::panel_choice = cost):
/// each panel is costed both ways, as its span's 64×64 block tiles on the dense-panel kernel
/// or as its full tiles, masked 16×16 tiles and lane-group entries, and whole plans are
/// compared with each kernel's fixed cost counted once, so that a panel is never sent to a
/// kernel that would run for it alone.
///
/// Step 5, going further: which 64-row panels of the combined plan go to the dense-panel
/// kernel, and which to full tiles, masked tiles and lane groups, by their modelled times.
/// Read first: tile_cost_model.hpp (the model's rates), dense_panel_tables.hpp (the panels).
///
/// Why: a banded FEM matrix (bcsstk16, panels at 8–21 % of their span) has many 16×16 tiles
/// holding 30–130 of their 256 positions. The density rule (15 %) split its panels between the
/// dense-panel kernel, the masked tiles and the lane groups: three kernels, each mostly its
/// fixed cost (0.037 ms on an H100, against 0.016 ms with every panel dense). The times below
/// are fits to the H100's measurements of each kernel alone, so the choice follows what the
/// kernels do, not a density guessed once.
///
/// Everything here is host code on figures (no GPU): the plan gathers the figures
/// (hybrid_plan.cu, masked_tile_plan.hpp) and the CPU tests check the choices.
#pragma once

#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief What the choice knows of one 64-row panel.
struct PanelFigures {
  std::int64_t entries = 0;       ///< entries of S in the panel (all of them)
  std::int64_t outside_full = 0;  ///< entries in no 64×64 full tile
  int span_blocks = 0;            ///< 64-column blocks its entries span (the dense kernel's tiles)
  double density = 0.0;           ///< outside_full over the positions of its span
  std::int64_t full_tiles = 0;    ///< 64×64 full tiles in the panel
  std::int64_t masked_tiles = 0;  ///< masked 16×16 tiles among the entries outside full tiles
  std::int64_t masked_steps = 0;  ///< tile columns those tiles occupy (one copy of Bᵀ each)
  std::int64_t masked_covered = 0;  ///< entries inside those masked tiles
};

/// @brief Seconds of each kernel's work and fixed cost on one GPU for one inner size.
struct KernelTimes {
  double dense_tile = 0.0;    ///< one 64×64 block tile of a dense panel
  double full_tile = 0.0;     ///< one 64×64 full tile
  double masked_step = 0.0;   ///< one tile column of a masked-tile super-panel (16 rows of Bᵀ)
  double masked_tile = 0.0;   ///< one masked tile (its descriptor and masked store)
  double lane_entry = 0.0;    ///< one entry on the lane groups (lane_group_seconds)
  double dense_floor = 0.0;   ///< the dense-panel kernel's launch and shortest run
  double full_floor = 0.0;    ///< the full-tile kernel's
  double masked_floor = 0.0;  ///< the masked-tile kernel's
  double lane_floor = 0.0;    ///< the lane groups'
};

/// @brief The kernel times of @p device at @p inner: the rates of described_rates and the
/// per-kernel efficiencies and floors calibrated on an H100 (panel_cost_choice.cpp names the
/// measurements).
/// @param device the GPU
/// @param inner the inner size (>= 1)
/// @return the times
KernelTimes kernel_times(const GpuDescription& device, int inner);

/// @brief kernel_times with the masked tiles run by register_tile_kernel
/// (sddmm_register_tiles.cuh) instead of the ring: each tile is its own step and copies its
/// own 16 rows of Bᵀ, at the rate fitted to that kernel (panel_cost_choice.cpp names the
/// measurements), with no further cost per tile. The panel choice keeps the ring's times (its
/// per-panel figures come before the kernel is chosen); the whole plan, weighed against the
/// dense product, is costed with the kernel it runs where that kernel takes one pass over
/// inner (up to 256 values: the fit's cases).
/// @param device the GPU
/// @param inner the inner size (>= 1)
/// @return the times
KernelTimes register_kernel_times(const GpuDescription& device, int inner);

/// @brief One way of running the combined plan: the panels sent to the dense-panel kernel, and
/// whether the masked tiles run at all (else the lane groups take their entries).
struct PanelPlan {
  std::vector<char> dense;   ///< per panel: 1 on the dense-panel kernel
  bool masked_tiles = true;  ///< the masked-tile kernel runs for the other panels
  double seconds = 0.0;      ///< the modelled time (plan_seconds)
  int kernels = 0;           ///< kernels launched
  std::string name;          ///< which candidate it was (for logs and tests)
};

/// @brief The modelled time of a plan: each kernel that has work pays its floor once, plus
/// its work (dense panels: their spans' block tiles; the other panels: their full tiles,
/// masked tiles and steps, and the lane groups' entries). Output stores are left out: every
/// plan writes each entry once.
/// @param panels the figures
/// @param plan dense and masked_tiles are read; seconds and kernels are written
/// @param times the kernel times
void plan_seconds(const std::vector<PanelFigures>& panels, PanelPlan& plan,
                  const KernelTimes& times);

/// @brief The cheapest plan among a few candidates: no dense panel; every eligible panel
/// dense; each eligible panel dense where that is cheaper for the panel alone; that, plus
/// every eligible panel that would otherwise keep the masked-tile, full-tile or lane-group
/// kernel busy (so that the kernel is not launched for a few panels); each with and without
/// the masked tiles. A panel is eligible when its density reaches @p min_density. Candidates
/// whose dense panels hold fewer than @p min_dense_entries entries keep no dense panel (as
/// choose_dense_panels does). Among the candidates within 5 % of the cheapest, the one with
/// the fewest kernels wins (a launch costs more than its modelled floor when the GPU is busy).
/// @param panels the figures
/// @param times the kernel times
/// @param min_density HybridOptions::tc_density
/// @param min_dense_entries HybridOptions::tc_min_nnz
/// @return the plan
PanelPlan choose_panels_by_cost(const std::vector<PanelFigures>& panels, const KernelTimes& times,
                                double min_density, long long min_dense_entries);

/// @brief What a whole sparse plan runs, kernel by kernel: the work the dense path is weighed
/// against (HybridPlan's last choice).
struct SparsePlanWork {
  std::int64_t dense_panel_tiles = 0;  ///< 64×64 block tiles of the dense panels
  std::int64_t full_tiles = 0;         ///< 64×64 full tiles that run
  std::int64_t masked_steps = 0;       ///< tile columns the masked tiles copy
  std::int64_t masked_tiles = 0;       ///< masked 16×16 tiles
  std::int64_t lane_entries = 0;       ///< entries on the lane groups
};

/// @brief The work of @p plan (a choice of choose_panels_by_cost) on @p panels.
/// @param panels the figures
/// @param plan the dense panels and whether the masked tiles run
/// @return the work
SparsePlanWork plan_work(const std::vector<PanelFigures>& panels, const PanelPlan& plan);

/// @brief The modelled seconds of @p work at @p times, each kernel that has work paying its
/// floor once (as plan_seconds counts a panel plan).
/// @param work the work
/// @param times the kernel times
/// @return seconds
double sparse_plan_seconds(const SparsePlanWork& work, const KernelTimes& times);

/// @brief Per 64-row panel: the masked tiles, their steps and the entries they hold, from the
/// search's keys and masks (masked_tiles.hpp: key = (super-panel · tile_cols + tile column) ·
/// panels + panel within the super-panel).
/// @param keys one per tile
/// @param masks 16 per tile
/// @param panels 16-row panels per super-panel (1, 2 or 4)
/// @param tile_cols tile columns of S
/// @param figures one per 64-row panel: masked_tiles, masked_steps and masked_covered are
/// added to (a tile past the last panel is refused: std::invalid_argument)
void add_masked_panel_figures(const std::vector<std::uint64_t>& keys,
                              const std::vector<std::uint16_t>& masks, int panels, int tile_cols,
                              std::vector<PanelFigures>& figures);

}  // namespace course::step5
