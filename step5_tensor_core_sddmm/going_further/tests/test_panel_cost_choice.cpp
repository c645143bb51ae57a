/// @file test_panel_cost_choice.cpp
/// @brief CPU tests: the choices made from the figures of synthetic masks counted on the host
/// (panel_cost_fixtures.hpp): a banded FEM-like mask goes to the dense-panel kernel as a
/// whole, a block mask keeps its masked tiles, a scattered mask keeps no dense panel, dense
/// panels only grow with density, a lone panel joins the others' kernel, masked tiles that do
/// not pay go to the lane groups; the per-panel figures of the masked tiles from keys and
/// masks; the whole sparse plan's seconds and the dense product against them (dense 16-blocks
/// take it, sparse blocks and a causal mask do not). GPU tests: the plan by cost against the CPU
/// reference on such masks, the output poisoned first.
///
/// Step 5, tests (going further): the combined plan's dense panels chosen by modelled kernel
/// times, on figures counted on the host (CPU only), and the new path on the GPU.
/// Read first: going_further/panel_cost_choice.hpp.
#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"
#include "common/sparse_matrix.hpp"
#include "common/testing/described_gpus.hpp"
#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_cost_choice.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using course::step5::PanelFigures;
using course::step5::testing::banded_mask;
using course::step5::testing::block_sparse_mask;
using course::step5::testing::dense_count;
using course::step5::testing::h100_choice;
using course::step5::testing::host_figures;
using course::step5::testing::pattern_of;
using course::step5::testing::scattered_mask;

/// A panel whose block tiles are clearly cheaper on the dense-panel kernel.
PanelFigures dense_like_panel() {
  PanelFigures panel;
  panel.entries = panel.outside_full = 4000;
  panel.span_blocks = 6;
  panel.density = 4000.0 / (64.0 * 384.0);
  panel.masked_tiles = 60;
  panel.masked_steps = 24;
  panel.masked_covered = 3600;
  return panel;
}

}  // namespace

TEST_CASE("kernel times are positive and a dense block tile beats its 16 masked tiles") {
  for (const course::GpuDescription& device :
       {course::testing::t4_description(), course::testing::a100_40gb_description(),
        course::testing::l4_description(), course::testing::h100_sxm_description()}) {
    for (const int inner : {16, 64, 256, 1024}) {
      INFO(device.name << " inner=" << inner);
      const course::step5::KernelTimes times = course::step5::kernel_times(device, inner);
      for (const double seconds : {times.dense_tile, times.full_tile, times.masked_step,
                                   times.masked_tile, times.lane_entry, times.dense_floor,
                                   times.full_floor, times.masked_floor, times.lane_floor}) {
        CHECK(seconds > 0.0);
      }
      // A whole 64×64 block as 16 masked tiles scattered over 16 tile columns (no copy of Bᵀ
      // shared) costs more than as one block tile. (In 4 shared tile columns they cost about
      // what the block tile does since the ring went to 2 stages: see
      // lab/results/masked_tile_refit_h200.md.) A full tile (no table, contiguous stores) costs
      // less than a dense panel's tile.
      CHECK(times.dense_tile < 16 * times.masked_step + 16 * times.masked_tile);
      CHECK(times.full_tile < times.dense_tile);
      // The masked kernel's fixed cost is the largest (rows of A and a ring to fill first).
      CHECK(times.masked_floor > times.dense_floor);
      CHECK(times.masked_floor > times.lane_floor);
    }
  }
}

