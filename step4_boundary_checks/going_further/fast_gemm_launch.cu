/// @file fast_gemm_launch.cu
/// @brief Launcher of the fast kernel: reads the device, chooses tile and split-K
/// (fast_gemm_config.cpp), and runs fast_gemm.cuh plus, when split, split_k_reduce.cuh.
/// Read fast_gemm.cuh and fast_gemm_config.hpp first.
#include "step4_boundary_checks/step4_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "step4_boundary_checks/async_copy_gemm.cuh"
#include "step4_boundary_checks/fast_gemm.cuh"
#include "step4_boundary_checks/split_k_reduce.cuh"
#include "step4_boundary_checks/thin_products.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace course::step4 {
namespace {

using Tile128x128x8 = FastTiling<128, 128, 8>;
using Tile128x128x16 = FastTiling<128, 128, 16>;
using Tile128x64x8 = FastTiling<128, 64, 8>;
using Tile64x128x8 = FastTiling<64, 128, 8>;
using Tile64x64x8 = FastTiling<64, 64, 8>;
using Tile32x128x8 = FastTiling<32, 128, 8>;
using Tile64x128x16 = FastTiling<64, 128, 16>;

/// How the tiles reach shared memory: through registers (fast_gemm_kernel) or by asynchronous
/// copies (async_copy_gemm_kernel).
enum class Staging { registers, async_copies };

/// The kernel for @p Tiling, @p STAGING and the float4 paths.
template <typename Tiling, Staging STAGING, bool VECTOR_A, bool VECTOR_BC>
constexpr auto kernel_for() {
  if constexpr (STAGING == Staging::async_copies) {
    return async_copy_gemm_kernel<Tiling, VECTOR_A, VECTOR_BC>;
  } else {
    return fast_gemm_kernel<Tiling, VECTOR_A, VECTOR_BC>;
  }
}

bool aligned16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

/// FP32 lanes per SM: 64 on sm_60/sm_70/sm_80, 128 on sm_86, sm_89 and sm_90 (Hopper).
int fp32_lanes_per_multiprocessor(int major, int minor) {
  return (major == 8 && minor == 0) || major < 8 ? 64 : 128;
}

const DeviceFacts& read_device_facts() {
  static const DeviceFacts facts = [] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    auto attribute = [device](cudaDeviceAttr which) {
      int value = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
      return value;
    };
    DeviceFacts result;
    result.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
    const double clock_hz = attribute(cudaDevAttrClockRate) * 1e3;
    const int lanes = fp32_lanes_per_multiprocessor(attribute(cudaDevAttrComputeCapabilityMajor),
                                                    attribute(cudaDevAttrComputeCapabilityMinor));
    result.flops_per_second = 2.0 * lanes * clock_hz * result.multiprocessors;
    // Double data rate: two transfers per memory clock over the whole bus.
    result.bytes_per_second = 2.0 * attribute(cudaDevAttrMemoryClockRate) * 1e3 *
                              attribute(cudaDevAttrGlobalMemoryBusWidth) / 8.0;
    return result;
  }();
  return facts;
}

/// The fraction of the fp32 FMA peak each tile reaches at full occupancy and without a split,
/// measured on an H100 (sm_90, 132 SMs) on 2026-11-24 by the shape sweep
/// (`step4_boundary_checks --bench --shapes shapes/public_shapes.txt --all-fast-variants`,
/// results/shapes_sweep_h100_cursor*): @p efficiency at 4096×4096×4096 (float4 loads),
/// @p ragged_efficiency at 4093×4091×4099 (scalar loads). They differ by less than one would
/// guess from the reuse of each loaded element (BM·BN/(BM+BN) multiply-adds per element): at
/// full occupancy every tile is limited by the same FMA issue rate, and what differs is latency
/// hiding and register pressure; on the scalar path the 64-wide tiles lose most, as they issue
/// the most loads per multiply-add.
template <typename Tiling, Staging STAGING = Staging::registers>
TileFacts describe(FastVariant variant, double efficiency, double ragged_efficiency) {
  TileFacts facts;
  facts.tile = variant;
  facts.block_rows = Tiling::kBlockRows;
  facts.block_cols = Tiling::kBlockCols;
  facts.depth = Tiling::kDepth;
  facts.threads = Tiling::kThreads;
  facts.efficiency = efficiency;
  facts.ragged_efficiency = ragged_efficiency;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &facts.blocks_per_multiprocessor, kernel_for<Tiling, STAGING, true, true>(), Tiling::kThreads,
      0));
  return facts;
}

