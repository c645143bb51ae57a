/// @file masked_tile_plan.cu
/// @brief plan_masked_tiles(): threshold and shape, search, grouping, the lane groups' list,
/// and the dense path.
///
/// Step 5, going further: the masked-tile plan, step by step.
/// Read first: masked_tile_plan.hpp.
#include "step5_tensor_core_sddmm/going_further/masked_tile_plan.hpp"

#include "common/device.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_values_in_lane_order.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace course::step5 {
namespace {

/// Whether any 64-row panel holds as many entries as one tile needs: a tile lies in one
/// panel, so without such a panel the search cannot find anything (a host test on the
/// panel counts, before any kernel).
bool some_panel_holds(const std::vector<std::int64_t>& counts, int min_entries) {
  return std::any_of(counts.begin(), counts.end(),
                     [&](std::int64_t count) { return count >= min_entries; });
}

TileThreshold threshold_for(const MaskedTileOptions& options, const DeviceRates& rates, int inner) {
  if (options.min_entries <= 0) {
    return tile_threshold(rates, inner);
  }
  TileThreshold threshold;
  threshold.min_entries = options.min_entries;
  threshold.min_run = std::max(2, (options.min_entries + kMaskedTileEdge - 1) / kMaskedTileEdge);
  return threshold;
}

/// A threshold no tile reaches (a run of 17 entries in 16 columns is a repeat, and repeats
/// drop the tile): the search then only writes the flags of the excluded entries.
constexpr TileThreshold kNoTile{kMaskedTileEdge * kMaskedTileEdge + 1, kMaskedTileEdge + 1};

/// The ring's launch shape on @p device (the current GPU), with the copies of the kernel's
/// code loaded there.
MaskedTileShape ring_shape_for(const GpuDescription& device, int inner,
                               const MaskedTileOptions& options) {
  const TileCopies copies = masked_tile_copies(device, masked_tiles_compiled_with_async_copy());
  return choose_masked_tile_shape(device, copies, inner, options.panels, options.group_steps,
                                  options.stages);
}

/// The shape the search starts with: the ring's when asked for, else register_tile_kernel's
/// (the automatic plan's usual choice; see choose_ring_if_shared).
MaskedTileShape shape_for(const GpuDescription& device, int inner,
                          const MaskedTileOptions& options) {
  if (options.kernel == MaskedTileKernel::ring) {
    return ring_shape_for(device, inner, options);
  }
  return inner > 0 ? choose_register_tile_shape(device, inner) : MaskedTileShape{};
}

/// Groups @p tiles into the steps and items of @p shape's kernel.
void group_tiles(MaskedTiles& tiles, const DevicePattern& pattern, const GpuDescription& device,
                 const MaskedTileShape& shape) {
  group_masked_tiles(tiles, pattern.rows(), pattern.cols(),
                     [&](std::int64_t steps) { return choose_item_steps(device, shape, steps); });
}

/// The automatic plan, once the tiles are found for register_tile_kernel: where they fill at
/// least kRingTileShare of the tiles their panels span, the tiles are found again with the
/// ring's panels. Where a stage of the ring holds several tile columns (masked_kernel_for), the
/// ring runs them. Where it holds one, the register kernel runs them, but the plan still weighs
/// them as the ring's (in @p figures.weighed): the dense path's choice was tuned on the ring's
/// costs for these masks, and the register kernel took less time than the ring on them, so the
/// weighing errs towards the dense product, never away from it.
void choose_ring_if_shared(MaskedTiles& tiles, MaskedPlanFigures& figures,
                           const DevicePattern& pattern, const PanelStatistics& statistics,
                           const MaskedExclusion& exclusion, const GpuDescription& device,
                           int inner, const MaskedTileOptions& options) {
  const std::int64_t spanned = tiles_spanned(statistics.spans, pattern.rows());
  const MaskedTileShape ring = ring_shape_for(device, inner, options);
  if (ring.panels == 0 || !fills_ring_share(tiles.tile_count, spanned)) {
    return;  // no ring fits this inner on this device, or a sparse mask: the registers
  }
  MaskedTiles ring_tiles = find_masked_tiles(pattern, figures.threshold, ring.panels, exclusion);
  if (masked_kernel_for(tiles.tile_count, spanned, ring.group_steps) == MaskedTileKernel::ring) {
    figures.shape = ring;
    tiles = std::move(ring_tiles);
    return;
  }
  group_tiles(ring_tiles, pattern, device, ring);
  figures.weighed = {MaskedTileKernel::ring, ring_tiles.step_count, ring_tiles.item_count,
                     ring.panels};
}

/// Finds, groups and weighs the tiles, and lists the lane groups' entries when there are
/// tiles or excluded entries; leaves plan.tiles empty when no tile pays.
void plan_tiles(MaskedTilePlan& plan, const DevicePattern& pattern,
                const PanelStatistics& statistics, int inner, const MaskedTileOptions& options,
                const GpuDescription& device, const DeviceRates& rates,
                const MaskedExclusion& exclusion, std::int64_t remaining) {
  MaskedPlanFigures& figures = plan.figures;
  figures.threshold = threshold_for(options, rates, inner);
  figures.shape = shape_for(device, inner, options);
  const bool excluded = exclusion.covered != nullptr || exclusion.panel_slot != nullptr;
  const bool can_search = inner > 0 && figures.shape.panels > 0;
  MaskedTiles tiles;
  if (can_search && (excluded || some_panel_holds(statistics.nnz, figures.threshold.min_entries))) {
    tiles = find_masked_tiles(pattern, figures.threshold, figures.shape.panels, exclusion);
  }
  bool keep = tiles.tile_count > 0;
  if (keep) {
    if (options.kernel == MaskedTileKernel::automatic) {
      choose_ring_if_shared(tiles, figures, pattern, statistics, exclusion, device, inner, options);
    }
    group_tiles(tiles, pattern, device, figures.shape);
    if (figures.weighed.panels == 0) {
      figures.weighed = {figures.shape.kernel, tiles.step_count, tiles.item_count, tiles.panels};
    }
    const double seconds =
        masked_tile_seconds(rates, inner, tiles.tile_count, figures.weighed.steps,
                            figures.weighed.items, figures.weighed.panels);
    keep = options.eager || masked_tiles_pay(rates, inner, tiles.covered, seconds);
  }
  if (!keep) {
    figures.weighed = {};  // no tile runs
    if (!excluded) {
      return;  // the lane groups take every entry (or go by panels): no list
    }
    if (tiles.tile_count > 0 || tiles.outside.size() == 0) {
      tiles = find_masked_tiles(pattern, kNoTile, 1, exclusion);  // the flags without tiles
    }
    plan.listed = list_entries_outside(tiles, pattern.nnz(), remaining);
    return;
  }
  figures.shape.item_steps = tiles.item_steps;
  if (figures.shape.kernel == MaskedTileKernel::registers) {
    order_tile_values(tiles, pattern);  // a valued S: its values in the lanes' order
  }
  if (figures.shape.kernel == MaskedTileKernel::ring) {
    figures.shape.shared_bytes =
        masked_tile_shared_bytes(figures.shape.panels, figures.shape.stages, inner,
                                 tiles.item_steps, figures.shape.group_steps);
  }
  figures.tiles = tiles.tile_count;
  figures.steps = tiles.step_count;
  figures.items = tiles.item_count;
  figures.covered = tiles.covered;
  plan.listed = list_entries_outside(tiles, pattern.nnz(), remaining - tiles.covered);
  plan.tiles = std::move(tiles);
}

/// Panels' rows of A the masked tiles bring from L2, in units of one panel: each item's
/// panels once, except register_tile_kernel with several passes over inner, which parks a
/// tile's A again for each pass (one panel per tile).
double masked_a_rows_per_panel(const MaskedPlanFigures& figures, int inner) {
  const bool passes = figures.shape.kernel == MaskedTileKernel::registers &&
                      figures.shape.chunk > 0 && figures.shape.chunk < inner;
  return passes ? static_cast<double>(figures.steps)
                : static_cast<double>(figures.items) * std::max(figures.shape.panels, 1);
}

}  // namespace

