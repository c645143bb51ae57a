/// @file hybrid_plan.cu
/// @brief HybridPlan: what approach 4 prepares once per S (the full tiles, the dense panel
/// tables, the lane groups' list), HybridPlan::run, which checks the operands and calls
/// launch_hybrid, and the entry that adds approach 4 to a program's list.
///
/// Step 5, approach 4 (going further): its preprocessing of S and its run.
/// Read first: hybrid_plan.hpp (HybridPlan, launch_hybrid), then full_tiles.hpp.
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"

#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_tile_values.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief What approach 4 prepares before its kernels run: the tables they read and what the
/// plan chose. Built whole by HybridPlan::build_state and moved into the plan, which only
/// reads it after.
struct HybridPlan::State {
  DensePanelTables panels;             ///< the dense panels' tables
  FullTileSearch full;                 ///< the full tiles
  course::DeviceBuffer<int> listed;    ///< with full tiles: the lane groups' entries
  MaskedTilePlan masked;               ///< masked16: the tiles, their list, or the dense path
  std::int64_t tensor_core_units = 0;  ///< tensor_core_units()
  std::int64_t full_tiles = 0;         ///< full_tiles()
  PanelPlan panel_plan;                ///< panel_plan()
  PlanEntries entries;                 ///< entries()
};

namespace {

void check_options(const HybridOptions& options) {
  if (options.lane_iterations < 0 || options.lane_iterations > 64) {
    throw std::invalid_argument("lane_iterations must be in [0, 64] (0: automatic), got " +
                                std::to_string(options.lane_iterations));
  }
  if (options.tc_min_nnz < 0) {
    throw std::invalid_argument("tc_min_nnz must not be negative, got " +
                                std::to_string(options.tc_min_nnz));
  }
  if (!(options.combined_tc_density > 0.0) || options.combined_tc_density > 1.0) {
    throw std::invalid_argument("combined_tc_density must be in (0, 1], got " +
                                std::to_string(options.combined_tc_density));
  }
  if (!(options.tc_density > 0.0) || options.tc_density > 1.0) {
    throw std::invalid_argument("tc_density must be in (0, 1], got " +
                                std::to_string(options.tc_density));
  }
}

/// A threshold no masked tile reaches: the plan by cost sends their entries to the lane groups.
constexpr int kNoMaskedTile = kMaskedTileEdge * kMaskedTileEdge + 1;

/// Each 64-row panel's entries, span (as choose_dense_panels measures it) and full tiles.
std::vector<PanelFigures> panel_figures(const DevicePattern& pattern, const PanelStatistics& panels,
                                        const std::vector<std::int64_t>& counts,
                                        const FullTileSearch& full) {
  const std::vector<PanelSpan>& spans = panels.spans;
  std::vector<PanelFigures> figures(counts.size());
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    PanelFigures& figure = figures[panel];
    figure.entries = panels.nnz[panel];
    figure.outside_full = counts[panel];
    if (figure.entries == 0) {
      continue;  // an empty panel: nothing to run
    }
    const int first_block = spans[panel].first_col / kPanelTileCols;
    figure.span_blocks = spans[panel].last_col / kPanelTileCols - first_block + 1;
    const int span_cols =
        std::min((first_block + figure.span_blocks) * kPanelTileCols, pattern.cols()) -
        first_block * kPanelTileCols;
    const int panel_rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    figure.density = static_cast<double>(counts[panel]) /
                     (static_cast<double>(panel_rows) * static_cast<double>(span_cols));
  }
  if (full.tile_count > 0) {
    std::vector<FullTile> tiles(static_cast<std::size_t>(full.tile_count));
    full.tiles.download(tiles.data(), tiles.size());
    for (const FullTile& tile : tiles) {
      figures[static_cast<std::size_t>(tile.first_row / kPanelRows)].full_tiles += 1;
    }
  }
  return figures;
}