TEST_CASE("plan seconds count each kernel's floor once") {
  const course::step5::KernelTimes times =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 256);
  const std::vector<PanelFigures> panels(3, dense_like_panel());
  course::step5::PanelPlan dense;
  dense.dense = {1, 1, 1};
  course::step5::plan_seconds(panels, dense, times);
  CHECK(dense.kernels == 1);
  CHECK(dense.seconds == Approx(times.dense_floor + 18 * times.dense_tile));
  course::step5::PanelPlan other;
  other.dense = {0, 0, 0};
  course::step5::plan_seconds(panels, other, times);
  CHECK(other.kernels == 2);  // masked tiles and lane groups
  CHECK(other.seconds ==
        Approx(times.masked_floor + times.lane_floor +
               3 * (24 * times.masked_step + 60 * times.masked_tile + 400 * times.lane_entry)));
  other.masked_tiles = false;
  course::step5::plan_seconds(panels, other, times);
  CHECK(other.kernels == 1);
  CHECK(other.seconds == Approx(times.lane_floor + 3 * 4000 * times.lane_entry));
  course::step5::PanelPlan wrong;
  wrong.dense = {1};
  CHECK_THROWS_AS(course::step5::plan_seconds(panels, wrong, times), std::invalid_argument);
}

TEST_CASE("a banded FEM-like mask goes to the dense-panel kernel as a whole") {
  // 4096 rows, 6×6 node blocks within 160 of the diagonal, 18 % of them: panels at about
  // 10–17 % of their span, many 16×16 tiles a third full.
  const course::CooMatrix banded = banded_mask(4096, 160, 18);
  const course::step5::TileThreshold threshold = course::step5::tile_threshold(
      course::step5::described_rates(course::testing::h100_sxm_description()), 256);
  const std::vector<PanelFigures> figures =
      host_figures(banded, threshold.min_entries, threshold.min_run);
  // The density rule (15 %) would split the panels between two kernels ...
  const auto above = std::count_if(figures.begin(), figures.end(),
                                   [](const PanelFigures& panel) { return panel.density >= 0.15; });
  REQUIRE(above > 0);
  REQUIRE(above < static_cast<long>(figures.size()));
  // ... and the masked tiles would take many of the others' entries.
  std::int64_t masked = 0;
  for (const PanelFigures& panel : figures) {
    masked += panel.masked_tiles;
  }
  REQUIRE(masked > 100);
  // At inner 128 and 256 a row of Bᵀ is long enough for the block tiles to pay: every panel
  // dense, one kernel (bcsstk16 at inner 256: 0.016 ms so, 0.037 ms split in three).
  for (const int inner : {128, 256}) {
    INFO("inner=" << inner);
    const course::step5::PanelPlan plan = h100_choice(banded, inner);
    INFO(plan.name);
    CHECK(dense_count(plan) == static_cast<std::int64_t>(figures.size()));
    CHECK(plan.kernels == 1);
  }
  // At 64 the rows are short enough for the lane groups to gather, but the panels are still
  // never split between kernels: each would run mostly for its fixed cost.
  const course::step5::PanelPlan short_rows = h100_choice(banded, 64);
  INFO(short_rows.name);
  CHECK(short_rows.kernels == 1);
}

TEST_CASE("a block mask keeps its masked tiles and no dense panel") {
  // 48-blocks at 10 %: each panel spans every column at about a tenth of them, so its span's
  // block tiles cost many times its masked tiles.
  const course::CooMatrix blocks = block_sparse_mask(3072, 48, 10);
  for (const int inner : {64, 256}) {
    INFO("inner=" << inner);
    const course::step5::PanelPlan plan = h100_choice(blocks, inner);
    INFO(plan.name);
    CHECK(dense_count(plan) == 0);
    CHECK(plan.masked_tiles);
  }
  // 16-blocks at 5 %: the same, the tiles whole and alone in their tile columns.
  const course::step5::PanelPlan small_blocks = h100_choice(block_sparse_mask(4096, 16, 5), 256);
  CHECK(dense_count(small_blocks) == 0);
  CHECK(small_blocks.masked_tiles);
}

