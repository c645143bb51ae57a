/// @file test_masked_tiles.cpp
/// @brief GPU tests of the masked-tile search and kernel: the tiles found must be exactly
/// those a host count finds (entries per tile, a long enough run, no repeats), every entry
/// inside them must match the CPU reference (double accumulation, fresh random inputs, the
/// output poisoned first) and every entry outside must be left untouched, on block masks of
/// sizes 16 to 128 cut by the edges, causal masks, inner 1 to 256 (not multiples of 16 too)
/// and odd leading dimensions.
///
/// Step 5, tests (going further): the masked 16×16 Tensor Core tiles against the CPU reference.
/// Read first: approach_checks.hpp, then going_further/masked_tiles.hpp.
#include "common/testing/catch2.hpp"

#include "common/attention_masks.hpp"
#include "common/gpu_description.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tile_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_values_in_lane_order.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <utility>
#include <vector>

using namespace course::step5::testing;  // the shared checks of approach_checks.hpp

namespace {

using course::step5::kMaskedTileEdge;

/// The mask of the positions @p keep accepts, sorted row-major, values random.
course::CooMatrix mask_of(int rows, int cols, const std::function<bool(int, int)>& keep,
                          std::uint64_t seed) {
  return with_random_values(course::step5::testing::pattern_of(rows, cols, keep), seed);
}

/// The tiles a host count keeps: at least @p min_entries entries and a row of at least
/// @p min_run of them (no mask here repeats an entry). Key: (tile row, tile column).
std::map<std::pair<int, int>, int> host_tiles(const course::CooMatrix& s, int min_entries,
                                              int min_run) {
  std::map<std::pair<int, int>, int> entries;
  std::map<std::pair<int, int>, std::map<int, int>> per_row;
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const std::pair<int, int> tile{s.row_indices[entry] / kMaskedTileEdge,
                                   s.col_indices[entry] / kMaskedTileEdge};
    ++entries[tile];
    ++per_row[tile][s.row_indices[entry]];
  }
  std::map<std::pair<int, int>, int> kept;
  for (const auto& [tile, count] : entries) {
    int longest = 0;
    for (const auto& [row, run] : per_row[tile]) {
      longest = std::max(longest, run);
    }
    if (count >= min_entries && longest >= min_run) {
      kept[tile] = count;
    }
  }
  return kept;
}

