/// @file fast_gemm_launch.cu
/// @brief Launcher of the fast kernel: resolves the configuration (the choice of
/// fast_gemm_cost_model.cpp on the current device's description, course::describe_current_gpu),
/// and runs fast_gemm.cuh or async_copy_gemm.cuh plus, when split, split_k_reduce.cuh; or a thin
/// path of thin_products.cuh. Read fast_gemm.cuh and fast_gemm_cost_model.hpp first.
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "step4_boundary_checks/going_further/async_copy_gemm.cuh"
#include "step4_boundary_checks/going_further/fast_gemm.cuh"
#include "step4_boundary_checks/going_further/split_k_reduce.cuh"
#include "step4_boundary_checks/going_further/thin_products.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
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

/// A tile type with its staging, as a value: what with_tile() hands to its visitor.
template <typename TILING, Staging STAGING>
struct CompiledTile {
  using Tiling = TILING;                        ///< the FastTiling
  static constexpr Staging kStaging = STAGING;  ///< how its tiles reach shared memory
};

/// Calls @p visit with the CompiledTile of @p variant (a tiled variant, not thin or automatic).
template <typename Visit>
constexpr decltype(auto) with_tile(FastVariant variant, const Visit& visit) {
  switch (variant) {
    case FastVariant::bm128_bn128_bk8:
      return visit(CompiledTile<Tile128x128x8, Staging::registers>{});
    case FastVariant::bm128_bn128_bk16:
      return visit(CompiledTile<Tile128x128x16, Staging::registers>{});
    case FastVariant::bm128_bn64_bk8:
      return visit(CompiledTile<Tile128x64x8, Staging::registers>{});
    case FastVariant::bm64_bn128_bk8:
      return visit(CompiledTile<Tile64x128x8, Staging::registers>{});
    case FastVariant::bm64_bn64_bk8:
      return visit(CompiledTile<Tile64x64x8, Staging::registers>{});
    case FastVariant::bm32_bn128_bk8:
      return visit(CompiledTile<Tile32x128x8, Staging::registers>{});
    case FastVariant::bm128_bn128_bk16_async:
      return visit(CompiledTile<Tile128x128x16, Staging::async_copies>{});
    case FastVariant::bm64_bn128_bk16_async:
      return visit(CompiledTile<Tile64x128x16, Staging::async_copies>{});
    case FastVariant::automatic:
    case FastVariant::thin_rows:
    case FastVariant::thin_cols:
      break;
  }
  throw std::logic_error("fast kernel: " + fast_variant_name(variant) + " is not a compiled tile");
}

/// Whether the catalogue entry @p tile describes @p Tile (calibrated_constants.hpp holds the
/// shapes as plain numbers, for host code that cannot include the kernels).
template <typename Tile>
constexpr bool describes(const TileCalibration& tile) {
  using Tiling = typename Tile::Tiling;
  return tile.block_rows == Tiling::kBlockRows && tile.block_cols == Tiling::kBlockCols &&
         tile.depth == Tiling::kDepth && tile.threads == Tiling::kThreads &&
         tile.async_copies == (Tile::kStaging == Staging::async_copies);
}

/// Every catalogue entry describes the kernel that with_tile() launches for it.
constexpr bool catalogue_matches_kernels() {
  bool all = true;
  for (const TileCalibration& tile : kTileCalibrations) {
    all = all &&
          with_tile(tile.tile, [&](auto compiled) { return describes<decltype(compiled)>(tile); });
  }
  return all;
}

static_assert(catalogue_matches_kernels(),
              "calibrated_constants.hpp must describe the tiles this launcher compiles");

/// The TileFacts of catalogue entry @p tile as compiled and loaded on the current device: its
/// occupancy from the runtime, after checking that its static shared memory is the catalogue's.
TileFacts compiled_facts(const TileCalibration& tile) {
  return with_tile(tile.tile, [&](auto compiled) {
    using Tiling = typename decltype(compiled)::Tiling;
    const auto kernel = kernel_for<Tiling, decltype(compiled)::kStaging, true, true>();
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    if (static_cast<int>(attributes.sharedSizeBytes) != tile_shared_bytes(tile)) {
      throw std::logic_error("fast kernel: tile " + fast_variant_name(tile.tile) + " has " +
                             std::to_string(attributes.sharedSizeBytes) +
                             " bytes of shared memory, calibrated_constants.hpp says " +
                             std::to_string(tile_shared_bytes(tile)));
    }
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, Tiling::kThreads, 0));
    TileFacts facts = tile_facts_from(tile, blocks);
    facts.registers_per_thread = attributes.numRegs;  // what the loaded code really uses
    return facts;
  });
}