TEST_CASE("a lone panel joins the other panels' kernel") {
  const course::step5::KernelTimes times =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 256);
  std::vector<PanelFigures> panels(40, dense_like_panel());
  // One panel a little cheaper on masked tiles alone: 5 span blocks, and 10 tiles in 10
  // columns holding nearly all of its entries.
  PanelFigures odd = dense_like_panel();
  odd.entries = odd.outside_full = 700;
  odd.span_blocks = 5;
  odd.density = 700.0 / (64.0 * 320.0);
  odd.masked_tiles = 10;
  odd.masked_steps = 10;
  odd.masked_covered = 690;
  panels.push_back(odd);
  const double odd_dense = 5 * times.dense_tile;
  const double odd_masked = 10 * times.masked_step + 10 * times.masked_tile + 10 * times.lane_entry;
  REQUIRE(odd_masked < odd_dense);  // alone, it would take the masked tiles
  // Its density (3.4 %) is above the floor given here: the model, not the floor, decides.
  const course::step5::PanelPlan plan =
      course::step5::choose_panels_by_cost(panels, times, 0.02, 131072);
  INFO(plan.name);
  CHECK(dense_count(plan) == 41);
  CHECK(plan.kernels == 1);
}

TEST_CASE("masked tiles that save less than their kernel's fixed cost go to the lane groups") {
  const course::step5::KernelTimes times =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 64);
  const course::step5::KernelTimes times256 =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 256);
  // Sparse panels (never dense) with a few masked tiles among many single entries.
  PanelFigures sparse;
  sparse.entries = sparse.outside_full = 3000;
  sparse.span_blocks = 64;
  sparse.density = 3000.0 / (64.0 * 4096.0);
  sparse.masked_tiles = 4;
  sparse.masked_steps = 4;
  sparse.masked_covered = 200;
  const course::step5::PanelPlan few = course::step5::choose_panels_by_cost(
      std::vector<PanelFigures>(32, sparse), times, 0.05, 131072);
  CHECK_FALSE(few.masked_tiles);
  CHECK(dense_count(few) == 0);
  // Whole 16×16 blocks, one per tile column, hold most entries: at inner 256 the tiles pay
  // (at 64 a row of Bᵀ is short enough that the lane groups would still win).
  sparse.masked_tiles = sparse.masked_steps = 10;
  sparse.masked_covered = 2560;
  const course::step5::PanelPlan many = course::step5::choose_panels_by_cost(
      std::vector<PanelFigures>(512, sparse), times256, 0.05, 131072);
  CHECK(many.masked_tiles);
}

TEST_CASE("too few entries in dense panels leave every panel to the other kernels") {
  const course::step5::KernelTimes times =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 256);
  const std::vector<PanelFigures> panels(3, dense_like_panel());  // 12000 entries
  CHECK(dense_count(course::step5::choose_panels_by_cost(panels, times, 0.05, 131072)) == 0);
  CHECK(dense_count(course::step5::choose_panels_by_cost(panels, times, 0.05, 0)) == 3);
  // Below the density floor a panel is never dense, whatever the model says.
  CHECK(dense_count(course::step5::choose_panels_by_cost(panels, times, 0.5, 0)) == 0);
}

TEST_CASE("a scattered mask keeps no dense panel even above the density floor") {
  // 1 % of the positions at random: each 64×64 block tile would compute about 100 times the
  // entries it holds, and no 16×16 tile is dense enough for the masked tiles. The floor is
  // set out of the way (0.1 %) so that the model, not the floor, decides.
  const course::CooMatrix scattered = scattered_mask(1024, 4096, 10, 7);
  const course::GpuDescription h100 = course::testing::h100_sxm_description();
  for (const int inner : {64, 128, 256}) {
    INFO("inner=" << inner);
    const course::step5::TileThreshold threshold =
        course::step5::tile_threshold(course::step5::described_rates(h100), inner);
    const std::vector<PanelFigures> figures =
        host_figures(scattered, threshold.min_entries, threshold.min_run);
    for (const PanelFigures& panel : figures) {
      REQUIRE(panel.density >= 0.001);  // every panel could be dense
    }
    const course::step5::PanelPlan plan = course::step5::choose_panels_by_cost(
        figures, course::step5::kernel_times(h100, inner), 0.001, 0);
    INFO(plan.name);
    CHECK(dense_count(plan) == 0);
    CHECK(plan.kernels == 1);  // the lane groups alone
  }
}

