/// @file fast_gemm_config.cpp
/// @brief The fast kernel's choice of block tile and split-K, from the shape and the device.
/// Read fast_gemm_config.hpp first; the lesson's section "Split-K" explains the model.
#include "step4_boundary_checks/fast_gemm_config.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace course::step4 {
namespace {

/// The second kernel of split-K costs a launch: about 3 µs on the H100 (measured by the
/// benchmark as the gap between one launch and two on a tiny product).
constexpr double kLaunchSeconds = 3e-6;

/// A block waits for its first tile before it can multiply anything (a round trip to memory)
/// and writes its outputs at the end: about 0.5 µs per wave that no arithmetic hides.
constexpr double kWaveFillSeconds = 0.5e-6;

/// Each thread of the reduction adds its element's partial products one split after another
/// (8 loads in flight): about 25 ns per split when the output is too small to keep many threads
/// busy (the calibration below: 5 to 25 ns give the same smallest fraction, 50 ns a worse one).
constexpr double kReduceSecondsPerSplit = 25e-9;

/// The partial products are written and read back at the memory bandwidth: the calibration below
/// finds half of it (the value before the tile cursor) too pessimistic, as it kept long-inner
/// shapes from the splits that serve them best.
constexpr double kWorkspaceBandwidthFraction = 1.0;

/// An SM reaches its full rate (the tile's efficiency) from 12 resident warps on, three per
/// scheduler (three 4-warp 64×128 blocks ran 997×3001×1013 in 0.172 ms, two in 0.189 ms, with
/// the same work per SM). Below 12 the rate falls only as the 1/4 power of the warps
/// (kRateExponent): each thread's 64 independent multiply-adds per depth hide most of the
/// latency that a kernel with less work per thread needs many warps for.
constexpr int kWarpsForFullRate = 12;

/// See kWarpsForFullRate.
constexpr double kRateExponent = 0.25;

/// A block alone on its SM runs at this fraction of the rate its warps would give. Before the tile
/// cursor it was 0.75: at each of its barriers every warp of the SM waited, with no second block
/// to issue in the meantime (one 8-warp 128×128 block a SM ran 0.89 as fast per SM as two). With
/// the loads' instructions cut, the calibration below finds no such penalty: 0.6 to 0.9 give the
/// same smallest fraction of cuBLAS and 1.0 a slightly better mean, so the rate of a lone block
/// is its warps' rate.
///
/// Calibration of the constants of this file: the shape sweep with every tile and candidate split
/// (`--bench --shapes shapes/public_shapes.txt --all-fast-variants`, H100, 2026-11-24,
/// results/shapes_sweep_h100_cursor*), and a grid search over them, on a copy of the model
/// (results/calibrate_choice.py), for the values whose choice on the shapes where cuBLAS takes
/// at least 20 µs serve them best against cuBLAS, the course's targets: the smallest fraction of
/// cuBLAS first, then the geometric mean; of the values that tie, those nearest the previous
/// ones. The split-K cost terms were measured with the reduction of split_k_reduce.cuh as it is
/// now (one element a thread on the scalar path, 8 loads in flight).
constexpr double kLoneBlockRate = 1.0;

long long ceil_div_ll(long long extent, long long tile) {
  return (extent + tile - 1) / tile;
}

long long output_tiles(const ProductSizes& sizes, const TileFacts& tile) {
  return ceil_div_ll(sizes.rows, tile.block_rows) * ceil_div_ll(sizes.cols, tile.block_cols);
}

// Seconds for one wave in which each SM runs `resident` units of `unit_flops` side by side,
// at `efficiency` of its FMA peak when full.
double wave_seconds(const DeviceFacts& device, const TileFacts& tile, double efficiency,
                    long long resident, double unit_flops) {
  const double sm_rate = device.flops_per_second / device.multiprocessors * efficiency;
  const double warps = static_cast<double>(resident) * tile.threads / 32.0;
  double busy = std::pow(std::min(1.0, warps / kWarpsForFullRate), kRateExponent);
  if (resident == 1) {
    busy *= kLoneBlockRate;
  }
  return kWaveFillSeconds + unit_flops * static_cast<double>(resident) / (sm_rate * busy);
}

}  // namespace

std::string fast_variant_name(FastVariant variant) {
  switch (variant) {
    case FastVariant::automatic:
      return "auto";
    case FastVariant::bm128_bn128_bk8:
      return "128x128x8";
    case FastVariant::bm128_bn128_bk16:
      return "128x128x16";
    case FastVariant::bm128_bn64_bk8:
      return "128x64x8";
    case FastVariant::bm64_bn128_bk8:
      return "64x128x8";
    case FastVariant::bm64_bn64_bk8:
      return "64x64x8";
    case FastVariant::bm32_bn128_bk8:
      return "32x128x8";
    case FastVariant::bm128_bn128_bk16_async:
      return "128x128x16 async";
    case FastVariant::bm64_bn128_bk16_async:
      return "64x128x16 async";
    case FastVariant::thin_rows:
      return "thin rows";
    case FastVariant::thin_cols:
      return "thin columns";
  }
  return "unknown";
}

