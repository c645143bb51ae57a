/// @file panel_cost_choice.cpp
/// @brief kernel_times() with its calibrated constants, plan_seconds(), the candidates of
/// choose_panels_by_cost(), and the per-panel figures of the masked tiles.
///
/// Step 5, going further: the combined plan's choice per 64-row panel, by modelled kernel times.
/// Read first: panel_cost_choice.hpp.
#include "step5_tensor_core_sddmm/going_further/panel_cost_choice.hpp"

#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <utility>

namespace course::step5 {
namespace {

// Calibrated on an NVIDIA H100 80GB HBM3, 2026-11-25 (the final run of issue 31:
// lab/results/variant_panels64_h100.md and variant_masked16_h100.md, each kernel alone on the
// attention set and the matrices, inner 64, 128 and 256), by least squares over the cases
// where one kernel did all the work; the output stores (4 bytes an entry at DRAM rate,
// written once by every plan) were taken out first.

/// The dense-panel kernel's 64×64 tile reads 64 rows of A and 64 of Bᵀ at this share of the
/// L2 gather rate, plus kDenseTileCycles of one SM for its tile-start table and its scattered
/// stores. The H100's fit for the WMMA kernel (3.7 TB/s, 0.45 of the gather rate, and 1800
/// cycles, over 381 to 2550 tiles: window and causal masks, bcsstk16, rn50), both divided by
/// 1.11 when the ldmatrix and mma.sync product with stages of 64 values replaced it: its
/// measured speed-up (geometric mean of 24 dense-ish cases, every panel forced dense, NVIDIA
/// H200, 2026-11-29: lab/results/dense_panel_mma_h200.md). Refits on the H200 were tried and
/// not kept: they put 2.2 times too little on a 10 % mask of 48-blocks at inner 64, where the
/// dense panels then took 1.41 times as long as the masked tiles
/// (lab/results/dense_panel_refit_h200.md).
constexpr double kDensePanelOverGather = 0.50;
constexpr double kDenseTileCycles = 1620.0;  // about 6 ns of the whole H100 per tile

/// The full-tile kernel's 64×64 tile: the same reads at about the gather rate (8 TB/s over
/// 1638 and 3276 tiles of the 64- and 128-block masks), plus kFullTileCycles.
constexpr double kFullTileOverGather = 1.0;
constexpr double kFullTileCycles = 1200.0;  // about 4.7 ns per tile

/// The masked-tile kernel copies 16 rows of Bᵀ per tile column at this share of the gather
/// rate, and spends about kMaskedTileBytes at that rate per tile. Refitted for the ring of 2
/// stages (masked_tile_stages) on an NVIDIA H200, 2026-11-29: 1.62 TB/s by least squares over
/// the 13 cases of lab/results/masked_tiles_stages_h200.md where the masked tiles did all the
/// work (steps and tiles counted on the host, the floor and the stores taken out; the fit gives
/// 0.92 to 1.38 times each case: lab/results/masked_tile_refit_h200.md). The H100's fit with 4
/// stages (2026-11-25) was 0.12: 1.0-1.3 TB/s over 12 masks. The threshold of a tile
/// (tile_threshold) still takes the copies at half the gather rate: see lab/NOTEBOOK.md.
constexpr double kMaskedStepOverGather = 0.197;
constexpr double kMaskedTileBytes = 384.0;

/// register_tile_kernel copies each tile's 16 rows of Bᵀ straight into its registers at this
/// share of the gather rate, with no further cost per tile. Fitted on an NVIDIA H200,
/// 2026-11-30: 4.42 TB/s, 0.537 of the gather rate, by least squares over the 24 pattern cases
/// of lab/results/tiles_{public,other}_h200.md where the register kernel did all the work, at
/// inner 64, 128 and 256 (tiles counted by the plan, the floor and the stores taken out; 0.96 to
/// 1.26 times each case, 0.96 to 1.07 at inner 256: lab/results/register_tile_fit_h200.md, made
/// by lab/experiments/register_tile_fit.py). A term per tile came out below zero, so the one-rate
/// form was kept. The ring's rate above is 2.7 times slower: costed with it, the registers'
/// 65536 tiles of a quarter of 8192² in 16-blocks at inner 256 lost to the dense product.
constexpr double kRegisterStepOverGather = 0.537;

/// What each kernel costs beyond its launch when it has little work: the fits' intercepts
/// (dense panels 5 µs, full tiles 4–12 µs, masked tiles 11–15 µs, lane groups 5 µs, launch
/// included). The masked kernel's is the longest: each block first copies its panels' rows of
/// A and fills its ring of stages.
constexpr double kDenseExtraSeconds = 1e-6;
constexpr double kFullExtraSeconds = 2e-6;
constexpr double kMaskedExtraSeconds = 9e-6;
constexpr double kLaneExtraSeconds = 1e-6;

/// Candidates within this share of the cheapest are ties; the fewest kernels wins them.
constexpr double kTieShare = 0.05;

bool eligible(const PanelFigures& panel, double min_density) {
  return panel.outside_full > 0 && panel.density >= min_density;
}

/// The panel's time on the dense-panel kernel.
double dense_seconds(const PanelFigures& panel, const KernelTimes& times) {
  return static_cast<double>(panel.span_blocks) * times.dense_tile;
}

/// The panel's time on the other kernels (with or without masked tiles).
double other_seconds(const PanelFigures& panel, const KernelTimes& times, bool masked_tiles) {
  const std::int64_t covered = masked_tiles ? panel.masked_covered : 0;
  double seconds = static_cast<double>(panel.full_tiles) * times.full_tile +
                   static_cast<double>(panel.outside_full - covered) * times.lane_entry;
  if (masked_tiles) {
    seconds += static_cast<double>(panel.masked_steps) * times.masked_step +
               static_cast<double>(panel.masked_tiles) * times.masked_tile;
  }
  return seconds;
}

/// Clears the dense panels of @p plan when they hold fewer entries than the dense kernel needs.
void apply_min_dense_entries(const std::vector<PanelFigures>& panels, PanelPlan& plan,
                             long long min_dense_entries) {
  std::int64_t dense_entries = 0;
  for (std::size_t panel = 0; panel < panels.size(); ++panel) {
    dense_entries += plan.dense[panel] != 0 ? panels[panel].outside_full : 0;
  }
  if (dense_entries < min_dense_entries) {
    std::fill(plan.dense.begin(), plan.dense.end(), 0);
  }
}

/// The dense sets of the candidates, before the masked tiles' switch.
std::vector<std::pair<std::string, std::vector<char>>> dense_candidates(
    const std::vector<PanelFigures>& panels, const KernelTimes& times, double min_density) {
  const std::size_t count = panels.size();
  std::vector<char> none(count, 0);
  std::vector<char> all(count, 0);
  std::vector<char> cheaper(count, 0);
  std::vector<char> no_masked(count, 0);
  std::vector<char> no_full(count, 0);
  std::vector<char> no_lanes(count, 0);
  for (std::size_t index = 0; index < count; ++index) {
    const PanelFigures& panel = panels[index];
    if (!eligible(panel, min_density)) {
      continue;
    }
    all[index] = 1;
    cheaper[index] = dense_seconds(panel, times) < other_seconds(panel, times, true) ? 1 : 0;
    no_masked[index] = cheaper[index] != 0 || panel.masked_tiles > 0 ? 1 : 0;
    no_full[index] = cheaper[index] != 0 || panel.full_tiles > 0 ? 1 : 0;
    no_lanes[index] = cheaper[index] != 0 || panel.outside_full > panel.masked_covered ? 1 : 0;
  }
  return {{"no dense panel", none},
          {"every eligible panel dense", all},
          {"each panel its cheaper way", cheaper},
          {"cheaper, and no masked tiles beside", no_masked},
          {"cheaper, and no full tiles beside", no_full},
          {"cheaper, and no lane groups beside", no_lanes}};
}

}  // namespace

KernelTimes kernel_times(const GpuDescription& device, int inner) {
  const DeviceRates rates = described_rates(device);
  const double sm_cycles_per_second =
      static_cast<double>(device.sm_count) * 1e3 * static_cast<double>(device.sm_clock_khz);
  const double block_tile_bytes = 128.0 * row_bytes(inner);  // 64 rows of A and 64 of Bᵀ
  const double gather = rates.l2_gather_bytes_per_second;
  KernelTimes times;
  times.dense_tile =
      block_tile_bytes / (kDensePanelOverGather * gather) + kDenseTileCycles / sm_cycles_per_second;
  times.full_tile =
      block_tile_bytes / (kFullTileOverGather * gather) + kFullTileCycles / sm_cycles_per_second;
  times.masked_step = 16.0 * row_bytes(inner) / (kMaskedStepOverGather * gather);
  times.masked_tile = kMaskedTileBytes / (kMaskedStepOverGather * gather);
  times.lane_entry = lane_group_seconds(rates, inner, 1);
  times.dense_floor = rates.launch_seconds + kDenseExtraSeconds;
  times.full_floor = rates.launch_seconds + kFullExtraSeconds;
  times.masked_floor = rates.launch_seconds + kMaskedExtraSeconds;
  times.lane_floor = rates.launch_seconds + kLaneExtraSeconds;
  return times;
}

KernelTimes register_kernel_times(const GpuDescription& device, int inner) {
  KernelTimes times = kernel_times(device, inner);
  const double gather = described_rates(device).l2_gather_bytes_per_second;
  times.masked_step = 16.0 * row_bytes(inner) / (kRegisterStepOverGather * gather);
  times.masked_tile = 0.0;
  return times;
}

void plan_seconds(const std::vector<PanelFigures>& panels, PanelPlan& plan,
                  const KernelTimes& times) {
  if (plan.dense.size() != panels.size()) {
    throw std::invalid_argument(
        "a plan names each panel once: " + std::to_string(plan.dense.size()) + " flags for " +
        std::to_string(panels.size()) + " panels");
  }
  double work = 0.0;
  bool dense = false;
  bool full = false;
  bool masked = false;
  bool lanes = false;
  for (std::size_t index = 0; index < panels.size(); ++index) {
    const PanelFigures& panel = panels[index];
    if (plan.dense[index] != 0) {
      work += dense_seconds(panel, times);
      dense = true;
      continue;
    }
    work += other_seconds(panel, times, plan.masked_tiles);
    full = full || panel.full_tiles > 0;
    masked = masked || (plan.masked_tiles && panel.masked_tiles > 0);
    const std::int64_t covered = plan.masked_tiles ? panel.masked_covered : 0;
    lanes = lanes || panel.outside_full > covered;
  }
  plan.kernels = (dense ? 1 : 0) + (full ? 1 : 0) + (masked ? 1 : 0) + (lanes ? 1 : 0);
  plan.seconds = work + (dense ? times.dense_floor : 0.0) + (full ? times.full_floor : 0.0) +
                 (masked ? times.masked_floor : 0.0) + (lanes ? times.lane_floor : 0.0);
}

PanelPlan choose_panels_by_cost(const std::vector<PanelFigures>& panels, const KernelTimes& times,
                                double min_density, long long min_dense_entries) {
  std::vector<PanelPlan> candidates;
  for (auto& [name, dense] : dense_candidates(panels, times, min_density)) {
    for (const bool masked_tiles : {true, false}) {
      PanelPlan plan;
      plan.dense = dense;
      plan.masked_tiles = masked_tiles;
      plan.name = name + (masked_tiles ? "" : ", masked tiles to the lane groups");
      apply_min_dense_entries(panels, plan, min_dense_entries);
      plan_seconds(panels, plan, times);
      candidates.push_back(std::move(plan));
    }
  }
  const double cheapest =
      std::min_element(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
        return a.seconds < b.seconds;
      })->seconds;
  // The first of the fewest kernels among the ties, then the cheaper.
  const PanelPlan* best = nullptr;
  for (const PanelPlan& plan : candidates) {
    if (plan.seconds > cheapest * (1.0 + kTieShare)) {
      continue;
    }
    if (best == nullptr || plan.kernels < best->kernels ||
        (plan.kernels == best->kernels && plan.seconds < best->seconds)) {
      best = &plan;
    }
  }
  return *best;
}