/// Runs the masked-tile plan (tiles forced from @p min_entries; @p panels 0: the register
/// kernel, else the ring's with @p panels per block; items of @p item_steps steps) and the
/// kernel on S; checks the tiles against the host count, the entries inside them against
/// the reference and the entries outside for the poison.
void check_masked_tiles(const course::CooMatrix& s, int inner, int ld, int min_entries, int panels,
                        int item_steps = 4) {
  const std::uint64_t seed = course::fresh_seed();
  INFO("rows=" << s.rows << " cols=" << s.cols << " inner=" << inner << " ld=" << ld
               << " nnz=" << s.nnz() << " min_entries=" << min_entries << " panels=" << panels
               << " item_steps=" << item_steps << " seed " << seed);
  const HalfOperands inputs(s.rows, s.cols, inner, ld, seed);
  const course::step5::DevicePattern pattern(s);
  course::step5::MaskedTileOptions options;
  options.min_entries = min_entries;
  options.kernel = panels == 0 ? course::step5::MaskedTileKernel::registers
                               : course::step5::MaskedTileKernel::ring;
  options.panels = panels;
  options.dense_path = false;
  const course::GpuDescription& device = course::describe_current_gpu();
  course::step5::PanelStatistics measured;
  const course::step5::MaskedTilePlan plan = course::step5::plan_masked_tiles(
      pattern, course::step5::panel_statistics(pattern, measured), inner, options, device);
  const int min_run = std::max(2, (min_entries + kMaskedTileEdge - 1) / kMaskedTileEdge);
  const auto expected = host_tiles(s, min_entries, min_run);
  std::int64_t expected_covered = 0;
  for (const auto& [tile, count] : expected) {
    expected_covered += count;
  }
  // A plan keeps tiles only when they pay for a launch; these tests force small masks, so
  // compare the search itself when the plan dropped them.
  course::step5::MaskedTiles searched =
      course::step5::find_masked_tiles(pattern, plan.figures.threshold, plan.figures.shape.panels);
  CHECK(searched.tile_count == static_cast<std::int64_t>(expected.size()));
  CHECK(searched.covered == expected_covered);
  if (searched.tile_count == 0) {
    return;
  }
  course::step5::group_masked_tiles(searched, s.rows, s.cols,
                                    [&](std::int64_t) { return item_steps; });
  course::step5::MaskedTileShape shape = plan.figures.shape;
  shape.item_steps = searched.item_steps;
  if (shape.kernel == course::step5::MaskedTileKernel::ring) {
    shape.shared_bytes = course::step5::masked_tile_shared_bytes(
        shape.panels, shape.stages, inner, searched.item_steps, shape.group_steps);
  }
  if (shape.kernel == course::step5::MaskedTileKernel::registers) {
    course::step5::order_tile_values(searched, pattern);  // the values in the lanes' order
  }
  course::DeviceBuffer<float> output(s.nnz(), "C");
  output.poison();
  course::step5::launch_masked_tiles(searched, shape, inputs.operands, pattern.values(),
                                     output.data());
  std::vector<float> got = output.to_vector();
  const auto reference = course::sddmm_reference(inputs.a, inputs.bt, s);
  std::int64_t untouched_outside = 0;
  std::int64_t outside = 0;
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const std::pair<int, int> tile{s.row_indices[entry] / kMaskedTileEdge,
                                   s.col_indices[entry] / kMaskedTileEdge};
    if (expected.count(tile) == 0) {
      ++outside;
      std::uint32_t bits = 0;
      std::memcpy(&bits, &got[entry], sizeof(bits));
      untouched_outside += bits == 0xFFFFFFFFu ? 1 : 0;
      got[entry] = static_cast<float>(reference.value[entry]);  // not the kernel's to check
    }
  }
  CHECK(untouched_outside == outside);
  const auto result = course::compare_sampled(
      got, reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
  // The lane groups' list is exactly the entries outside the tiles, in S's order.
  const course::DeviceBuffer<int> listed = course::step5::list_entries_outside(
      searched, s.nnz(), static_cast<std::int64_t>(s.nnz()) - searched.covered);
  CHECK(static_cast<std::int64_t>(listed.size()) == outside);
  std::vector<int> positions = listed.to_vector();
  std::vector<int> expected_positions;
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    if (expected.count({s.row_indices[entry] / kMaskedTileEdge,
                        s.col_indices[entry] / kMaskedTileEdge}) == 0) {
      expected_positions.push_back(static_cast<int>(entry));
    }
  }
  CHECK(positions == expected_positions);
}

}  // namespace

TEST_CASE("masked tiles on block masks of every block size cut by the edges", "[gpu]") {
  for (const int block : {16, 24, 32, 48, 64, 96, 128}) {
    // 300 x 270: neither a multiple of 16 nor of the block size.
    const course::CooMatrix s = block_mask(300, 270, block, 0.3, false, course::fresh_seed());
    for (const int panels : {0, 1, 2, 4}) {  // the register kernel, then the ring's
      check_masked_tiles(s, 64, 64, 16, panels);
    }
  }
}

TEST_CASE("masked tiles with inner from 1 to 256 through 16-byte and scalar copies", "[gpu]") {
  const course::CooMatrix s = block_mask(200, 180, 32, 0.4, false, course::fresh_seed());
  for (const int inner : {1, 15, 16, 17, 64, 100, 256}) {
    check_masked_tiles(s, inner, inner, 16, 4);
    check_masked_tiles(s, inner, inner + 3, 16, 2);  // odd leading dimension: scalar copies
  }
  // The register kernel: 2, 4 and 8 slices a pass, a part-filled last slice and piece, several
  // passes beyond 256 values; 16-byte and half-by-half loads.
  for (const int inner : {1, 15, 17, 33, 64, 100, 129, 256, 300, 600}) {
    check_masked_tiles(s, inner, inner, 16, 0);
    check_masked_tiles(s, inner, inner + 3, 16, 0);
  }
}

TEST_CASE("masked tiles on causal masks and their diagonal tiles", "[gpu]") {
  const course::CooMatrix causal = mask_of(
      150, 150, [](int row, int col) { return col <= row; }, course::fresh_seed());
  for (const int min_entries : {1, 16, 100, 136}) {
    check_masked_tiles(causal, 64, 64, min_entries, 4);
    check_masked_tiles(causal, 64, 64, min_entries, 0);
  }
  const course::CooMatrix blocks = block_mask(260, 260, 48, 0.5, true, course::fresh_seed());
  check_masked_tiles(blocks, 128, 128, 16, 1);
  check_masked_tiles(blocks, 17, 17, 16, 4);
  check_masked_tiles(blocks, 128, 128, 16, 0);
}