TEST_CASE("dense panels only grow with the density of the mask") {
  // Scattered masks from 0.5 % to 64 % of the positions, floors out of the way: the model
  // must send no panel to the dense kernel at the sparsest, every panel at the densest, and
  // never fewer panels as the density rises.
  const course::GpuDescription h100 = course::testing::h100_sxm_description();
  for (const int inner : {64, 256}) {
    const course::step5::KernelTimes times = course::step5::kernel_times(h100, inner);
    const course::step5::TileThreshold threshold =
        course::step5::tile_threshold(course::step5::described_rates(h100), inner);
    std::int64_t previous = 0;
    std::int64_t last = 0;
    for (const unsigned per_mille : {5u, 10u, 20u, 40u, 80u, 160u, 320u, 640u}) {
      INFO("inner=" << inner << " per mille=" << per_mille);
      const std::vector<PanelFigures> figures =
          host_figures(scattered_mask(512, 2048, per_mille, per_mille), threshold.min_entries,
                       threshold.min_run);
      const course::step5::PanelPlan plan =
          course::step5::choose_panels_by_cost(figures, times, 0.001, 0);
      INFO(plan.name);
      last = dense_count(plan);
      CHECK(last >= previous);
      CHECK((per_mille > 5 || last == 0));
      previous = last;
    }
    CHECK(last == 8);  // 512 rows: eight panels, all dense at 64 %
  }
}

namespace {

/// The H100's modelled seconds of the sparse plan by cost and of the dense product, for @p s.
std::pair<double, double> h100_sparse_and_dense(const course::CooMatrix& s, int inner) {
  const course::GpuDescription h100 = course::testing::h100_sxm_description();
  const course::step5::TileThreshold threshold =
      course::step5::tile_threshold(course::step5::described_rates(h100), inner);
  const std::vector<PanelFigures> figures =
      host_figures(s, threshold.min_entries, threshold.min_run);
  const course::step5::PanelPlan plan = h100_choice(s, inner);
  const double sparse = course::step5::sparse_plan_seconds(
      course::step5::plan_work(figures, plan), course::step5::kernel_times(h100, inner));
  const double dense =
      course::step5::dense_product_seconds(course::step5::described_rates(h100), s.rows, s.cols,
                                           inner, static_cast<std::int64_t>(s.nnz()));
  return {sparse, dense};
}

}  // namespace

TEST_CASE("the whole sparse plan's work and seconds count each kernel once") {
  std::vector<PanelFigures> panels(3, dense_like_panel());
  panels[2].full_tiles = 2;
  course::step5::PanelPlan plan;
  plan.dense = {1, 0, 0};
  plan.masked_tiles = true;
  const course::step5::SparsePlanWork work = course::step5::plan_work(panels, plan);
  CHECK(work.dense_panel_tiles == 6);
  CHECK(work.full_tiles == 2);
  CHECK(work.masked_steps == 48);
  CHECK(work.masked_tiles == 120);
  CHECK(work.lane_entries == 2 * (4000 - 3600));
  const course::step5::KernelTimes times =
      course::step5::kernel_times(course::testing::h100_sxm_description(), 256);
  // plan_seconds of the same plan is the same figure.
  course::step5::plan_seconds(panels, plan, times);
  CHECK(course::step5::sparse_plan_seconds(work, times) == Approx(plan.seconds));
  // No work: no kernel, no floor.
  CHECK(course::step5::sparse_plan_seconds({}, times) == 0.0);
  plan.dense = {0, 0};
  CHECK_THROWS_AS(course::step5::plan_work(panels, plan), std::invalid_argument);
}

