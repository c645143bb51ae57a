// Step 5, all approaches (lesson "Reading path"): the preprocessing of S and the dispatch.
// Read first: step5_launchers.hpp (Plan, Options), then approach_launches.hpp.
/// @file plan.cu
/// @brief Plan: what each approach prepares once per S (nothing, the dense buffer, the tile
/// groups, the dense panel tables), and Plan::run, which checks the operands and calls the
/// approach's launch (one file per approach beside its kernel).
#include "approach_launches.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "dense_panel_tables.hpp"
#include "full_tiles.hpp"
#include "launch_config.hpp"
#include "step5_launchers.hpp"
#include "tile_grouping.hpp"
#include "wmma_tile_product.cuh"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief What each approach prepares before its kernel runs.
struct Plan::State {
  course::DeviceBuffer<float> dense;  ///< approach 2: the dense rows×cols product
  int ld_dense = 0;                   ///< approach 2: leading dimension of dense
  TileGroups groups;                  ///< approach 3: nonzeros grouped by 16×16 tile
  DensePanelTables panels;            ///< approach 4: the dense panels' tables
  FullTileSearch full;                ///< approach 4: the full tiles
  course::DeviceBuffer<int> listed;   ///< approach 4 with full tiles: the lane groups' entries
};

namespace {

void check_options(const Options& options) {
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

std::size_t dense_product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(round_up(rows, kTile)) *
         static_cast<std::size_t>(round_up(cols, kTile)) * sizeof(float);
}

Plan::Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options)
    : approach_(approach),
      pattern_(&pattern),
      inner_(inner),
      options_(options),
      state_(std::make_unique<State>()) {
  approach_from_number(static_cast<int>(approach));
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("inner must not be negative, got " + std::to_string(inner));
  }
  switch (approach) {
    case Approach::warp_per_nonzero:
      break;  // nothing to prepare
    case Approach::dense_wmma: {
      const std::size_t elements =
          dense_product_bytes(pattern.rows(), pattern.cols()) / sizeof(float);
      if (elements > options.dense_limit_elements) {
        std::ostringstream message;
        message << "approach 2 stores the dense product: " << round_up(pattern.rows(), kTile)
                << " x " << round_up(pattern.cols(), kTile)
                << " floats = " << course::format_bytes(elements * sizeof(float))
                << ", more than its limit of " << options.dense_limit_elements << " elements ("
                << course::format_bytes(options.dense_limit_elements * sizeof(float))
                << "); approaches 3 and 4 need no dense storage";
        throw std::length_error(message.str());
      }
      state_->ld_dense = static_cast<int>(round_up(pattern.cols(), kTile));
      state_->dense =
          course::DeviceBuffer<float>(elements, "approach 2's dense rows x cols product");
      break;
    }
    case Approach::tile_grouped:
      state_->groups = group_by_tile(pattern);
      tensor_core_units_ = state_->groups.tile_count;
      break;
    case Approach::hybrid:
      prepare_hybrid();
      break;
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void Plan::prepare_hybrid() {
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

Plan::~Plan() = default;

std::size_t Plan::workspace_bytes() const {
  return state_->dense.bytes() + state_->groups.bytes() + state_->panels.storage.bytes() +
         state_->full.tiles.bytes() + state_->full.row_starts.bytes() + state_->listed.bytes();
}

void Plan::run(const DenseOperands& operands, float* output) const {
  check_operands(operands);
  if (operands.rows != pattern_->rows() || operands.cols != pattern_->cols() ||
      operands.inner != inner_) {
    std::ostringstream message;
    message << "operands are " << operands.rows << "x" << operands.inner << " and "
            << operands.inner << "x" << operands.cols << " but S is " << pattern_->rows() << "x"
            << pattern_->cols() << " and the plan was made for inner=" << inner_;
    throw std::invalid_argument(message.str());
  }
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  if (output == nullptr) {
    throw std::invalid_argument("SDDMM output is a null pointer for " +
                                std::to_string(pattern_->nnz()) + " nonzeros");
  }
  switch (approach_) {
    case Approach::warp_per_nonzero:
      launch_warp_per_nonzero(operands, *pattern_, output);
      break;
    case Approach::dense_wmma:
      launch_dense_wmma(options_, operands, *pattern_, state_->dense.data(), state_->ld_dense,
                        output);
      break;
    case Approach::tile_grouped:
      launch_tile_grouped(state_->groups, options_.tile_ranges, operands, pattern_->nnz(), output);
      break;
    case Approach::hybrid:
      launch_hybrid(state_->panels, tensor_core_units_ > 0,
                    FullTileWork{state_->full.tiles.data(), state_->full.row_starts.data(),
                                 state_->full.tile_count, state_->listed.data(),
                                 static_cast<std::int64_t>(state_->listed.size())},
                    options_, operands, *pattern_, output);
      break;
  }
}

}  // namespace course::step5