/// Every compiled tile, the one the automatic choice prefers on a tie first.
const std::vector<TileFacts>& automatic_tiles() {
  static const std::vector<TileFacts> tiles = {
      describe<Tile128x128x8>(FastVariant::bm128_bn128_bk8, 0.707, 0.639),
      describe<Tile64x128x8>(FastVariant::bm64_bn128_bk8, 0.691, 0.633),
      describe<Tile128x64x8>(FastVariant::bm128_bn64_bk8, 0.675, 0.612),
      describe<Tile128x128x16>(FastVariant::bm128_bn128_bk16, 0.710, 0.631),
      describe<Tile64x64x8>(FastVariant::bm64_bn64_bk8, 0.677, 0.592),
      describe<Tile32x128x8>(FastVariant::bm32_bn128_bk8, 0.614, 0.544),
      describe<Tile128x128x16, Staging::async_copies>(FastVariant::bm128_bn128_bk16_async, 0.574,
                                                      0.531),
      describe<Tile64x128x16, Staging::async_copies>(FastVariant::bm64_bn128_bk16_async, 0.624,
                                                     0.512),
  };
  return tiles;
}
/// The compiled tile @p variant (a tiled variant, not automatic or thin).
const TileFacts& tile_facts(FastVariant variant) {
  for (const TileFacts& tile : automatic_tiles()) {
    if (tile.tile == variant) {
      return tile;
    }
  }
  throw std::invalid_argument("fast kernel: no compiled tile " + fast_variant_name(variant));
}

template <typename Tiling, Staging STAGING, bool VECTOR_A, bool VECTOR_BC>
void launch_kernel(const float* a, const float* b, float* out, const ProductSizes& sizes,
                   int splits, int group_rows, cudaStream_t stream) {
  const int inner_tiles = ceil_div(sizes.inner, Tiling::kDepth);
  const dim3 block(Tiling::kThreads);
  const dim3 grid(ceil_div(sizes.cols, Tiling::kBlockCols),
                  ceil_div(sizes.rows, Tiling::kBlockRows), splits);
  kernel_for<Tiling, STAGING, VECTOR_A, VECTOR_BC>()<<<grid, block, 0, stream>>>(
      a, b, out, sizes.rows, sizes.inner, sizes.cols, ceil_div(inner_tiles, splits), group_rows);
  CUDA_CHECK_LAUNCH(fast_gemm_kernel);
}

/// Runs the kernel with the float4 paths that the alignment allows, into @p out.
template <typename Tiling, Staging STAGING>
void launch_aligned(const float* a, const float* b, float* out, const ProductSizes& sizes,
                    int splits, int group_rows, cudaStream_t stream) {
  // float4 access is allowed only where every row starts on a 16-byte boundary: the base
  // pointer aligned and the row length (leading dimension) a multiple of 4 floats.
  const bool vector_a = sizes.inner % 4 == 0 && aligned16(a);
  const bool vector_bc = sizes.cols % 4 == 0 && aligned16(b) && aligned16(out);
  if (vector_a && vector_bc) {
    launch_kernel<Tiling, STAGING, true, true>(a, b, out, sizes, splits, group_rows, stream);
  } else if (vector_a) {
    launch_kernel<Tiling, STAGING, true, false>(a, b, out, sizes, splits, group_rows, stream);
  } else if (vector_bc) {
    launch_kernel<Tiling, STAGING, false, true>(a, b, out, sizes, splits, group_rows, stream);
  } else {
    launch_kernel<Tiling, STAGING, false, false>(a, b, out, sizes, splits, group_rows, stream);
  }
}

/// C = the sum of the @p splits slices of @p partials (split_k_reduce_kernel).
void launch_reduce(const float* partials, float* c, const ProductSizes& sizes, int splits,
                   cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int count = sizes.rows * sizes.cols;
  const bool vector = count % 4 == 0 && aligned16(partials) && aligned16(c);
  const dim3 grid(ceil_div(vector ? count / 4 : count, kThreads));  // 4 elements a thread, or 1
  if (vector) {
    split_k_reduce_kernel<true><<<grid, kThreads, 0, stream>>>(partials, c, count, splits);
  } else {
    split_k_reduce_kernel<false><<<grid, kThreads, 0, stream>>>(partials, c, count, splits);
  }
  CUDA_CHECK_LAUNCH(split_k_reduce_kernel);
}

