/// @file hybrid_checks.cpp
/// @brief check_hybrid, and approach 4's registration with the lesson's shared checks:
/// check_all and check_csr_upload also run approach 4, with its defaults and with Tensor
/// Cores even for a small S, and check_csr_upload also uploads S by approach 4's PanelPattern.
///
/// Step 5, going further, tests (lesson "Tests"): approach 4 against the CPU reference.
/// Read first: hybrid_checks.hpp.
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"

#include "common/attention_masks.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <memory>

namespace course::step5::testing {

HalfOperands::HalfOperands(int rows, int cols, int inner, int ld, std::uint64_t seed)
    : a(course::random_half_matrix(rows, inner, ld, seed)),
      bt(course::random_half_matrix(cols, inner, ld, seed + 1)),
      device_a(a),
      device_bt(bt),
      operands{course::ProductSizes{rows, inner, cols}, device_a.data(), ld, device_bt.data(), ld} {
}

course::CooMatrix block_mask(int rows, int cols, int block, double density, bool causal,
                             std::uint64_t seed) {
  const course::AttentionMaskSpec spec =
      course::block_sparse_spec(rows, cols, block, density, causal, seed);
  return with_random_values(course::attention_mask(spec), seed + 3);
}

course::CooMatrix every_path_mask(std::uint64_t seed) {
  return with_random_values(
      pattern_of(330, 340,
                 [](int row, int col) {
                   return (row < 64 && (row + col) % 3 != 0) ||
                          (row >= 128 && row < 256 && col >= 128 && col < 256) ||
                          ((row / 24 + col / 24) % 5 == 2) || (row * 13 + col * 7) % 61 == 0;
                 }),
      seed);
}

void check_hybrid(const course::CooMatrix& s, int inner, int ld, std::uint64_t seed,
                  const course::step5::HybridOptions& options, RunOn run_on) {
  check_approach(course::step5::hybrid_approach(options), s, inner, ld, seed, run_on);
}

course::step5::HybridOptions panels64() {
  course::step5::HybridOptions options;
  options.tensor_core_tiles = course::step5::TensorCoreTiles::panels64;
  return options;
}

course::step5::HybridOptions eager_masked_tiles(int panels) {
  course::step5::HybridOptions options;
  options.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  options.masked.min_entries = 1;  // with the search's run of two: any tile with such a row
  options.masked.eager = true;     // kept even where a launch costs more than it saves
  options.masked.dense_path = false;
  if (panels != 0) {  // panels shape the ring's kernel; without, the plan's kernel
    options.masked.kernel = course::step5::MaskedTileKernel::ring;
    options.masked.panels = panels;
  }
  return options;
}

course::step5::HybridOptions eager_combined() {
  course::step5::HybridOptions options = eager_masked_tiles();
  options.tensor_core_tiles = course::step5::TensorCoreTiles::combined;
  options.tc_min_nnz = 0;         // dense panels even in a small S
  options.full_tile_min_nnz = 0;  // full tiles too
  // The density rule: on a small S the choice by cost would take one kernel (each kernel's
  // fixed cost outweighs its work), and these tests are there to run all of them together.
  options.panel_choice = course::step5::PanelChoice::density;
  return options;
}

course::step5::HybridOptions eager_tensor_cores() {
  course::step5::HybridOptions options = panels64();
  options.tc_min_nnz = 0;         // dense panels go to Tensor Cores even in a small S
  options.full_tile_min_nnz = 0;  // and full tiles too
  return options;
}

namespace {

/// Approach 4's upload (S measured by panel as it goes), for every check_csr_upload.
const ExtraUpload kPanelUpload{[](const course::CsrMatrix& csr, course::PatternValues values) {
  return std::unique_ptr<course::step5::DevicePattern>(
      std::make_unique<course::step5::PanelPattern>(csr, values));
}};

/// Approach 4 with its defaults, for every shape of check_all.
const ExtraApproach kHybridDefaults{course::step5::hybrid_approach()};

/// Approach 4's earlier plan with Tensor Cores from the first nonzero.
ExtraApproach eager_hybrid() {
  course::step5::ApproachEntry entry = course::step5::hybrid_approach(eager_tensor_cores());
  entry.name += " (Tensor Cores even for a small S)";
  return ExtraApproach{entry};
}
const ExtraApproach kHybridEager = eager_hybrid();

/// Approach 4 with masked tiles from a row of two entries.
ExtraApproach eager_masked() {
  course::step5::ApproachEntry entry = course::step5::hybrid_approach(eager_masked_tiles());
  entry.name += " (masked tiles even for a small S)";
  return ExtraApproach{entry};
}
const ExtraApproach kMaskedEager = eager_masked();

/// Approach 4's combined plan with full tiles, dense panels and masked tiles from the first
/// entries.
ExtraApproach eager_combined_approach() {
  course::step5::ApproachEntry entry = course::step5::hybrid_approach(eager_combined());
  entry.name += " (full tiles, dense panels and masked tiles even for a small S)";
  return ExtraApproach{entry};
}
const ExtraApproach kCombinedEager = eager_combined_approach();

}  // namespace

}  // namespace course::step5::testing