MaskedTilePlan plan_masked_tiles(const DevicePattern& pattern, const PanelStatistics& statistics,
                                 int inner, const MaskedTileOptions& options,
                                 const GpuDescription& device, const MaskedExclusion& exclusion,
                                 std::int64_t remaining) {
  MaskedTilePlan plan;
  MaskedPlanFigures& figures = plan.figures;
  const DeviceRates rates = described_rates(device);
  const std::int64_t nnz = pattern.nnz();
  if (nnz == 0) {
    return plan;
  }
  if (remaining < 0) {
    remaining = nnz;
  }
  plan_tiles(plan, pattern, statistics, inner, options, device, rates, exclusion, remaining);
  figures.lane_entries = remaining - figures.covered;
  const double tile_seconds =
      figures.tiles == 0 ? 0.0
                         : masked_tile_seconds(rates, inner, figures.tiles, figures.weighed.steps,
                                               figures.weighed.items, figures.weighed.panels) +
                               rates.launch_seconds;
  figures.model_sparse_seconds = tile_seconds +
                                 lane_group_seconds(rates, inner, figures.lane_entries) +
                                 (figures.lane_entries > 0 ? rates.launch_seconds : 0.0) +
                                 4.0 * static_cast<double>(nnz) / rates.dram_bytes_per_second;
  figures.model_dense_seconds =
      dense_product_seconds(rates, pattern.rows(), pattern.cols(), inner, nnz);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  course::device_memory(free_bytes, total_bytes);
  const std::uint64_t buffer = dense_product_buffer_bytes(pattern.rows(), pattern.cols());
  if (options.dense_path && dense_product_pays(figures.model_dense_seconds,
                                               figures.model_sparse_seconds, buffer, free_bytes)) {
    take_dense_path(plan, pattern, statistics, inner);
    return plan;
  }
  const double inner16 = wmma_padded(inner);
  figures.tensor_flops =
      2.0 * kMaskedTileEdge * kMaskedTileEdge * inner16 * static_cast<double>(figures.tiles);
  figures.gathered_bytes =
      row_bytes(inner) * (static_cast<double>(figures.lane_entries) +
                          kMaskedTileEdge * static_cast<double>(figures.steps) +
                          kMaskedTileEdge * masked_a_rows_per_panel(figures, inner));
  figures.launches = (figures.tiles > 0 ? 1 : 0) + (figures.lane_entries > 0 ? 1 : 0);
  return plan;
}

