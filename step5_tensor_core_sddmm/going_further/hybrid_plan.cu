// Step 5, approach 4 (lesson Part 2): its preprocessing of S and its run.
// Read first: hybrid_plan.hpp (HybridPlan, launch_hybrid), then full_tiles.hpp.
/// @file hybrid_plan.cu
/// @brief HybridPlan: what approach 4 prepares once per S (the full tiles, the dense panel
/// tables, the lane groups' list), HybridPlan::run, which checks the operands and calls
/// launch_hybrid, and the entry that adds approach 4 to a program's list.
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"

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
  if (!(options.tc_density > 0.0) || options.tc_density > 1.0) {
    throw std::invalid_argument("tc_density must be in (0, 1], got " +
                                std::to_string(options.tc_density));
  }
}

}  // namespace

HybridPlan::HybridPlan(const DevicePattern& pattern, int inner, const HybridOptions& options)
    : pattern_(&pattern), inner_(inner), options_(options), state_(std::make_unique<State>()) {
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("inner must not be negative, got " + std::to_string(inner));
  }
  prepare();
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
  const DensePanelChoice choice = choose_dense_panels(*pattern_, counts, options_);
  tensor_core_units_ = static_cast<std::int64_t>(choice.slots.size());
  state_->panels = upload_dense_panels(choice, *pattern_);
  // What the lane groups still compute, and whether a full tile lies outside the dense
  // panels (one inside stays idle: the panel's kernel writes all of its entries).
  std::int64_t remaining = 0;
  bool tiles_outside_dense_panels = false;
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (!choice.panel_slot.empty() && choice.panel_slot[panel] != 0) {
      continue;  // a dense panel
    }
    remaining += counts[panel];
    tiles_outside_dense_panels =
        tiles_outside_dense_panels || counts[panel] != pattern_->panel_nnz()[panel];
  }
  state_->panels.sparse_rows = remaining > 0;
  if (!tiles_outside_dense_panels) {
    // No full tile to run: the lane groups skip the dense panels by their flags, and the
    // entries outside them are exactly the remaining ones.
    state_->full = {};
    return;
  }
  // The lane groups take a list: the entries in no full tile and in no dense panel.
  const int* panel_slot = choice.slots.empty() ? nullptr : state_->panels.storage.at<int>(0);
  state_->listed = list_remaining_entries(*pattern_, state_->full, panel_slot, remaining);
  state_->full.covered = {};  // only the list needed it (freed in stream order)
}

HybridPlan::~HybridPlan() = default;

std::size_t HybridPlan::workspace_bytes() const {
  return state_->panels.storage.bytes() + state_->full.tiles.bytes() +
         state_->full.row_starts.bytes() + state_->listed.bytes();
}

void HybridPlan::run(const DenseOperands& operands, float* output) const {
  check_run_arguments(operands, *pattern_, inner_, output);
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  launch_hybrid(state_->panels, tensor_core_units_ > 0,
                FullTileWork{state_->full.tiles.data(), state_->full.row_starts.data(),
                             state_->full.tile_count, state_->listed.data(),
                             static_cast<std::int64_t>(state_->listed.size())},
                options_, operands, *pattern_, output);
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