/// Every tile as compiled, in the catalogue's order (those with asynchronous copies included).
const std::vector<TileFacts>& compiled_tiles() {
  static const std::vector<TileFacts> tiles = [] {
    std::vector<TileFacts> all;
    for (const TileCalibration& tile : kTileCalibrations) {
      all.push_back(compiled_facts(tile));
    }
    return all;
  }();
  return tiles;
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
  if (splits > kMaxGridZ) {
    throw std::invalid_argument("fast kernel: at most " + std::to_string(kMaxGridZ) +
                                " splits (gridDim.z), got " + std::to_string(splits));
  }
  course::keep_pool_memory();  // the split-K workspace comes from the stream-ordered pool
  const std::size_t bytes = static_cast<std::size_t>(splits) * sizes.rows * sizes.cols * 4;
  float* workspace = nullptr;
  // Allocate first and ask how much memory is free only when that fails: the query
  // (cudaMemGetInfo) is a call into the driver on every split product, and it showed in their
  // times (lab/NOTEBOOK.md, "Split-K's costs", quotes the two runs).
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

/// The tiles the automatic choice takes from: every compiled tile, those with asynchronous
/// copies only where they run with cp.async, and none that does not fit the device.
const std::vector<TileFacts>& automatic_tiles() {
  static const std::vector<TileFacts> tiles = [] {
    std::vector<TileFacts> usable;
    const std::vector<TileFacts>& compiled = compiled_tiles();  // in the catalogue's order
    for (std::size_t index = 0; index < compiled.size(); ++index) {
      const bool async = kTileCalibrations[index].async_copies;
      if (compiled[index].blocks_per_multiprocessor > 0 && (!async || async_copies_available())) {
        usable.push_back(compiled[index]);
      }
    }
    return usable;
  }();
  return tiles;
}

/// @p config with every automatic part chosen for @p sizes on the current device. A thin path
/// with its splits given needs nothing from the device (so its checks come before any CUDA
/// call), a thin path reads only the device's description, a tile also the compiled tiles.
FastConfig resolve(const ProductSizes& sizes, const FastConfig& config) {
  const bool thin_given =
      config.tile == FastVariant::thin_rows || config.tile == FastVariant::thin_cols;
  if (thin_given && config.splits > 0) {
    return config;
  }
  const bool thin = thin_given || (config.tile == FastVariant::automatic &&
                                   thin_variant(sizes) != FastVariant::automatic);
  static const std::vector<TileFacts> no_tiles;
  return resolve_fast_config(sizes, config, describe_current_gpu(),
                             thin ? no_tiles : automatic_tiles(),
                             thin ? no_tiles : compiled_tiles());
}

}  // namespace

bool async_copies_available() {
  static const bool available = [] {
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(
        &attributes, kernel_for<Tile128x128x16, Staging::async_copies, true, true>()));
    // binaryVersion: the machine code the driver loaded (e.g. 90); ptxVersion: the virtual
    // architecture it was compiled from, whose __CUDA_ARCH__ decided COURSE_ASYNC_COPIES.
    const int compiled_for = std::min(attributes.binaryVersion, attributes.ptxVersion);
    return has_async_copies(describe_current_gpu()) && compiled_for >= 80;
  }();
  return available;
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
  if (config.tile == FastVariant::thin_rows || config.tile == FastVariant::thin_cols) {
    launch_thin(a, b, c, checked, config.tile, config.splits, stream);
    return;
  }
  with_tile(config.tile, [&](auto compiled) {
    using Tile = decltype(compiled);
    launch_tiled<typename Tile::Tiling, Tile::kStaging>(a, b, c, checked, config, stream);
  });
}

void launch_fast(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 cudaStream_t stream, FastVariant variant) {
  launch_fast(a, b, c, sizes, stream, FastConfig{variant, 0});
}

}  // namespace course::step4