TEST_CASE("the register kernel's tiles are costed at its own rate against the dense product") {
  const course::GpuDescription h100 = course::testing::h100_sxm_description();
  const int inner = 256;
  const course::step5::KernelTimes ring = course::step5::kernel_times(h100, inner);
  const course::step5::KernelTimes registers = course::step5::register_kernel_times(h100, inner);
  // Only the masked tiles change: a tile is its own step, with no further cost.
  CHECK(registers.masked_step < ring.masked_step);
  CHECK(registers.masked_tile == 0.0);
  CHECK(registers.masked_floor == ring.masked_floor);
  CHECK(registers.dense_tile == ring.dense_tile);
  CHECK(registers.full_tile == ring.full_tile);
  CHECK(registers.lane_entry == ring.lane_entry);
  // 16-blocks at a quarter of 8192²: 65536 tiles, each its own step on the register kernel.
  // At the ring's rate they lose to the dense product; at the register kernel's, which runs
  // them, they win (lab/results/register_tile_fit_h200.md).
  course::step5::SparsePlanWork work;
  work.masked_steps = work.masked_tiles = 65536;
  const std::int64_t nnz = 65536LL * 256;
  const double dense = course::step5::dense_product_seconds(course::step5::described_rates(h100),
                                                            8192, 8192, inner, nnz);
  INFO("dense " << dense << " s, ring " << course::step5::sparse_plan_seconds(work, ring)
                << " s, registers " << course::step5::sparse_plan_seconds(work, registers));
  CHECK(dense < course::step5::sparse_plan_seconds(work, ring));
  CHECK(course::step5::sparse_plan_seconds(work, registers) < dense);
}

TEST_CASE("the dense product wins against the whole plan on dense masks only") {
  // 16-blocks at 40 % of 4096²: every panel spans every column, and at inner 256 the whole
  // product (written and gathered once) costs less than the tiles' copies of Bᵀ.
  const course::CooMatrix dense_blocks = block_sparse_mask(4096, 16, 40);
  const auto [sparse_256, dense_256] = h100_sparse_and_dense(dense_blocks, 256);
  INFO("16-blocks at 40 %, inner 256: sparse " << sparse_256 << " s, dense " << dense_256);
  CHECK(dense_256 < sparse_256);
  // The same blocks at 3 %: the dense product computes thirty times what S keeps.
  const auto [sparse_sparse, dense_sparse] =
      h100_sparse_and_dense(block_sparse_mask(4096, 16, 3), 256);
  INFO("16-blocks at 3 %: sparse " << sparse_sparse << " s, dense " << dense_sparse);
  CHECK(sparse_sparse < dense_sparse);
  // A full causal mask is half the product: full tiles do it without writing the other half.
  const course::CooMatrix causal =
      pattern_of(2048, 2048, [](int row, int col) { return col <= row; });
  for (const int inner : {64, 256}) {
    const auto [sparse, dense] = h100_sparse_and_dense(causal, inner);
    INFO("causal 2048, inner " << inner << ": sparse " << sparse << " s, dense " << dense);
    CHECK(sparse < dense);
  }
}

TEST_CASE("masked tiles counted per 64-row panel from their keys and masks") {
  // Tile columns 10; keys = (super-panel * tile_cols + tile column) * panels + panel.
  const int tile_cols = 10;
  std::vector<std::uint64_t> keys;
  std::vector<std::uint16_t> masks;
  const auto add = [&](std::uint64_t key, std::uint16_t mask) {
    keys.push_back(key);
    masks.insert(masks.end(), 16, mask);
  };
  // Four panels per super-panel: super-panel 0 (64-row panel 0), column 3, panels 0 and 2
  // (one step); column 4, panel 1; super-panel 2 (64-row panel 2), column 9, panel 3.
  add((0 * tile_cols + 3) * 4 + 0, 0xFFFF);
  add((0 * tile_cols + 3) * 4 + 2, 0x0003);
  add((0 * tile_cols + 4) * 4 + 1, 0x0001);
  add((2 * tile_cols + 9) * 4 + 3, 0x00FF);
  std::vector<PanelFigures> figures(3);
  course::step5::add_masked_panel_figures(keys, masks, 4, tile_cols, figures);
  CHECK(figures[0].masked_tiles == 3);
  CHECK(figures[0].masked_steps == 2);
  CHECK(figures[0].masked_covered == 16 * (16 + 2 + 1));
  CHECK(figures[1].masked_tiles == 0);
  CHECK(figures[2].masked_tiles == 1);
  CHECK(figures[2].masked_steps == 1);
  CHECK(figures[2].masked_covered == 16 * 8);
  // One panel per super-panel: tile rows 0..3 are 64-row panel 0, tile row 4 panel 1; each
  // tile its own step.
  keys = {0 * tile_cols + 1, 3 * tile_cols + 1, 4 * tile_cols + 1};
  masks.assign(3 * 16, 0x0101);
  std::vector<PanelFigures> single(2);
  course::step5::add_masked_panel_figures(keys, masks, 1, tile_cols, single);
  CHECK(single[0].masked_tiles == 2);
  CHECK(single[0].masked_steps == 2);
  CHECK(single[1].masked_tiles == 1);
  CHECK(single[1].masked_covered == 32);
  // A tile past the last panel, or masks that do not match, are refused.
  std::vector<PanelFigures> one(1);
  CHECK_THROWS_AS(course::step5::add_masked_panel_figures(keys, masks, 1, tile_cols, one),
                  std::invalid_argument);
  masks.pop_back();
  CHECK_THROWS_AS(course::step5::add_masked_panel_figures(keys, masks, 1, tile_cols, single),
                  std::invalid_argument);
}