/// The combined plan's choice by cost: each panel costed on the dense-panel kernel and on the
/// others, whole plans compared.
PanelPlan plan_panels_by_cost(const DevicePattern& pattern, const PanelStatistics& panels,
                              int inner, const HybridOptions& options,
                              const std::vector<std::int64_t>& counts, const FullTileSearch& full) {
  std::vector<PanelFigures> figures = panel_figures(pattern, panels, counts, full);
  const GpuDescription& device = describe_current_gpu();
  add_masked_tiles_by_panel(pattern, inner, options.masked, device,
                            full.tile_count > 0 ? full.covered.data() : nullptr, figures);
  return choose_panels_by_cost(figures, kernel_times(device, std::max(inner, 1)),
                               options.tc_density, options.tc_min_nnz);
}

/// What the dense panels leave to the other kernels.
struct PanelTally {
  std::int64_t remaining = 0;      ///< entries in no full tile and in no dense panel
  std::int64_t dense_entries = 0;  ///< entries in the dense panels
  /// a full tile lies outside the dense panels (one inside stays idle: the panel's kernel
  /// writes all of its entries)
  bool tiles_outside_dense_panels = false;
};

/// Tallies each panel: a dense one's entries, or a sparse one's entries left by the full tiles
/// (@p counts), from each panel's entries (@p panel_nnz).
PanelTally tally_panels(const std::vector<std::int64_t>& panel_nnz,
                        const std::vector<std::int64_t>& counts, const DensePanelChoice& choice) {
  PanelTally tally;
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (!choice.panel_slot.empty() && choice.panel_slot[panel] != 0) {
      tally.dense_entries += panel_nnz[panel];
      continue;  // a dense panel
    }
    tally.remaining += counts[panel];
    tally.tiles_outside_dense_panels =
        tally.tiles_outside_dense_panels || counts[panel] != panel_nnz[panel];
  }
  return tally;
}

}  // namespace

HybridPlan::HybridPlan(const DevicePattern& pattern, int inner, const HybridOptions& options)
    : pattern_(&pattern), inner_(inner), options_(options) {
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("inner must not be negative, got " + std::to_string(inner));
  }
  panels_ = &panel_statistics(pattern, measured_);
  state_ = std::make_unique<const State>(build_state());
  CUDA_CHECK(cudaDeviceSynchronize());
}

HybridPlan::State HybridPlan::build_state() const {
  State state = options_.tensor_core_tiles == TensorCoreTiles::masked16 ? masked_tile_state()
                                                                        : block_tile_state();
  if (options_.tensor_core_tiles == TensorCoreTiles::combined && options_.masked.dense_path) {
    choose_dense_path(state);
  }
  if (state.masked.dense) {
    // The dense product computes every entry: nothing else runs, no panel either (the choice
    // by cost no longer describes the plan). The rest of `state` is freed on return.
    State dense;
    dense.masked = std::move(state.masked);
    dense.entries.dense_path = pattern_->nnz();
    return dense;
  }
  add_block_tile_figures(state);
  return state;
}

HybridPlan::State HybridPlan::masked_tile_state() const {
  State state;
  state.masked =
      plan_masked_tiles(*pattern_, *panels_, inner_, options_.masked, describe_current_gpu());
  state.tensor_core_units = state.masked.figures.tiles;
  state.entries.masked_tiles = state.masked.figures.covered;
  state.entries.lane_groups = pattern_->nnz() - state.entries.masked_tiles;
  return state;
}

