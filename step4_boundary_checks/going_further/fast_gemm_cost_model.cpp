/// @file fast_gemm_cost_model.cpp
/// @brief The fast kernel's choice of block tile and split-K, from the shape and a description of
/// the device. Read fast_gemm_cost_model.hpp first; going_further/README.md ("Choosing the tile
/// and the split") explains the model, calibrated_constants.hpp holds its measured constants.
#include "step4_boundary_checks/going_further/fast_gemm_cost_model.hpp"

#include "step4_boundary_checks/going_further/calibrated_constants.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace course::step4 {
namespace {

long long output_tiles(const ProductSizes& sizes, const TileFacts& tile) {
  return ceil_div<long long>(sizes.rows, tile.block_rows) *
         ceil_div<long long>(sizes.cols, tile.block_cols);
}

// Seconds for one wave in which each SM runs `resident` units of `unit_flops` side by side,
// at `efficiency` of its FMA peak when full.
double wave_seconds(const GpuDescription& device, const TileFacts& tile, double efficiency,
                    long long resident, double unit_flops) {
  const double sm_rate = peak_flops_per_second(device) / device.sm_count * efficiency;
  const double warps = static_cast<double>(resident) * tile.threads / 32.0;
  double busy = std::pow(std::min(1.0, warps / kWarpsForFullRate), kRateExponent);
  if (resident == 1) {
    busy *= kLoneBlockRate;
  }
  return kWaveFillSeconds + unit_flops * static_cast<double>(resident) / (sm_rate * busy);
}

// Warps of one split of a thin path: thin_rows has kThinChunk threads a block.
long long thin_warps(const ProductSizes& sizes, FastVariant variant) {
  const long long per_block = variant == FastVariant::thin_rows ? kThinChunk / 32 : kThinColsWarps;
  return thin_blocks(sizes, variant) * per_block;
}

// The facts of the compiled tile @p variant.
const TileFacts& find_tile(const std::vector<TileFacts>& tiles, FastVariant variant) {
  for (const TileFacts& tile : tiles) {
    if (tile.tile == variant) {
      return tile;
    }
  }
  throw std::invalid_argument("fast kernel: no compiled tile " + fast_variant_name(variant));
}

// Whether a grid of tiles of @p block_rows rows fits CUDA's limit on gridDim.y (block rows).
bool grid_fits(const ProductSizes& sizes, int block_rows) {
  return ceil_div<long long>(sizes.rows, block_rows) <= kMaxGridY;
}

}  // namespace

int tile_shared_bytes(const TileCalibration& tile) {
  constexpr int kFloat = 4;
  if (tile.async_copies) {
    // kAsyncStages = 3 buffers of the row-major A tile (BM×BK) and the B tile (BK×BN).
    return 3 * tile.depth * (tile.block_rows + tile.block_cols) * kFloat;
  }
  // Two buffers of the transposed A tile (BK rows of BM + 4) and the B tile (BK×BN).
  return 2 * tile.depth * (tile.block_rows + 4 + tile.block_cols) * kFloat;
}

TileFacts tile_facts_from(const TileCalibration& tile, int blocks_per_multiprocessor) {
  TileFacts facts;
  facts.tile = tile.tile;
  facts.block_rows = tile.block_rows;
  facts.block_cols = tile.block_cols;
  facts.depth = tile.depth;
  facts.threads = tile.threads;
  facts.blocks_per_multiprocessor = blocks_per_multiprocessor;
  facts.efficiency = tile.efficiency;
  facts.ragged_efficiency = tile.ragged_efficiency;
  facts.registers_per_thread = tile.registers_per_thread;
  facts.shared_bytes = tile_shared_bytes(tile);
  return facts;
}

std::vector<TileFacts> described_tiles(const GpuDescription& device, bool async_copies_compiled) {
  const bool async_ok = async_copies_compiled && has_async_copies(device);
  std::vector<TileFacts> tiles;
  for (const TileCalibration& tile : kTileCalibrations) {
    const int blocks = blocks_per_multiprocessor(
        device, {tile.threads, tile.registers_per_thread, tile_shared_bytes(tile)});
    if ((!tile.async_copies || async_ok) && blocks > 0) {
      tiles.push_back(tile_facts_from(tile, blocks));
    }
  }
  return tiles;
}