TEST_CASE("masked tiles with empty rows and empty tiles and partial tiles and lone entries",
          "[gpu]") {
  // Rows 20..39 empty; a dense band of 8 columns every 40 columns; scattered singles.
  const course::CooMatrix s = mask_of(
      130, 200,
      [](int row, int col) {
        if (row >= 20 && row < 40) {
          return false;
        }
        return (col % 40) < 8 || (row * 7 + col * 13) % 97 == 0;
      },
      course::fresh_seed());
  for (const int min_entries : {8, 32, 64}) {
    check_masked_tiles(s, 100, 100, min_entries, 4);
    check_masked_tiles(s, 64, 64, min_entries, 1);
    check_masked_tiles(s, 100, 100, min_entries, 0);
  }
}

TEST_CASE("masked tiles with many tile columns per panel split into items", "[gpu]") {
  // Every tile full: 64 tile columns per panel, items of 4 steps (and 64).
  const course::CooMatrix s = mask_of(
      70, 1024, [](int, int) { return true; }, course::fresh_seed());
  check_masked_tiles(s, 32, 32, 256, 4);
  check_masked_tiles(s, 40, 40, 256, 2);
  // The register kernel with items of 4 and of 64 steps (a warp holds steps lane and
  // lane + 32), and a pass over several 64-step items.
  check_masked_tiles(s, 32, 32, 256, 0);
  check_masked_tiles(s, 32, 32, 256, 0, 64);
  check_masked_tiles(s, 256, 256, 256, 0, 64);
}

TEST_CASE("approach 4 masked tiles and lane groups together on block masks", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  for (const int block : {16, 24, 32, 48, 64, 96, 128}) {
    // Blocks cut by the edges (300 x 270), plus scattered entries for the lane groups.
    const course::CooMatrix blocks = block_mask(300, 270, block, 0.25, block % 32 == 0, seed);
    for (const int panels : {1, 4}) {
      check_hybrid(blocks, 64, 64, seed, eager_masked_tiles(panels));
    }
    check_hybrid(blocks, 17, 17, seed, eager_masked_tiles());
  }
}

TEST_CASE("approach 4 masked tiles with inner 1 to 256 and odd leading dimensions", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const course::CooMatrix s = mask_of(
      170, 190,
      [](int row, int col) {
        return (row / 16 + col / 16) % 3 == 0 || (row * 31 + col * 17) % 53 == 0 ||
               (row >= 100 && col <= row - 100);
      },
      seed);
  for (const int inner : {1, 15, 16, 17, 64, 100, 256}) {
    check_hybrid(s, inner, inner, seed, eager_masked_tiles());
    check_hybrid(s, inner, inner + 1, seed, eager_masked_tiles(2));
  }
  // Beyond 256 values a stage holds one tile column and the tiles carry over chunks of inner.
  for (const int inner : {300, 600}) {
    check_hybrid(s, inner, inner, seed, eager_masked_tiles());
    check_hybrid(s, inner, inner + 5, seed, eager_masked_tiles(1));
  }
  // Every number of tile columns per stage.
  for (const int group : {1, 2, 3, 4}) {
    course::step5::HybridOptions options = eager_masked_tiles(4);
    options.masked.group_steps = group;
    check_hybrid(s, 64, 64, seed, options);
    check_hybrid(s, 32, 32, seed, options);
  }
  // The defaults on the same mask (the model decides; the result must be right either way).
  check_hybrid(s, 64, 64, seed);
}

TEST_CASE(
    "a dense mask runs the ring while a stage holds several tile columns and the registers beyond",
    "[gpu]") {
  using course::step5::MaskedTileKernel;
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 48-blocks at half the positions: the masked tiles fill far more than kRingTileShare of the
  // tiles their panels span.
  const course::CooMatrix s = block_mask(520, 500, 48, 0.5, false, seed);
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridOptions options = eager_masked_tiles();
  for (const int inner : {64, 128, 256, 300}) {
    INFO("inner " << inner);
    const course::step5::HybridPlan plan(pattern, inner, options);
    const course::step5::MaskedPlanFigures& figures = plan.masked_figures();
    REQUIRE(figures.tiles > 0);
    // Weighed as the ring either way: its steps serve the block's four panels, so fewer than
    // the tiles; the register kernel's steps are its tiles.
    CHECK(figures.weighed.kernel == MaskedTileKernel::ring);
    CHECK(figures.weighed.steps < figures.tiles);
    if (inner <= 128) {
      CHECK(figures.shape.kernel == MaskedTileKernel::ring);
      CHECK(figures.steps == figures.weighed.steps);
    } else {
      CHECK(figures.shape.kernel == MaskedTileKernel::registers);
      CHECK(figures.steps == figures.tiles);
    }
    check_hybrid(s, inner, inner, seed, options);
  }
}