HybridPlan::State HybridPlan::block_tile_state() const {
  State state;
  // Full tiles first: the panels are then judged by what is left of them.
  state.full = find_full_tiles(*pattern_, panels_->nnz, options_);
  state.full_tiles = state.full.tile_count;
  std::vector<std::int64_t> counts = panels_->nnz;
  for (std::size_t panel = 0; panel < state.full.covered_per_panel.size(); ++panel) {
    counts[panel] -= state.full.covered_per_panel[panel];
  }
  HybridOptions panel_options = options_;
  MaskedTileOptions masked_options = options_.masked;
  const bool combined = options_.tensor_core_tiles == TensorCoreTiles::combined;
  if (combined && options_.panel_choice == PanelChoice::cost) {
    state.panel_plan =
        plan_panels_by_cost(*pattern_, *panels_, inner_, options_, counts, state.full);
    if (!state.panel_plan.masked_tiles && !options_.masked.eager) {
      masked_options.min_entries = kNoMaskedTile;  // eager keeps them, as it does on its own
    }
  } else if (combined) {
    // The masked tiles take the panels below combined_tc_density.
    panel_options.tc_density = std::max(options_.tc_density, options_.combined_tc_density);
  }
  const DensePanelChoice choice =
      choose_dense_panels(*pattern_, panels_->spans, counts, panel_options,
                          state.panel_plan.dense.empty() ? nullptr : &state.panel_plan.dense);
  state.tensor_core_units = static_cast<std::int64_t>(choice.slots.size());
  state.panels = upload_dense_panels(choice, *pattern_);
  order_dense_tile_values(state.panels, *pattern_);  // a valued S: its values in the tiles' order
  const PanelTally tally = tally_panels(panels_->nnz, counts, choice);
  state.panels.sparse_rows = tally.remaining > 0;
  state.entries.dense_panels = tally.dense_entries;
  state.entries.full_tiles = pattern_->nnz() - tally.dense_entries - tally.remaining;
  state.entries.lane_groups = tally.remaining;  // combined: less the masked tiles' entries
  const int* panel_slot = choice.slots.empty() ? nullptr : state.panels.storage.at<int>(0);
  if (combined) {
    // Masked 16×16 tiles among the entries no full tile and no dense panel computes; the
    // masked plan then lists what is left to the lane groups. The dense product is weighed
    // against the whole plan (choose_dense_path), not against their share alone.
    const MaskedExclusion exclusion{
        tally.tiles_outside_dense_panels ? state.full.covered.data() : nullptr, panel_slot};
    masked_options.dense_path = false;
    state.masked = plan_masked_tiles(*pattern_, *panels_, inner_, masked_options,
                                     describe_current_gpu(), exclusion, tally.remaining);
    state.tensor_core_units += state.masked.figures.tiles;
    state.entries.masked_tiles = state.masked.figures.covered;
    state.entries.lane_groups = tally.remaining - state.entries.masked_tiles;
  } else if (tally.tiles_outside_dense_panels) {
    // The lane groups take a list: the entries in no full tile and in no dense panel.
    state.listed = list_remaining_entries(*pattern_, state.full, panel_slot, tally.remaining);
  }
  if (!tally.tiles_outside_dense_panels) {
    // Every full tile lies in a dense panel: none runs, and without a list the lane groups
    // skip the dense panels by their flags.
    state.full = {};
  }
  state.full.covered = {};  // only the lists needed it (freed in stream order)
  return state;
}