SparsePlanWork plan_work(const std::vector<PanelFigures>& panels, const PanelPlan& plan) {
  if (plan.dense.size() != panels.size()) {
    throw std::invalid_argument(
        "a plan names each panel once: " + std::to_string(plan.dense.size()) + " flags for " +
        std::to_string(panels.size()) + " panels");
  }
  SparsePlanWork work;
  for (std::size_t index = 0; index < panels.size(); ++index) {
    const PanelFigures& panel = panels[index];
    if (plan.dense[index] != 0) {
      work.dense_panel_tiles += panel.span_blocks;
      continue;
    }
    work.full_tiles += panel.full_tiles;
    const std::int64_t covered = plan.masked_tiles ? panel.masked_covered : 0;
    work.lane_entries += panel.outside_full - covered;
    if (plan.masked_tiles) {
      work.masked_steps += panel.masked_steps;
      work.masked_tiles += panel.masked_tiles;
    }
  }
  return work;
}

double sparse_plan_seconds(const SparsePlanWork& work, const KernelTimes& times) {
  const auto kernel = [](std::int64_t count, double each, double floor) {
    return count > 0 ? static_cast<double>(count) * each + floor : 0.0;
  };
  return kernel(work.dense_panel_tiles, times.dense_tile, times.dense_floor) +
         kernel(work.full_tiles, times.full_tile, times.full_floor) +
         kernel(work.masked_steps, times.masked_step, times.masked_floor) +
         static_cast<double>(work.masked_tiles) * times.masked_tile +
         kernel(work.lane_entries, times.lane_entry, times.lane_floor);
}