/// Warps per block of thin_cols_kernel (one warp per row of C).
constexpr int kThinColsWarps = 8;

long long thin_blocks(const ProductSizes& sizes, FastVariant variant) {
  return variant == FastVariant::thin_rows ? ceil_div(sizes.cols, kThinChunk)
                                           : ceil_div(sizes.rows, kThinColsWarps);
}

/// Warps of one split of a thin path: thin_rows has kThinChunk threads a block.
long long thin_warps(const ProductSizes& sizes, FastVariant variant) {
  const long long per_block = variant == FastVariant::thin_rows ? kThinChunk / 32 : kThinColsWarps;
  return thin_blocks(sizes, variant) * per_block;
}

void launch_thin_kernel(const float* a, const float* b, float* out, const ProductSizes& sizes,
                        FastVariant variant, int splits, cudaStream_t stream) {
  const int chunks_per_split = ceil_div(ceil_div(sizes.inner, kThinChunk), splits);
  const dim3 grid(static_cast<unsigned>(thin_blocks(sizes, variant)), 1, splits);
  if (variant == FastVariant::thin_rows) {
    thin_rows_kernel<<<grid, kThinChunk, 0, stream>>>(a, b, out, sizes.rows, sizes.inner,
                                                      sizes.cols, chunks_per_split);
    CUDA_CHECK_LAUNCH(thin_rows_kernel);
  } else {
    thin_cols_kernel<<<grid, 32 * kThinColsWarps, 0, stream>>>(a, b, out, sizes.rows, sizes.inner,
                                                               sizes.cols, chunks_per_split);
    CUDA_CHECK_LAUNCH(thin_cols_kernel);
  }
}

/// Runs @p run into C directly (one split) or into a workspace of `splits` slices of rows×cols
/// floats followed by the reduction into C. The workspace comes from the stream-ordered pool
/// and is freed in stream order, after the reduction that reads it.
template <typename Run>
void with_split_k(float* c, const ProductSizes& sizes, int splits, cudaStream_t stream,
                  const Run& run) {
  if (splits == 1) {
    run(c);
    return;
  }
  if (splits > 65535) {
    throw std::invalid_argument("fast kernel: at most 65535 splits (gridDim.z), got " +
                                std::to_string(splits));
  }
  course::keep_pool_memory();  // the split-K workspace comes from the stream-ordered pool
  const std::size_t bytes = static_cast<std::size_t>(splits) * sizes.rows * sizes.cols * 4;
  float* workspace = nullptr;
  // Allocate first and ask how much memory is free only when that fails: the query
  // (cudaMemGetInfo) is a call into the driver on every split product, and it showed in their
  // times (the lesson's "Choosing the tile and the split" quotes the two runs).
  const cudaError_t allocated =
      cudaMallocAsync(reinterpret_cast<void**>(&workspace), bytes, stream);
  if (allocated == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // the failed allocation is reported below, not by the next check
    const std::string what = "the split-K workspace (" + std::to_string(splits) +
                             " partial products of " + sizes.text() + ")";
    course::require_device_memory(bytes, what);  // throws, naming the bytes needed and free
    throw course::DeviceMemoryError("not enough device memory for " + what + ": " +
                                    std::to_string(bytes) +
                                    " bytes could not be allocated in one piece");
  }
  CUDA_CHECK(allocated);
  run(workspace);
  launch_reduce(workspace, c, sizes, splits, stream);
  CUDA_CHECK(cudaFreeAsync(workspace, stream));
}

/// The thin paths (thin_products.cuh), split as @p splits says.
void launch_thin(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 FastVariant variant, int splits, cudaStream_t stream) {
  const bool thin_ok =
      variant == FastVariant::thin_rows ? sizes.rows <= kThinMax : sizes.cols <= kThinMax;
  if (!thin_ok) {
    throw std::invalid_argument("fast kernel: the " + fast_variant_name(variant) +
                                " path needs at most " + std::to_string(kThinMax) + " " +
                                (variant == FastVariant::thin_rows ? "rows" : "columns") +
                                " of C, got " + sizes.text());
  }
  splits = effective_splits(sizes.inner, kThinChunk, splits);
  with_split_k(c, sizes, splits, stream,
               [&](float* out) { launch_thin_kernel(a, b, out, sizes, variant, splits, stream); });
}