void HybridPlan::choose_dense_path(State& state) const {
  const std::int64_t nnz = pattern_->nnz();
  if (nnz == 0 || inner_ <= 0) {
    return;  // nothing to compute, or nothing to multiply
  }
  // The whole plan found, kernel by kernel, with the times calibrated per kernel and the
  // masked tiles' kernel it runs (panel_cost_choice.hpp): each kernel pays its floor once.
  const GpuDescription& device = describe_current_gpu();
  const MaskedPlanFigures& masked = state.masked.figures;
  // The masked tiles as weighed (MaskedPlanFigures::weighed: the ring's steps where the register
  // kernel runs a dense mask at one tile column a stage).
  const SparsePlanWork work{state.panels.tile_count, state.full.tile_count, masked.weighed.steps,
                            masked.tiles, state.entries.lane_groups};
  // The register kernel's rate on one pass over inner (its fit); several ran slower: the ring's.
  const bool one_pass =
      masked.weighed.kernel == MaskedTileKernel::registers && masked.shape.chunk >= inner_;
  const double sparse_seconds = sparse_plan_seconds(
      work, one_pass ? register_kernel_times(device, inner_) : kernel_times(device, inner_));
  const double dense_seconds = dense_product_seconds(described_rates(device), pattern_->rows(),
                                                     pattern_->cols(), inner_, nnz);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  course::device_memory(free_bytes, total_bytes);
  const std::uint64_t buffer = dense_product_buffer_bytes(pattern_->rows(), pattern_->cols());
  if (!dense_product_pays(dense_seconds, sparse_seconds, buffer, free_bytes)) {
    return;
  }
  take_dense_path(state.masked, *pattern_, *panels_, inner_);
  state.masked.figures.model_sparse_seconds = sparse_seconds;
  state.masked.figures.model_dense_seconds = dense_seconds;
}

void HybridPlan::add_block_tile_figures(State& state) const {
  // Each 64×64 block tile (full tiles, and the dense panels' tiles) brings 64 rows of A and
  // 64 rows of Bᵀ and computes 64·64·inner products.
  const std::int64_t block_tiles = state.full.tile_count + state.panels.tile_count;
  const double inner16 = static_cast<double>(wmma_padded(inner_));
  MaskedPlanFigures& figures = state.masked.figures;
  figures.gathered_bytes += static_cast<double>(block_tiles) * 128.0 * row_bytes(inner_);
  figures.tensor_flops += static_cast<double>(block_tiles) * 2.0 * 64.0 * 64.0 * inner16;
  if (options_.tensor_core_tiles != TensorCoreTiles::masked16 && pattern_->nnz() > 0) {
    // panels64 and combined: what the lane groups compute and the launches, from the plan
    figures.launches = (state.panels.tile_count > 0 ? 1 : 0) + (state.full.tile_count > 0 ? 1 : 0) +
                       (figures.tiles > 0 ? 1 : 0) + (state.entries.lane_groups > 0 ? 1 : 0);
  }
}

HybridPlan::~HybridPlan() = default;

std::size_t HybridPlan::workspace_bytes() const {
  const MaskedTilePlan& masked = state_->masked;
  return state_->panels.storage.bytes() + state_->full.tiles.bytes() +
         state_->full.row_starts.bytes() + state_->listed.bytes() + masked.tiles.bytes() +
         masked.listed.bytes() + (masked.dense ? masked.dense->bytes() : 0);
}

std::string HybridPlan::describe() const {
  const int kernels = state_->masked.figures.launches;
  return "plan: " + std::to_string(state_->entries.full_tiles) + " entries on full tiles, " +
         std::to_string(state_->entries.dense_panels) + " on dense panels, " +
         std::to_string(state_->entries.masked_tiles) + " on masked tiles" +
         describe_masked_tiles(state_->masked.figures) + ", " +
         std::to_string(state_->entries.lane_groups) + " on lane groups, " +
         std::to_string(state_->entries.dense_path) + " on the dense path (" +
         std::to_string(kernels) + (kernels == 1 ? " kernel)" : " kernels)");
}

const MaskedPlanFigures& HybridPlan::masked_figures() const {
  return state_->masked.figures;
}

std::int64_t HybridPlan::tensor_core_units() const {
  return state_->tensor_core_units;
}

std::int64_t HybridPlan::full_tiles() const {
  return state_->full_tiles;
}

const PanelPlan& HybridPlan::panel_plan() const {
  return state_->panel_plan;
}

const PlanEntries& HybridPlan::entries() const {
  return state_->entries;
}