void add_masked_panel_figures(const std::vector<std::uint64_t>& keys,
                              const std::vector<std::uint16_t>& masks, int panels, int tile_cols,
                              std::vector<PanelFigures>& figures) {
  if (panels != 1 && panels != 2 && panels != 4) {
    throw std::invalid_argument("masked tiles group 1, 2 or 4 panels, got " +
                                std::to_string(panels));
  }
  if (masks.size() != keys.size() * 16 || tile_cols < 1) {
    throw std::invalid_argument("16 masks per tile and at least one tile column are needed");
  }
  // A 64-row panel holds 4 / panels super-panels: the super-panel's first 16-row panel / 4.
  const auto panel_of_step = [&](std::uint64_t step_key) {
    const std::uint64_t super_panel = step_key / static_cast<std::uint64_t>(tile_cols);
    const std::uint64_t panel = super_panel * static_cast<std::uint64_t>(panels) / 4;
    if (panel >= figures.size()) {
      throw std::invalid_argument("a masked tile lies past the last 64-row panel");
    }
    return static_cast<std::size_t>(panel);
  };
  std::vector<std::uint64_t> step_keys(keys.size());
  for (std::size_t tile = 0; tile < keys.size(); ++tile) {
    step_keys[tile] = keys[tile] / static_cast<std::uint64_t>(panels);
    const std::uint64_t tile_row =
        step_keys[tile] / static_cast<std::uint64_t>(tile_cols) * panels + keys[tile] % panels;
    const std::size_t panel = static_cast<std::size_t>(tile_row / 4);
    if (panel >= figures.size()) {
      throw std::invalid_argument("a masked tile lies past the last 64-row panel");
    }
    figures[panel].masked_tiles += 1;
    for (std::size_t row = 0; row < 16; ++row) {
      figures[panel].masked_covered +=
          static_cast<std::int64_t>(std::bitset<16>(masks[tile * 16 + row]).count());
    }
  }
  std::sort(step_keys.begin(), step_keys.end());
  step_keys.erase(std::unique(step_keys.begin(), step_keys.end()), step_keys.end());
  for (const std::uint64_t step_key : step_keys) {
    figures[panel_of_step(step_key)].masked_steps += 1;
  }
}

}  // namespace course::step5
