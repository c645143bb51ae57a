/// @file fast_gemm_config.hpp
/// @brief The fast kernel's launch configuration: which block tile and how many inner-dimension
/// splits, chosen on the host from the product's sizes and what the device reports.
/// Read fast_gemm.cuh first (the kernel this configures); fast_gemm_launch.cu applies it.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <string>
#include <vector>

namespace course::step4 {

/// @brief Block-tile shapes of the fast kernel (block rows × block columns × depth).
enum class FastVariant {
  automatic,               ///< chosen from the shape (see choose_fast_config)
  bm128_bn128_bk8,         ///< 128×128 block tile, depth 8, 256 threads
  bm128_bn128_bk16,        ///< 128×128 block tile, depth 16, 256 threads
  bm128_bn64_bk8,          ///< 128×64 block tile, depth 8, 128 threads
  bm64_bn128_bk8,          ///< 64×128 block tile, depth 8, 128 threads
  bm64_bn64_bk8,           ///< 64×64 block tile, depth 8, 64 threads
  bm32_bn128_bk8,          ///< 32×128 block tile, depth 8, 64 threads (C with few rows)
  bm128_bn128_bk16_async,  ///< 128×128, depth 16, asynchronous copies (async_copy_gemm.cuh)
  bm64_bn128_bk16_async,   ///< 64×128, depth 16, asynchronous copies (async_copy_gemm.cuh)
  thin_rows,  ///< C has at most kThinMax rows: one thread per column (thin_products.cuh)
  thin_cols,  ///< C has at most kThinMax columns: one warp per row (thin_products.cuh)
};

/// @brief At most this many rows (thin_rows) or columns (thin_cols) of C take the thin path:
/// below it, even a 64×64 tile would spend most of its multiply-adds on zeros.
constexpr int kThinMax = 8;

/// @brief The inner-dimension chunk a thin block handles at a time; thin splits are whole
/// chunks (thin_rows also puts this many columns of C in a block, one thread each). 128 rather
/// than 256: a vector-like product such as 1×4096×4096 then splits into 32 pieces, not 16, so
/// twice as many warps walk B at once.
constexpr int kThinChunk = 128;

/// @brief Name of a tile shape ("128x128x8", ...).
/// @param variant the tile shape
std::string fast_variant_name(FastVariant variant);

/// @brief A launch configuration of the fast kernel.
struct FastConfig {
  FastVariant tile = FastVariant::automatic;  ///< block tile (automatic: choose)
  int splits = 0;      ///< blocks sharing the inner dimension of one output tile (0: choose)
  int group_rows = 0;  ///< tile-rows per group of the block order (0: choose; 1: plain)
};

/// @brief "128x64x8, split 12" or "128x128x16".
/// @param config a configuration whose tile and splits are both chosen
std::string fast_config_name(const FastConfig& config);

/// @brief What the launcher reads off the device for the choice.
struct DeviceFacts {
  int multiprocessors = 1;         ///< SMs
  double flops_per_second = 1e12;  ///< fp32 FMA peak: 2 · lanes per SM · clock · SMs
  double bytes_per_second = 1e12;  ///< memory bandwidth: 2 · memory clock · bus width
};

/// @brief One block-tile shape as compiled, with its occupancy on this device.
struct TileFacts {
  FastVariant tile = FastVariant::automatic;  ///< which shape
  int block_rows = 0;                         ///< BM
  int block_cols = 0;                         ///< BN
  int depth = 0;                              ///< BK
  int threads = 0;                            ///< threads per block
  int blocks_per_multiprocessor = 0;          ///< resident blocks per SM (occupancy query)
  double efficiency = 1.0;  ///< fraction of the FMA peak an SM reaches with this tile
  /// ... when inner or cols is not a multiple of 4 (scalar loads of A or of B, no float4)
  double ragged_efficiency = 1.0;
};

/// @brief Estimated time in seconds of the fast kernel with @p tile and @p splits on @p sizes
/// (the model choose_fast_config minimises; documented in fast_gemm_config.cpp).
/// @param sizes the product's sizes
/// @param device the device's figures
/// @param tile one tile shape
/// @param splits inner-dimension splits (>= 1, at most the number of inner tiles)
double estimate_fast_seconds(const ProductSizes& sizes, const DeviceFacts& device,
                             const TileFacts& tile, int splits);

/// @brief The split counts worth trying for @p tile on @p sizes: 1, then the counts that fill
/// whole waves, up to the number of inner tiles (each split keeps at least kMinSplitDepth of
/// inner).
/// @param sizes the product's sizes
/// @param device the device's figures
/// @param tile one tile shape
std::vector<int> candidate_splits(const ProductSizes& sizes, const DeviceFacts& device,
                                  const TileFacts& tile);

/// @brief The configuration with the smallest estimate_fast_seconds over @p tiles and their
/// candidate_splits. Ties go to fewer splits, then to the earlier tile in @p tiles.
/// @param sizes the product's sizes
/// @param device the device's figures
/// @param tiles the compiled tile shapes (at least one)
FastConfig choose_fast_config(const ProductSizes& sizes, const DeviceFacts& device,
                              const std::vector<TileFacts>& tiles);

/// @brief The number of splits that actually run when @p splits are asked for: the inner
/// tiles are dealt out ceil(tiles / splits) at a time, so no split is ever left empty (a
/// split larger than the number of inner tiles becomes one split per tile).
/// @param inner columns of A, rows of B
/// @param depth BK
/// @param splits splits asked for (>= 1)
/// @return the splits that run, between 1 and ceil(inner / BK)
constexpr int effective_splits(int inner, int depth, int splits) {
  const int inner_tiles = (inner + depth - 1) / depth;
  const int tiles_per_split = (inner_tiles + splits - 1) / splits;
  return (inner_tiles + tiles_per_split - 1) / tiles_per_split;
}

/// @brief The thin path for @p sizes, or FastVariant::automatic when neither side of C is
/// thin: cols <= kThinMax takes thin_cols (then rows is not looked at), else rows <= kThinMax
/// takes thin_rows. When both are thin, thin_cols wins: its lanes walk the inner dimension, so
/// every warp reads A and B contiguously, while thin_rows puts one thread on each column of C
/// and would leave all but cols threads of a block idle.
/// @param sizes the product's sizes
FastVariant thin_variant(const ProductSizes& sizes);

/// @brief Splits for a thin path that launches @p warps warps without a split: enough for
/// 32 warps per SM (the latency of the loads from memory hidden), each split keeping at least
/// one chunk of kThinChunk.
/// @param sizes the product's sizes
/// @param device the device's figures
/// @param warps warps of one split (blocks × warps per block)
int thin_splits(const ProductSizes& sizes, const DeviceFacts& device, long long warps);

/// @brief Tile-rows per group of the block order: 1 (plain) while one wave of blocks covers
/// at most a few tile-rows anyway, else 8, so that a wave's blocks read 8 row panels of A and
/// (wave / 8) column panels of B instead of a few row panels and all of B.
/// @param tile_rows ceil(rows / BM)
/// @param tile_cols ceil(cols / BN)
/// @param wave_blocks blocks resident at once (SMs · blocks per SM)
int choose_group_rows(int tile_rows, int tile_cols, long long wave_blocks);

/// @brief Least inner-dimension length one split covers (64, eight tiles of depth 8: shorter
/// splits spend more of their time filling their pipeline and writing a partial product than
/// multiplying).
constexpr int kMinSplitDepth = 64;

/// @brief Largest split-K workspace (splits · rows · cols floats) the choice may ask for: 256 MiB.
constexpr double kMaxWorkspaceBytes = 256.0 * 1024 * 1024;

}  // namespace course::step4