void validate_fast_shape(const ProductSizes& sizes) {
  if (thin_variant(sizes) != FastVariant::automatic) {
    return;  // the thin paths put rows (or columns) in gridDim.x, which goes to 2^31 - 1
  }
  int tallest = 1;
  for (const TileCalibration& tile : kTileCalibrations) {
    tallest = std::max(tallest, tile.block_rows);
  }
  if (!grid_fits(sizes, tallest)) {
    throw std::invalid_argument(
        "fast kernel: rows = " + std::to_string(sizes.rows) + " needs more than CUDA's gridDim.y " +
        "limit of " + std::to_string(kMaxGridY) + " block rows even with the tallest tile (" +
        std::to_string(tallest) + " rows: at most " +
        std::to_string(static_cast<long long>(kMaxGridY) * tallest) + " rows)");
  }
}

// The model, in three terms:
//  1. Arithmetic. The output is cut into tiles, each tile's inner dimension into `splits`
//     pieces: tiles · splits units of work, every unit BM·BN·BK·(its inner tiles) multiply-adds
//     (zeros past the edges included: a 128-row tile of a 3-row product costs a full tile).
//     Units on one SM share its rate (the tile's efficiency, lower on the scalar path of a ragged
//     inner or cols); an SM below kWarpsForFullRate resident warps runs slower still, and a lone
//     block on its SM at kLoneBlockRate of that.
//     The GPU runs them in waves of SMs · (resident blocks per SM); a wave lasts as long as
//     one SM needs for its units. A last wave that is only partly full still costs a wave
//     (wave quantization) -- unless its SMs run fewer units each, which is then faster.
//  2. Filling each wave: the first tile's load and the last stores, which nothing hides.
//  3. Split-K's price: the partial products are written (splits · rows·cols floats) and read back
//     by the reduction, which writes C again, plus the reduction's launch; for a small output
//     the reduction's serial walk over the splits (kReduceSecondsPerSplit) costs more than its
//     bytes, and the larger of the two counts.
// Constants are properties of the hardware and of each compiled tile (TileFacts), never of a
// particular benchmark shape.
double estimate_fast_seconds(const ProductSizes& sizes, const GpuDescription& device,
                             const TileFacts& tile, int splits) {
  const long long inner_tiles = ceil_div<long long>(sizes.inner, tile.depth);
  const long long tiles_per_split = ceil_div<long long>(inner_tiles, std::max(1, splits));
  const long long real_splits = ceil_div<long long>(inner_tiles, tiles_per_split);
  const long long units = output_tiles(sizes, tile) * real_splits;
  const double unit_flops =
      2.0 * tile.block_rows * tile.block_cols * tile.depth * static_cast<double>(tiles_per_split);
  const long long slots =
      static_cast<long long>(device.sm_count) * std::max(1, tile.blocks_per_multiprocessor);
  const long long full_waves = units / slots;
  const long long rest = units % slots;
  // float4 loads need rows of A and B that are multiples of 4 floats; otherwise the scalar path.
  const bool ragged = sizes.inner % 4 != 0 || sizes.cols % 4 != 0;
  const double efficiency = ragged ? tile.ragged_efficiency : tile.efficiency;
  double seconds =
      static_cast<double>(full_waves) *
      wave_seconds(device, tile, efficiency, tile.blocks_per_multiprocessor, unit_flops);
  if (rest > 0) {
    const long long resident = ceil_div<long long>(rest, device.sm_count);
    seconds += wave_seconds(device, tile, efficiency, resident, unit_flops);
  }
  if (real_splits > 1) {
    const double output_bytes = 4.0 * sizes.rows * static_cast<double>(sizes.cols);
    const double traffic_seconds =
        (2.0 * static_cast<double>(real_splits) + 1.0) * output_bytes /
        (kWorkspaceBandwidthFraction * dram_peak_bytes_per_second(device));
    const double walk_seconds = static_cast<double>(real_splits) * kReduceSecondsPerSplit;
    seconds += std::max(traffic_seconds, walk_seconds) + kLaunchSeconds;
  }
  return seconds;
}

std::vector<int> candidate_splits(const ProductSizes& sizes, const GpuDescription& device,
                                  const TileFacts& tile) {
  const long long inner_tiles = ceil_div<long long>(sizes.inner, tile.depth);
  const double output_bytes = 4.0 * sizes.rows * static_cast<double>(sizes.cols);
  const long long by_workspace = static_cast<long long>(kMaxWorkspaceBytes / output_bytes);
  const long long most = std::max<long long>(
      1, std::min({inner_tiles, static_cast<long long>(sizes.inner / kMinSplitDepth), by_workspace,
                   static_cast<long long>(kMaxGridZ)}));
  std::vector<int> splits = {1};
  // Splits that make the units fill 1, 2, 3 or 4 whole waves, and powers of two in between.
  const long long tiles = output_tiles(sizes, tile);
  const long long slots =
      static_cast<long long>(device.sm_count) * std::max(1, tile.blocks_per_multiprocessor);
  for (long long waves = 1; waves <= 4; ++waves) {
    splits.push_back(static_cast<int>(std::min(most, std::max(1LL, waves * slots / tiles))));
  }
  for (long long power = 2; power <= most; power *= 2) {
    splits.push_back(static_cast<int>(power));
  }
  std::sort(splits.begin(), splits.end());
  splits.erase(std::unique(splits.begin(), splits.end()), splits.end());
  return splits;
}

