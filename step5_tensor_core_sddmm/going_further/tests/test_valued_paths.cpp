/// @file test_valued_paths.cpp
/// @brief GPU tests: each path of approach 4 (full tiles, dense panels, masked tiles, lane
/// groups, the dense product) with random values, with one constant value and as a pattern,
/// S uploaded through HostSampling, against the CPU reference in double with the output
/// poisoned. (The program's plan against the benchmark's: lab/tests/test_program_plan.cpp.)
///
/// Step 5, going further, tests (lesson "Tests"): approach 4 with a valued S and with a pattern S
/// on every path, uploaded as the programs upload S. Read first:
/// ../panel_pattern.hpp, ../value_prefetch.cuh, hybrid_checks.hpp.
#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_matrix.hpp"
#include "common/host_sampling.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_tile_values.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_values_in_lane_order.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

namespace {

using course::step5::HybridOptions;
using course::step5::PlanEntries;

/// Runs approach 4 with @p options on @p s uploaded through HostSampling (a pattern when every
/// value is one) and compares with the CPU reference; returns the plan's entries per path.
PlanEntries check_uploaded(const course::CooMatrix& s, int inner, std::uint64_t seed,
                           const HybridOptions& options) {
  const bool ones =
      std::all_of(s.values.begin(), s.values.end(), [](float v) { return v == 1.0f; });
  INFO("rows=" << s.rows << " cols=" << s.cols << " nnz=" << s.nnz() << " inner=" << inner
               << " pattern=" << ones << " seed " << seed);
  const course::HostSampling sampling(s);
  CHECK(sampling.pattern() == ones);
  const course::step5::PanelPattern pattern(sampling.csr(), sampling.values());
  CHECK(pattern.unit_values() == ones);  // a pattern's kernels read no values
  const course::HostMatrix<__half> a = course::random_half_matrix(s.rows, inner, inner, seed);
  const course::HostMatrix<__half> bt = course::random_half_matrix(s.cols, inner, inner, seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_bt(bt);
  const course::step5::DenseOperands operands(course::ProductSizes{s.rows, inner, s.cols},
                                              device_a.data(), inner, device_bt.data(), inner);
  course::DeviceBuffer<float> output(s.nnz(), "C");
  output.poison();
  const course::step5::HybridPlan plan(pattern, inner, options);
  plan.run(operands, output.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto result =
      course::compare_sampled(output.to_vector(), course::sddmm_reference(a, bt, s), s,
                              course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(plan.describe() << "; " << result.summary());
  CHECK(result.ok());
  const PlanEntries& entries = plan.entries();
  CHECK(entries.full_tiles + entries.dense_panels + entries.masked_tiles + entries.lane_groups +
            entries.dense_path ==
        static_cast<std::int64_t>(s.nnz()));
  return entries;
}

/// @p s with every value @p value.
course::CooMatrix with_value(course::CooMatrix s, float value) {
  std::fill(s.values.begin(), s.values.end(), value);
  return s;
}

/// The entries of each path, over the three forms of S (random values, 0.5, ones), which
/// must agree: the plan does not look at the values.
PlanEntries check_three_ways(const course::CooMatrix& pattern, int inner, std::uint64_t seed,
                             const HybridOptions& options) {
  const PlanEntries as_pattern = check_uploaded(pattern, inner, seed, options);
  const course::CooMatrix random = course::step5::testing::with_random_values(pattern, seed);
  CHECK(check_uploaded(random, inner, seed, options) == as_pattern);
  CHECK(check_uploaded(with_value(pattern, 0.5f), inner, seed, options) == as_pattern);
  return as_pattern;
}

}  // namespace

TEST_CASE("approach 4 multiplies by S's values on every path and reads none for a pattern",
          "[step5][gpu]") {
  using course::step5::testing::pattern_of;
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 128-blocks (full tiles), 24-blocks (masked tiles), scattered entries (lane groups) and a
  // dense first panel (the dense-panel kernel), cut by ragged edges (330 columns).
  const course::CooMatrix mixed = pattern_of(330, 330, [](int row, int col) {
    return (row < 64 && (row + col) % 3 != 0) ||
           (row >= 128 && row < 256 && col >= 128 && col < 256) ||
           ((row / 24 + col / 24) % 5 == 2) || (row * 13 + col * 7) % 61 == 0;
  });
  for (const int inner : {16, 64, 100, 256}) {
    const PlanEntries entries =
        check_three_ways(mixed, inner, seed, course::step5::testing::eager_combined());
    CHECK(entries.full_tiles > 0);
    CHECK(entries.dense_panels > 0);
    CHECK(entries.masked_tiles > 0);
    CHECK(entries.lane_groups > 0);
  }
  // Full tiles only, of a causal mask cut by the bottom edge (a tile of 44 rows): the full-tile
  // kernel's rows past the edge load and store nothing.
  const course::CooMatrix causal =
      pattern_of(300, 300, [](int row, int col) { return col <= row; });
  HybridOptions full_only = course::step5::testing::eager_tensor_cores();
  full_only.tc_density = 1.0;  // no dense panel: the full tiles and the lane groups
  CHECK(check_three_ways(causal, 64, seed, full_only).full_tiles > 0);
  // Masked tiles alone (masked16), 16-blocks whose tiles are whole.
  const course::CooMatrix blocks =
      pattern_of(256, 272, [](int row, int col) { return (row / 16 * 7 + col / 16) % 4 == 1; });
  CHECK(check_three_ways(blocks, 64, seed, course::step5::testing::eager_masked_tiles())
            .masked_tiles == static_cast<std::int64_t>(blocks.nnz()));
  // The dense product (every position of 512 x 512, no tile allowed).
  const course::CooMatrix full = pattern_of(512, 512, [](int, int) { return true; });
  HybridOptions dense;
  dense.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  dense.masked.min_entries = 257;
  CHECK(check_three_ways(full, 256, seed, dense).dense_path ==
        static_cast<std::int64_t>(full.nnz()));
  // The defaults on each (whatever they choose, the answer and the sum of entries hold).
  for (const course::CooMatrix* s : {&mixed, &causal, &blocks}) {
    check_three_ways(*s, 64, seed, HybridOptions{});
  }
}

TEST_CASE(
    "the masked tiles' values in the lanes' order hold each lane's entries and zeros elsewhere",
    "[step5][gpu]") {
  using course::step5::kMaskedTileEdge;
  using course::step5::kTileLaneValues;
  // The m16n8k16 accumulators' layout (PTX ISA): lane l holds rows l / 4 and + 8, columns
  // 2·(l % 4), + 1, + 8 and + 9; its entry e is 4·(second row) + 2·(second half) + (odd column).
  constexpr int kTileEntriesPerLane = 8;
  const auto entry_row = [](int lane, int entry) { return lane / 4 + (entry / 4) * 8; };
  const auto entry_col = [](int lane, int entry) {
    return ((entry / 2) % 2) * 8 + (lane % 4) * 2 + entry % 2;
  };
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 20-blocks cut by 16×16 tiles (partial tiles and rows) on a ragged 90 × 70.
  const course::CooMatrix s = course::step5::testing::with_random_values(
      course::step5::testing::pattern_of(
          90, 70, [](int row, int col) { return (row / 20 + col / 20) % 2 == 0 && col != 33; }),
      seed);
  const course::step5::DevicePattern pattern(s);
  course::step5::MaskedTiles tiles =
      course::step5::find_masked_tiles(pattern, course::step5::TileThreshold{2, 2}, 1);
  REQUIRE(tiles.tile_count > 0);
  course::step5::order_tile_values(tiles, pattern);
  REQUIRE(tiles.lane_values.size() == static_cast<std::size_t>(tiles.tile_count) * kTileLaneValues);
  const std::vector<float> ordered = tiles.lane_values.to_vector();
  const std::vector<int> starts = tiles.starts.to_vector();
  const std::vector<std::uint16_t> masks = tiles.masks.to_vector();
  std::int64_t held = 0;
  for (std::int64_t tile = 0; tile < tiles.tile_count; ++tile) {
    for (int slot = 0; slot < kTileLaneValues; ++slot) {
      const int lane = slot / kTileEntriesPerLane;
      const int row = entry_row(lane, slot % kTileEntriesPerLane);
      const int col = entry_col(lane, slot % kTileEntriesPerLane);
      const unsigned mask = masks[tile * kMaskedTileEdge + row];
      const float got = ordered[tile * kTileLaneValues + slot];
      INFO("tile " << tile << " lane " << lane << " row " << row << " col " << col);
      if (((mask >> col) & 1u) == 0) {
        CHECK(got == 0.0f);  // a position the tile does not hold
        continue;
      }
      const int position = starts[tile * kMaskedTileEdge + row] +
                           static_cast<int>(std::bitset<16>(mask & ((1u << col) - 1u)).count());
      REQUIRE(position < static_cast<int>(s.nnz()));
      CHECK(s.col_indices[position] % kMaskedTileEdge == col);  // the entry the lane holds
      CHECK(s.row_indices[position] % kMaskedTileEdge == row);
      CHECK(got == s.values[position]);
      ++held;
    }
  }
  CHECK(held == tiles.covered);
  // A pattern S: no values, none copied.
  const course::HostSampling ones(with_value(s, 1.0f));
  const course::step5::PanelPattern unit(ones.csr(), ones.values());
  course::step5::MaskedTiles unit_tiles =
      course::step5::find_masked_tiles(unit, course::step5::TileThreshold{2, 2}, 1);
  course::step5::order_tile_values(unit_tiles, unit);
  CHECK(unit_tiles.lane_values.size() == 0);
}

TEST_CASE("the dense tiles' values in the tiles' order hold S's values and zeros elsewhere",
          "[step5][gpu]") {
  using course::step5::kDenseTileValues;
  using course::step5::kPanelTileCols;
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // A band cut by ragged edges (150 × 170: partial tiles), and one position held twice (row 70,
  // column 71): that row of its tile stays zeros, its copy-out reads S.
  course::CooMatrix s = course::step5::testing::with_random_values(
      course::step5::testing::pattern_of(150, 170,
                                         [](int row, int col) { return std::abs(row - col) < 40; }),
      seed);
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    if (s.row_indices[entry] == 70 && s.col_indices[entry] == 71) {
      s.row_indices.insert(s.row_indices.begin() + entry, 70);
      s.col_indices.insert(s.col_indices.begin() + entry, 71);
      s.values.insert(s.values.begin() + entry, 0.25f);
      break;
    }
  }
  const course::step5::DevicePattern pattern(s);
  course::step5::PanelStatistics measured;
  const course::step5::PanelStatistics& statistics =
      course::step5::panel_statistics(pattern, measured);
  course::step5::HybridOptions every_panel;
  every_panel.tc_density = 0.0;
  every_panel.tc_min_nnz = 0;
  const course::step5::DensePanelChoice choice =
      course::step5::choose_dense_panels(pattern, statistics.spans, statistics.nnz, every_panel);
  REQUIRE(!choice.tiles.empty());
  course::step5::DensePanelTables tables = course::step5::upload_dense_panels(choice, pattern);
  course::step5::order_dense_tile_values(tables, pattern);
  CUDA_CHECK(cudaDeviceSynchronize());
  REQUIRE(tables.tile_values.size() == choice.tiles.size() * kDenseTileValues);
  std::map<std::pair<int, int>, std::vector<float>> held;  // every value at each position
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    held[{s.row_indices[entry], s.col_indices[entry]}].push_back(s.values[entry]);
  }
  const std::vector<float> ordered = tables.tile_values.to_vector();
  std::int64_t copied = 0;
  for (std::size_t tile = 0; tile < choice.tiles.size(); ++tile) {
    const course::step5::DenseTile& block = choice.tiles[tile];
    for (int row = 0; row < course::step5::kTileMaskRows; ++row) {
      // A row holding a position twice in this tile: the kernel's copy-out reads S there.
      bool repeated = false;
      for (int col = 0; col < kPanelTileCols; ++col) {
        const auto found = held.find({block.first_row + row, block.first_col + col});
        repeated = repeated || (found != held.end() && found->second.size() > 1);
      }
      for (int col = 0; col < kPanelTileCols; ++col) {
        const float got = ordered[tile * kDenseTileValues + row * kPanelTileCols + col];
        const auto found = held.find({block.first_row + row, block.first_col + col});
        INFO("tile " << tile << " row " << row << " col " << col);
        if (repeated || found == held.end()) {
          CHECK(got == 0.0f);
          continue;
        }
        CHECK(got == found->second.front());
        ++copied;
      }
    }
  }
  CHECK(copied > 0);
  CHECK(held.at({70, 71}).size() == 2);  // the repeated position was built
}