std::string describe_masked_tiles(const MaskedPlanFigures& figures) {
  if (figures.tiles == 0) {
    return "";
  }
  const std::string cut = std::to_string(figures.tiles) + " tiles, " +
                          std::to_string(figures.steps) + " tile columns, " +
                          std::to_string(figures.items) + " items";
  if (figures.shape.kernel == MaskedTileKernel::registers) {
    return " (" + cut + ": registers, a warp an item)";
  }
  return " (" + cut + ": ring, " + std::to_string(figures.shape.panels) + " panels a block)";
}

void take_dense_path(MaskedTilePlan& plan, const DevicePattern& pattern,
                     const PanelStatistics& statistics, int inner) {
  MaskedPlanFigures& figures = plan.figures;
  const std::uint64_t buffer = dense_product_buffer_bytes(pattern.rows(), pattern.cols());
  plan.tiles = {};
  plan.listed = {};
  plan.dense = std::make_unique<DenseProductPath>(pattern, statistics);
  figures.dense_path = true;
  figures.tiles = figures.steps = figures.items = figures.covered = 0;
  figures.weighed = {};
  figures.lane_entries = 0;
  figures.gathered_bytes = 0.0;
  figures.tensor_flops = 2.0 * pattern.rows() * static_cast<double>(pattern.cols()) * inner;
  figures.extra_dram_bytes =
      static_cast<double>(buffer) +
      std::min(32.0 * static_cast<double>(pattern.nnz()), static_cast<double>(buffer));
  figures.launches = 2;
}

void add_masked_tiles_by_panel(const DevicePattern& pattern, int inner,
                               const MaskedTileOptions& options, const GpuDescription& device,
                               const unsigned char* full_covered,
                               std::vector<PanelFigures>& figures) {
  const TileThreshold threshold = threshold_for(options, described_rates(device), inner);
  // The panels are weighed with the ring's model, as the choice by cost was tuned (the H200
  // run of issue 41): the registers run the same tiles faster where the plan picks them.
  MaskedTileShape shape = ring_shape_for(device, inner, options);
  if (shape.panels == 0 && inner > 0) {
    shape = choose_register_tile_shape(device, inner);
  }
  if (inner <= 0 || shape.panels == 0 || pattern.nnz() == 0) {
    return;  // the plan can run no masked tile
  }
  const MaskedTiles tiles =
      find_masked_tiles(pattern, threshold, shape.panels, MaskedExclusion{full_covered, nullptr});
  if (tiles.tile_count == 0) {
    return;
  }
  const auto count = static_cast<std::size_t>(tiles.tile_count);
  std::vector<std::uint64_t> keys(count);
  std::vector<std::uint16_t> masks(count * kMaskedTileEdge);
  tiles.keys.download(keys.data(), keys.size());
  tiles.masks.download(masks.data(), masks.size());
  const int tile_cols = (pattern.cols() + kMaskedTileEdge - 1) / kMaskedTileEdge;
  add_masked_panel_figures(keys, masks, tiles.panels, tile_cols, figures);
}

}  // namespace course::step5