TEST_CASE("approach 4 combined by cost on banded and block masks", "[gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // A banded mask large enough for dense panels (tc_min_nnz): the plan by cost sends every
  // panel to the dense-panel kernel, which the density rule would not.
  const course::CooMatrix banded =
      course::step5::testing::with_random_values(banded_mask(2048, 160, 30), seed);
  // A block mask of 48-blocks at 10 %: masked tiles from inner 100 on the H100, no dense panel.
  const course::CooMatrix blocks =
      course::step5::testing::with_random_values(block_sparse_mask(2048, 48, 10), seed + 1);
  // A mixed mask: a dense first panel, whole 64-blocks, 24-blocks and scattered entries, with
  // Tensor Cores from the first entries.
  const course::CooMatrix mixed = course::step5::testing::with_random_values(
      pattern_of(320, 330,
                 [](int row, int col) {
                   return (row < 64 && (row + col) % 3 != 0) ||
                          (row >= 128 && row < 256 && col >= 128 && col < 256) ||
                          ((row / 24 + col / 24) % 5 == 2) || (row * 13 + col * 7) % 61 == 0;
                 }),
      seed + 2);
  // A scattered mask: the plan by cost leaves it to the lane groups alone.
  const course::CooMatrix scattered =
      course::step5::testing::with_random_values(scattered_mask(640, 1000, 20, seed + 3), seed + 3);
  course::step5::HybridOptions by_cost;
  REQUIRE(by_cost.panel_choice == course::step5::PanelChoice::cost);
  course::step5::HybridOptions eager = course::step5::testing::eager_combined();
  eager.panel_choice = course::step5::PanelChoice::cost;
  for (const int inner : {16, 64, 100, 256}) {
    course::step5::testing::check_hybrid(banded, inner, inner, seed, by_cost);
    course::step5::testing::check_hybrid(blocks, inner, inner, seed, by_cost);
    course::step5::testing::check_hybrid(mixed, inner, inner, seed, eager);
    course::step5::testing::check_hybrid(scattered, inner, inner, seed, by_cost);
  }
  course::step5::testing::check_hybrid(banded, 40, 43, seed, by_cost);  // scalar copies
  course::step5::testing::check_hybrid(mixed, 40, 43, seed, eager);
  // What the plan chose: the banded mask whole on the dense-panel kernel, the block mask on
  // none (the margins are wide on any GPU: the block tiles of a 10 % span cost ten times).
  const course::step5::DevicePattern pattern(banded);
  const course::step5::HybridPlan plan(pattern, 256, by_cost);
  INFO(plan.panel_plan().name);
  CHECK(plan.panel_plan().kernels == 1);
  CHECK(dense_count(plan.panel_plan()) == static_cast<std::int64_t>((banded.rows + 63) / 64));
  CHECK(plan.masked_figures().tiles == 0);
  const course::step5::DevicePattern block_pattern(blocks);
  const course::step5::HybridPlan block_plan(block_pattern, 256, by_cost);
  INFO(block_plan.panel_plan().name);
  CHECK(dense_count(block_plan.panel_plan()) == 0);
  CHECK(block_plan.tensor_core_units() == block_plan.masked_figures().tiles);
}
