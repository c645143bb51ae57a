/// @file hybrid_plan.cu
/// @brief HybridPlan: what approach 4 prepares once per S (the full tiles, the dense panel
/// tables, the lane groups' list), HybridPlan::run, which checks the operands and calls
/// launch_hybrid, and the entry that adds approach 4 to a program's list.
///
/// Step 5, approach 4 (going further): its preprocessing of S and its run.
/// Read first: hybrid_plan.hpp (HybridPlan, launch_hybrid), then full_tiles.hpp.
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
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

/// @brief What approach 4 prepares before its kernels run.
struct HybridPlan::State {
  DensePanelTables panels;           ///< the dense panels' tables
  FullTileSearch full;               ///< the full tiles
  course::DeviceBuffer<int> listed;  ///< with full tiles: the lane groups' entries
  MaskedTilePlan masked;             ///< masked16: the tiles, their list, or the dense path
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
std::vector<PanelFigures> panel_figures(const DevicePattern& pattern,
                                        const std::vector<std::int64_t>& counts,
                                        const FullTileSearch& full) {
  const std::vector<PanelSpan>& spans = pattern.panel_spans();
  std::vector<PanelFigures> figures(counts.size());
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    PanelFigures& figure = figures[panel];
    figure.entries = pattern.panel_nnz()[panel];
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

}  // namespace

HybridPlan::HybridPlan(const DevicePattern& pattern, int inner, const HybridOptions& options)
    : pattern_(&pattern), inner_(inner), options_(options), state_(std::make_unique<State>()) {
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("inner must not be negative, got " + std::to_string(inner));
  }
  if (options.tensor_core_tiles == TensorCoreTiles::masked16) {
    state_->masked = plan_masked_tiles(pattern, inner, options.masked, describe_current_gpu());
    tensor_core_units_ = state_->masked.figures.tiles;
    entries_.masked_tiles = state_->masked.figures.covered;
    entries_.lane_groups = pattern.nnz() - entries_.masked_tiles;
  } else {
    prepare();
    if (options.tensor_core_tiles == TensorCoreTiles::combined && options.masked.dense_path) {
      choose_dense_path();
    }
  }
  add_block_tile_figures();
  if (state_->masked.dense) {
    entries_ = PlanEntries{};
    entries_.dense_path = pattern.nnz();
    // The dense product computes every entry: nothing else runs.
    state_->panels = {};
    state_->full = {};
    state_->listed = {};
    tensor_core_units_ = 0;
    full_tiles_ = 0;
    panel_plan_ = {};  // no panel runs: the choice by cost no longer describes the plan
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void HybridPlan::prepare() {
  // Full tiles first: the panels are then judged by what is left of them.
  state_->full = find_full_tiles(*pattern_, options_);
  full_tiles_ = state_->full.tile_count;
  std::vector<std::int64_t> counts = pattern_->panel_nnz();
  for (std::size_t panel = 0; panel < state_->full.covered_per_panel.size(); ++panel) {
    counts[panel] -= state_->full.covered_per_panel[panel];
  }
  HybridOptions panel_options = options_;
  MaskedTileOptions masked_options = options_.masked;
  const bool combined = options_.tensor_core_tiles == TensorCoreTiles::combined;
  if (combined && options_.panel_choice == PanelChoice::cost) {
    // Each panel costed on the dense-panel kernel and on the others, whole plans compared.
    std::vector<PanelFigures> figures = panel_figures(*pattern_, counts, state_->full);
    const GpuDescription& device = describe_current_gpu();
    add_masked_tiles_by_panel(*pattern_, inner_, options_.masked, device,
                              state_->full.tile_count > 0 ? state_->full.covered.data() : nullptr,
                              figures);
    panel_plan_ = choose_panels_by_cost(figures, kernel_times(device, std::max(inner_, 1)),
                                        options_.tc_density, options_.tc_min_nnz);
    if (!panel_plan_.masked_tiles && !options_.masked.eager) {
      masked_options.min_entries = kNoMaskedTile;  // eager keeps them, as it does on its own
    }
  } else if (combined) {
    // The masked tiles take the panels below combined_tc_density.
    panel_options.tc_density = std::max(options_.tc_density, options_.combined_tc_density);
  }
  const DensePanelChoice choice = choose_dense_panels(
      *pattern_, counts, panel_options, panel_plan_.dense.empty() ? nullptr : &panel_plan_.dense);
  tensor_core_units_ = static_cast<std::int64_t>(choice.slots.size());
  state_->panels = upload_dense_panels(choice, *pattern_);
  // What the lane groups still compute, and whether a full tile lies outside the dense
  // panels (one inside stays idle: the panel's kernel writes all of its entries).
  std::int64_t remaining = 0;
  bool tiles_outside_dense_panels = false;
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (!choice.panel_slot.empty() && choice.panel_slot[panel] != 0) {
      entries_.dense_panels += pattern_->panel_nnz()[panel];
      continue;  // a dense panel
    }
    remaining += counts[panel];
    tiles_outside_dense_panels =
        tiles_outside_dense_panels || counts[panel] != pattern_->panel_nnz()[panel];
  }
  state_->panels.sparse_rows = remaining > 0;
  entries_.full_tiles = pattern_->nnz() - entries_.dense_panels - remaining;
  entries_.lane_groups = remaining;  // combined: less the masked tiles' entries, below
  const int* panel_slot = choice.slots.empty() ? nullptr : state_->panels.storage.at<int>(0);
  if (combined) {
    // Masked 16×16 tiles among the entries no full tile and no dense panel computes; the
    // masked plan then lists what is left to the lane groups.
    const MaskedExclusion exclusion{
        tiles_outside_dense_panels ? state_->full.covered.data() : nullptr, panel_slot};
    // The dense product is weighed against the whole plan (choose_dense_path), not against
    // the masked tiles' and lane groups' share alone.
    masked_options.dense_path = false;
    state_->masked = plan_masked_tiles(*pattern_, inner_, masked_options, describe_current_gpu(),
                                       exclusion, remaining);
    if (!tiles_outside_dense_panels) {
      state_->full = {};  // every full tile lies in a dense panel: none runs
    }
    state_->full.covered = {};  // only the lists needed it (freed in stream order)
    tensor_core_units_ += state_->masked.figures.tiles;
    entries_.masked_tiles = state_->masked.figures.covered;
    entries_.lane_groups = remaining - entries_.masked_tiles;
    return;
  }
  if (!tiles_outside_dense_panels) {
    // No full tile to run: the lane groups skip the dense panels by their flags, and the
    // entries outside them are exactly the remaining ones.
    state_->full = {};
    return;
  }
  // The lane groups take a list: the entries in no full tile and in no dense panel.
  state_->listed = list_remaining_entries(*pattern_, state_->full, panel_slot, remaining);
  state_->full.covered = {};  // only the list needed it (freed in stream order)
}

void HybridPlan::choose_dense_path() {
  const std::int64_t nnz = pattern_->nnz();
  if (nnz == 0 || inner_ <= 0) {
    return;  // nothing to compute, or nothing to multiply
  }
  // The whole plan found, kernel by kernel, with the times calibrated per kernel
  // (panel_cost_choice.hpp): each kernel that runs pays its floor once.
  const GpuDescription& device = describe_current_gpu();
  const MaskedPlanFigures& masked = state_->masked.figures;
  SparsePlanWork work;
  work.dense_panel_tiles = state_->panels.tile_count;
  work.full_tiles = state_->full.tile_count;
  work.masked_steps = masked.steps;
  work.masked_tiles = masked.tiles;
  work.lane_entries = entries_.lane_groups;
  const double sparse_seconds = sparse_plan_seconds(work, kernel_times(device, inner_));
  const double dense_seconds = dense_product_seconds(described_rates(device), pattern_->rows(),
                                                     pattern_->cols(), inner_, nnz);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  course::device_memory(free_bytes, total_bytes);
  const std::uint64_t buffer = dense_product_buffer_bytes(pattern_->rows(), pattern_->cols());
  if (!dense_product_pays(dense_seconds, sparse_seconds, buffer, free_bytes)) {
    return;
  }
  take_dense_path(state_->masked, *pattern_, inner_);
  state_->masked.figures.model_sparse_seconds = sparse_seconds;
  state_->masked.figures.model_dense_seconds = dense_seconds;
}

void HybridPlan::add_block_tile_figures() {
  if (state_->masked.dense) {
    return;  // the dense path's figures are the whole product's already
  }
  // Each 64×64 block tile (full tiles, and the dense panels' tiles) brings 64 rows of A and
  // 64 rows of Bᵀ and computes 64·64·inner products.
  const std::int64_t block_tiles = state_->full.tile_count + state_->panels.tile_count;
  const double inner16 = static_cast<double>(wmma_padded(inner_));
  MaskedPlanFigures& figures = state_->masked.figures;
  figures.gathered_bytes += static_cast<double>(block_tiles) * 128.0 * row_bytes(inner_);
  figures.tensor_flops += static_cast<double>(block_tiles) * 2.0 * 64.0 * 64.0 * inner16;
  if (options_.tensor_core_tiles != TensorCoreTiles::masked16 && pattern_->nnz() > 0) {
    // panels64 and combined: what the lane groups compute and the launches, from the plan
    figures.launches = (state_->panels.tile_count > 0 ? 1 : 0) +
                       (state_->full.tile_count > 0 ? 1 : 0) + (figures.tiles > 0 ? 1 : 0) +
                       (entries_.lane_groups > 0 ? 1 : 0);
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
  return "plan: " + std::to_string(entries_.full_tiles) + " entries on full tiles, " +
         std::to_string(entries_.dense_panels) + " on dense panels, " +
         std::to_string(entries_.masked_tiles) + " on masked tiles, " +
         std::to_string(entries_.lane_groups) + " on lane groups, " +
         std::to_string(entries_.dense_path) + " on the dense path (" + std::to_string(kernels) +
         (kernels == 1 ? " kernel)" : " kernels)");
}

const MaskedPlanFigures& HybridPlan::masked_figures() const {
  return state_->masked.figures;
}

void HybridPlan::run(const DenseOperands& operands, float* output, cudaStream_t stream) const {
  check_run_arguments(operands, *pattern_, inner_, output);
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
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
      state_->panels, tensor_core_units_ > masked.figures.tiles,
      FullTileWork{state_->full.tiles.data(), state_->full.row_starts.data(),
                   state_->full.tile_count, listed, listed_count, masked_list},
      options_, operands, *pattern_, output,
      [&] {
        if (masked.tiles.tile_count > 0) {
          launch_masked_tiles(masked.tiles, masked.figures.shape, operands, values, output, stream);
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
  launch_masked_tiles(masked.tiles, masked.figures.shape, operands, values, output, stream);
  if (masked.figures.lane_entries > 0) {
    launch_listed_lane_groups(options_, operands, *pattern_, masked.listed.data(),
                              masked.figures.lane_entries, output, stream);
  }
}

void sddmm_hybrid(const DevicePattern& pattern, const DenseOperands& operands, float* output,
                  const HybridOptions& options) {
  const HybridPlan plan(pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

ApproachEntry hybrid_approach(const HybridOptions& options) {
  // The plan's tables: the dense panels' tile starts and the lane groups' list, about 16 B per
  // nonzero at most.
  constexpr std::uint64_t kPlanBytesPerNonzero = 16;
  return {
      kHybridApproach, std::to_string(kHybridApproach) + " hybrid", kPlanBytesPerNonzero,
      [options](const DevicePattern& pattern, int inner) {
        return std::unique_ptr<SddmmPlan>(std::make_unique<HybridPlan>(pattern, inner, options));
      }};
}

}  // namespace course::step5