int choose_group_rows(int tile_rows, int tile_cols, long long wave_blocks) {
  constexpr int kGroupRows = 8;
  // A wave spans wave_blocks / tile_cols tile-rows in plain order; grouping pays only when
  // that is fewer than a group and the output is tall enough to form groups.
  const bool wave_within_few_rows = wave_blocks < static_cast<long long>(kGroupRows) * tile_cols;
  return wave_within_few_rows && tile_rows >= 2 * kGroupRows ? kGroupRows : 1;
}

int thin_splits(const ProductSizes& sizes, const GpuDescription& device, long long warps) {
  constexpr long long kWarpsPerMultiprocessor = 32;
  const long long chunks = ceil_div<long long>(sizes.inner, kThinChunk);
  const long long wanted =
      ceil_div<long long>(kWarpsPerMultiprocessor * device.sm_count, std::max(1LL, warps));
  const int splits = static_cast<int>(
      std::clamp(wanted, 1LL, std::min(chunks, static_cast<long long>(kMaxGridZ))));
  return effective_splits(sizes.inner, kThinChunk, splits);
}

FastConfig choose_fast_config(const ProductSizes& sizes, const GpuDescription& device,
                              const std::vector<TileFacts>& tiles) {
  if (tiles.empty()) {
    throw std::invalid_argument("choose_fast_config: no tile shapes to choose from");
  }
  FastConfig best{tiles.front().tile, 1};
  double best_seconds = std::numeric_limits<double>::infinity();
  for (const TileFacts& tile : tiles) {
    if (!grid_fits(sizes, tile.block_rows)) {
      continue;  // more block rows than gridDim.y holds: a taller tile may still fit
    }
    for (int splits : candidate_splits(sizes, device, tile)) {
      const double seconds = estimate_fast_seconds(sizes, device, tile, splits);
      if (seconds < best_seconds * (1.0 - 1e-9)) {  // strictly better: ties keep the earlier
        best_seconds = seconds;
        best = {tile.tile, effective_splits(sizes.inner, tile.depth, splits)};
      }
    }
  }
  if (!std::isfinite(best_seconds)) {
    throw std::invalid_argument("fast kernel: no tile's grid fits " + sizes.text() +
                                ": rows needs more than CUDA's gridDim.y limit of " +
                                std::to_string(kMaxGridY) + " block rows");
  }
  return best;
}

long long thin_blocks(const ProductSizes& sizes, FastVariant variant) {
  return variant == FastVariant::thin_rows ? ceil_div(sizes.cols, kThinChunk)
                                           : ceil_div(sizes.rows, kThinColsWarps);
}

FastConfig resolve_fast_config(const ProductSizes& sizes, FastConfig config,
                               const GpuDescription& device,
                               const std::vector<TileFacts>& automatic,
                               const std::vector<TileFacts>& compiled) {
  if (config.tile == FastVariant::automatic && thin_variant(sizes) != FastVariant::automatic) {
    config.tile = thin_variant(sizes);
  }
  if (config.tile == FastVariant::thin_rows || config.tile == FastVariant::thin_cols) {
    if (config.splits <= 0) {
      config.splits = thin_splits(sizes, device, thin_warps(sizes, config.tile));
    }
    return config;
  }
  const int group_rows = config.group_rows;
  if (config.tile == FastVariant::automatic) {
    validate_fast_shape(sizes);
    config = choose_fast_config(sizes, device, automatic);
  } else if (config.splits <= 0) {
    // A fixed tile with the split chosen for it alone.
    const TileFacts& tile = find_tile(compiled, config.tile);
    validate_grid_rows(sizes, tile.block_rows, "fast kernel");
    config = choose_fast_config(sizes, device, {tile});
  }
  config.group_rows = group_rows;
  if (config.group_rows <= 0) {
    const TileFacts& tile = find_tile(compiled, config.tile);
    const long long wave = static_cast<long long>(device.sm_count) * tile.blocks_per_multiprocessor;
    config.group_rows = choose_group_rows(ceil_div(sizes.rows, tile.block_rows),
                                          ceil_div(sizes.cols, tile.block_cols), wave);
  }
  return config;
}

}  // namespace course::step4