std::string fast_config_name(const FastConfig& config) {
  const std::string tile = fast_variant_name(config.tile);
  std::string name = tile;
  if (config.splits != 1) {
    name += ", split " + (config.splits > 1 ? std::to_string(config.splits) : "auto");
  }
  if (config.group_rows > 1) {
    name += ", groups of " + std::to_string(config.group_rows);
  }
  return name;
}

// The model, in three terms:
//  1. Arithmetic. The output is cut into tiles, each tile's inner dimension into `splits`
//     pieces: tiles · splits units of work, every unit BM·BN·BK·(its inner tiles) multiply-adds
//     (zeros past the edges included: a 128-row tile of a 3-row product costs a full tile).
//     Units on one SM share its rate (the tile's efficiency, lower on the scalar path of a ragged
//     inner or cols), and an SM below 8 resident warps, or with a lone block, runs slower still.
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
double estimate_fast_seconds(const ProductSizes& sizes, const DeviceFacts& device,
                             const TileFacts& tile, int splits) {
  const long long inner_tiles = ceil_div_ll(sizes.inner, tile.depth);
  const long long tiles_per_split = ceil_div_ll(inner_tiles, std::max(1, splits));
  const long long real_splits = ceil_div_ll(inner_tiles, tiles_per_split);
  const long long units = output_tiles(sizes, tile) * real_splits;
  const double unit_flops =
      2.0 * tile.block_rows * tile.block_cols * tile.depth * static_cast<double>(tiles_per_split);
  const long long slots =
      static_cast<long long>(device.multiprocessors) * std::max(1, tile.blocks_per_multiprocessor);
  const long long full_waves = units / slots;
  const long long rest = units % slots;
  // float4 loads need rows of A and B that are multiples of 4 floats; otherwise the scalar path.
  const bool ragged = sizes.inner % 4 != 0 || sizes.cols % 4 != 0;
  const double efficiency = ragged ? tile.ragged_efficiency : tile.efficiency;
  double seconds =
      static_cast<double>(full_waves) *
      wave_seconds(device, tile, efficiency, tile.blocks_per_multiprocessor, unit_flops);
  if (rest > 0) {
    const long long resident = ceil_div_ll(rest, device.multiprocessors);
    seconds += wave_seconds(device, tile, efficiency, resident, unit_flops);
  }
  if (real_splits > 1) {
    const double output_bytes = 4.0 * sizes.rows * static_cast<double>(sizes.cols);
    const double traffic_seconds = (2.0 * static_cast<double>(real_splits) + 1.0) * output_bytes /
                                   (kWorkspaceBandwidthFraction * device.bytes_per_second);
    const double walk_seconds = static_cast<double>(real_splits) * kReduceSecondsPerSplit;
    seconds += std::max(traffic_seconds, walk_seconds) + kLaunchSeconds;
  }
  return seconds;
}

std::vector<int> candidate_splits(const ProductSizes& sizes, const DeviceFacts& device,
                                  const TileFacts& tile) {
  const long long inner_tiles = ceil_div_ll(sizes.inner, tile.depth);
  const double output_bytes = 4.0 * sizes.rows * static_cast<double>(sizes.cols);
  const long long by_workspace = static_cast<long long>(kMaxWorkspaceBytes / output_bytes);
  const long long most = std::max<long long>(
      1, std::min({inner_tiles, static_cast<long long>(sizes.inner / kMinSplitDepth), by_workspace,
                   65535LL}));
  std::vector<int> splits = {1};
  // Splits that make the units fill 1, 2, 3 or 4 whole waves, and powers of two in between.
  const long long tiles = output_tiles(sizes, tile);
  const long long slots =
      static_cast<long long>(device.multiprocessors) * std::max(1, tile.blocks_per_multiprocessor);
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

FastVariant thin_variant(const ProductSizes& sizes) {
  if (sizes.cols <= kThinMax) {
    return FastVariant::thin_cols;
  }
  return sizes.rows <= kThinMax ? FastVariant::thin_rows : FastVariant::automatic;
}

int thin_splits(const ProductSizes& sizes, const DeviceFacts& device, long long warps) {
  constexpr long long kWarpsPerMultiprocessor = 32;
  const long long chunks = ceil_div_ll(sizes.inner, kThinChunk);
  const long long wanted =
      ceil_div_ll(kWarpsPerMultiprocessor * device.multiprocessors, std::max(1LL, warps));
  const int splits = static_cast<int>(std::clamp(wanted, 1LL, std::min(chunks, 65535LL)));
  return effective_splits(sizes.inner, kThinChunk, splits);
}

FastConfig choose_fast_config(const ProductSizes& sizes, const DeviceFacts& device,
                              const std::vector<TileFacts>& tiles) {
  if (tiles.empty()) {
    throw std::invalid_argument("choose_fast_config: no tile shapes to choose from");
  }
  FastConfig best{tiles.front().tile, 1};
  double best_seconds = std::numeric_limits<double>::infinity();
  for (const TileFacts& tile : tiles) {
    for (int splits : candidate_splits(sizes, device, tile)) {
      const double seconds = estimate_fast_seconds(sizes, device, tile, splits);
      if (seconds < best_seconds * (1.0 - 1e-9)) {  // strictly better: ties keep the earlier
        best_seconds = seconds;
        best = {tile.tile, effective_splits(sizes.inner, tile.depth, splits)};
      }
    }
  }
  return best;
}

}  // namespace course::step4