TEST_CASE("approach 4 masked tiles with empty rows and a pattern S from CSR", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Rows 16..47 empty, whole empty tiles, a causal part and a 24-block part.
  course::CooMatrix s = mask_of(
      200, 160,
      [](int row, int col) {
        if (row >= 16 && row < 48) {
          return false;
        }
        return (row < 100 && col <= row) || ((row / 24 + col / 24) % 4 == 1);
      },
      seed);
  check_hybrid(s, 128, 128, seed, eager_masked_tiles());
  // A pattern S (every value one) uploaded from CSR: the kernels read no values.
  std::fill(s.values.begin(), s.values.end(), 1.0f);
  check_csr_upload(s, course::PatternValues::all_ones, 64, seed);
}

TEST_CASE("approach 4 takes the dense path when no tile may go to Tensor Cores", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Every position of 512 x 512: without tiles (masked tiles only, a threshold above a tile's
  // 256 entries) the lane groups would read a row of Bᵀ per entry, and the dense product is
  // cheaper by the model.
  const course::CooMatrix s = mask_of(
      512, 512, [](int, int) { return true; }, seed);
  course::step5::HybridOptions options;
  options.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  options.masked.min_entries = 257;
  const course::step5::DevicePattern pattern(s);
  const course::step5::HybridPlan plan(pattern, 256, options);
  CHECK(plan.masked_figures().dense_path);
  CHECK(plan.masked_figures().tiles == 0);
  for (const int inner : {1, 17, 256}) {
    check_hybrid(s, inner, inner, seed, options);
  }
  // Switched off, the same S runs on the lane groups.
  options.masked.dense_path = false;
  const course::step5::HybridPlan lanes(pattern, 256, options);
  CHECK_FALSE(lanes.masked_figures().dense_path);
  CHECK(lanes.masked_figures().lane_entries == static_cast<std::int64_t>(s.nnz()));
  check_hybrid(s, 64, 64, seed, options);
}

TEST_CASE("approach 4 combined with full tiles and dense panels then masked tiles", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Causal 300 x 300: 64×64 full tiles below the diagonal, masked triangles on it.
  const course::CooMatrix causal = mask_of(
      300, 300, [](int row, int col) { return col <= row; }, seed);
  // 128-blocks (full tiles), 24-blocks (masked tiles) and scattered entries (lane groups).
  const course::CooMatrix mixed = mask_of(
      320, 330,
      [](int row, int col) {
        return (row < 128 && col >= 128 && col < 256) || ((row / 24 + col / 24) % 5 == 2) ||
               (row * 13 + col * 7) % 61 == 0;
      },
      seed + 1);
  // A dense first panel (dense panel kernel) beside 16-blocks and sparse rows.
  const course::CooMatrix panel = mask_of(
      200, 256,
      [](int row, int col) {
        return (row < 64 && (row + col) % 3 != 0) || ((row / 16 + col / 16) % 7 == 3) ||
               (row * 5 + col) % 97 == 0;
      },
      seed + 2);
  for (const course::CooMatrix* s : {&causal, &mixed, &panel}) {
    for (const int inner : {16, 64, 100, 256}) {
      check_hybrid(*s, inner, inner, seed, eager_combined());
    }
    check_hybrid(*s, 40, 43, seed, eager_combined());  // scalar copies
    check_hybrid(*s, 64, 64, seed);                    // the defaults
  }
  // The combined plan finds the full tiles and the masked tiles both (no dense panel: a
  // causal panel is half full, so the panels' density is set out of reach).
  course::step5::HybridOptions no_dense_panels = eager_combined();
  no_dense_panels.panel_choice = course::step5::PanelChoice::density;
  no_dense_panels.combined_tc_density = 1.0;
  const course::step5::DevicePattern pattern(causal);
  const course::step5::HybridPlan plan(pattern, 64, no_dense_panels);
  CHECK(plan.full_tiles() > 0);
  CHECK(plan.masked_figures().tiles > 0);
}