/// The tiled kernel in configuration @p config (splits: see with_split_k).
template <typename Tiling, Staging STAGING = Staging::registers>
void launch_tiled(const float* a, const float* b, float* c, const ProductSizes& sizes,
                  const FastConfig& config, cudaStream_t stream) {
  validate_grid_rows(sizes, Tiling::kBlockRows, "fast kernel");
  const int splits = effective_splits(sizes.inner, Tiling::kDepth, config.splits);
  const int group_rows = std::max(1, config.group_rows);
  with_split_k(c, sizes, splits, stream, [&](float* out) {
    launch_aligned<Tiling, STAGING>(a, b, out, sizes, splits, group_rows, stream);
  });
}

FastConfig resolve(const ProductSizes& sizes, FastConfig config) {
  if (config.tile == FastVariant::automatic && thin_variant(sizes) != FastVariant::automatic) {
    config.tile = thin_variant(sizes);
  }
  if (config.tile == FastVariant::thin_rows || config.tile == FastVariant::thin_cols) {
    if (config.splits <= 0) {
      config.splits = thin_splits(sizes, read_device_facts(), thin_warps(sizes, config.tile));
    }
    return config;
  }
  const int group_rows = config.group_rows;
  if (config.tile == FastVariant::automatic) {
    config = choose_fast_config(sizes, read_device_facts(), automatic_tiles());
  } else if (config.splits <= 0) {
    // A fixed tile with the split chosen for it alone.
    config = choose_fast_config(sizes, read_device_facts(), {tile_facts(config.tile)});
  }
  config.group_rows = group_rows;
  if (config.group_rows <= 0) {
    const TileFacts& tile = tile_facts(config.tile);
    const long long wave = static_cast<long long>(read_device_facts().multiprocessors) *
                           tile.blocks_per_multiprocessor;
    config.group_rows = choose_group_rows(ceil_div(sizes.rows, tile.block_rows),
                                          ceil_div(sizes.cols, tile.block_cols), wave);
  }
  return config;
}

}  // namespace

const DeviceFacts& current_device_facts() {
  return read_device_facts();
}

const std::vector<TileFacts>& fast_tile_facts() {
  return automatic_tiles();
}

FastConfig chosen_fast_config(const ProductSizes& sizes, FastConfig config) {
  return resolve(validate_shape(sizes.rows, sizes.inner, sizes.cols), config);
}

void launch_fast(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 cudaStream_t stream, FastConfig config) {
  if (a == nullptr || b == nullptr || c == nullptr) {
    throw std::invalid_argument("fast kernel: A, B and C must be device pointers, not null");
  }
  const ProductSizes checked = validate_shape(sizes.rows, sizes.inner, sizes.cols);
  config = resolve(checked, config);
  switch (config.tile) {
    case FastVariant::bm128_bn128_bk16:
      return launch_tiled<Tile128x128x16>(a, b, c, checked, config, stream);
    case FastVariant::bm128_bn64_bk8:
      return launch_tiled<Tile128x64x8>(a, b, c, checked, config, stream);
    case FastVariant::bm64_bn128_bk8:
      return launch_tiled<Tile64x128x8>(a, b, c, checked, config, stream);
    case FastVariant::bm64_bn64_bk8:
      return launch_tiled<Tile64x64x8>(a, b, c, checked, config, stream);
    case FastVariant::bm32_bn128_bk8:
      return launch_tiled<Tile32x128x8>(a, b, c, checked, config, stream);
    case FastVariant::bm128_bn128_bk16_async:
      return launch_tiled<Tile128x128x16, Staging::async_copies>(a, b, c, checked, config, stream);
    case FastVariant::bm64_bn128_bk16_async:
      return launch_tiled<Tile64x128x16, Staging::async_copies>(a, b, c, checked, config, stream);
    case FastVariant::thin_rows:
    case FastVariant::thin_cols:
      return launch_thin(a, b, c, checked, config.tile, config.splits, stream);
    case FastVariant::bm128_bn128_bk8:
    case FastVariant::automatic:  // resolved above; listed for -Wswitch
      return launch_tiled<Tile128x128x8>(a, b, c, checked, config, stream);
  }
}

void launch_fast(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 cudaStream_t stream, FastVariant variant) {
  launch_fast(a, b, c, sizes, stream, FastConfig{variant, 0});
}

}  // namespace course::step4