void HybridPlan::run(const DenseOperands& operands, float* output, cudaStream_t stream) const {
  check_run_arguments(operands, *pattern_, inner_, output);
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  // Every plan as a graph: a graph's launch queues even one kernel sooner than a launch of it,
  // and the dense path's cuBLAS call spends host time choosing its GEMM on every call.
  if (!options_.run_graph) {
    queue_run(operands, output, stream);
    return;
  }
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  graph_->run(RunGraphKey{device, operands, output}, stream,
              [&](cudaStream_t queue_stream) { queue_run(operands, output, queue_stream); });
}

void HybridPlan::queue_run(const DenseOperands& operands, float* output,
                           cudaStream_t stream) const {
  if (options_.tensor_core_tiles == TensorCoreTiles::masked16 || state_->masked.dense) {
    run_masked(operands, output, stream);
    return;
  }
  const MaskedTilePlan& masked = state_->masked;
  // combined: the masked tiles' list replaces the full tiles' (it also leaves out the masked
  // tiles' entries); without a list the lane groups go by panels.
  const bool masked_list = masked.listed.size() > 0 || masked.tiles.tile_count > 0;
  const int* listed = masked_list ? masked.listed.data() : state_->listed.data();
  const std::int64_t listed_count =
      masked_list ? masked.figures.lane_entries : static_cast<std::int64_t>(state_->listed.size());
  const float* values = pattern_->unit_values() ? nullptr : pattern_->values();
  launch_hybrid(
      state_->panels, state_->tensor_core_units > masked.figures.tiles,
      FullTileWork{state_->full.tiles.data(), state_->full.row_starts.data(),
                   state_->full.tile_count, listed, listed_count, masked_list},
      options_, operands, *pattern_, output,
      [&](ParallelLaunches& launches) {
        if (masked.tiles.tile_count > 0) {
          launch_masked_tiles(masked.tiles, masked.figures.shape, operands, values, output,
                              launches.next());
        }
      },
      stream);
}

void HybridPlan::run_masked(const DenseOperands& operands, float* output,
                            cudaStream_t stream) const {
  const MaskedTilePlan& masked = state_->masked;
  if (masked.dense) {
    masked.dense->run(operands, *pattern_, output, stream);
    return;
  }
  if (masked.tiles.tile_count == 0) {
    launch_listed_lane_groups(options_, operands, *pattern_, nullptr, 0, output, stream);
    return;
  }
  // A pattern S has no values to read (unit_values): the kernels then read none.
  const float* values = pattern_->unit_values() ? nullptr : pattern_->values();
  // The tiles and the lane groups write different entries: side by side (parallel_launches.hpp).
  ParallelLaunches launches(stream);
  launch_masked_tiles(masked.tiles, masked.figures.shape, operands, values, output,
                      launches.next());
  if (masked.figures.lane_entries > 0) {
    launch_listed_lane_groups(options_, operands, *pattern_, masked.listed.data(),
                              masked.figures.lane_entries, output, launches.next());
  }
  launches.join();
}

void sddmm_hybrid(const DevicePattern& pattern, const DenseOperands& operands, float* output,
                  const HybridOptions& options) {
  const HybridPlan plan(pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

ApproachEntry hybrid_approach(const HybridOptions& options) {
  // The plan's tables: the dense panels' tile starts and the lane groups' list, about 16 B per
  // nonzero at most; a valued S's masked tiles add their values in the lanes' order, 1 KiB a tile
  // (4 to 12 B per nonzero on the attention sets' tiles), not counted here: an allocation past
  // the estimate still fails with DeviceMemoryError, which names it.
  constexpr std::uint64_t kPlanBytesPerNonzero = 16;
  return {
      kHybridApproach, std::to_string(kHybridApproach) + " hybrid", kPlanBytesPerNonzero,
      [options](const DevicePattern& pattern, int inner) {
        return std::unique_ptr<SddmmPlan>(std::make_unique<HybridPlan>(pattern, inner, options));
      },
      upload_with_panels};
}

}  // namespace course::step5
