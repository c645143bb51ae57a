/// @file fast_gemm_config.hpp
/// @brief What a launch configuration of the fast kernel is: which block tile (or thin path),
/// how many inner-dimension splits, which block order. Read fast_gemm.cuh first (the kernel this
/// configures); fast_gemm_cost_model.hpp chooses a configuration, fast_gemm_launch.cu applies it.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <string>

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

/// @brief Warps per block of thin_cols_kernel (one warp per row of C).
constexpr int kThinColsWarps = 8;

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

/// @brief The number of splits that actually run when @p splits are asked for: the inner
/// tiles are dealt out ceil(tiles / splits) at a time, so no split is ever left empty (a
/// split larger than the number of inner tiles becomes one split per tile).
/// @param inner columns of A, rows of B
/// @param depth BK
/// @param splits splits asked for (>= 1)
/// @return the splits that run, between 1 and ceil(inner / BK)
constexpr int effective_splits(int inner, int depth, int splits) {
  const int inner_tiles = ceil_div(inner, depth);
  const int tiles_per_split = ceil_div(inner_tiles, splits);
  return ceil_div(inner_tiles, tiles_per_split);
}

/// @brief The thin path for @p sizes, or FastVariant::automatic when neither side of C is
/// thin: cols <= kThinMax takes thin_cols (then rows is not looked at), else rows <= kThinMax
/// takes thin_rows. When both are thin, thin_cols wins: its lanes walk the inner dimension, so
/// every warp reads A and B contiguously, while thin_rows puts one thread on each column of C
/// and would leave all but cols threads of a block idle.
/// @param sizes the product's sizes
FastVariant thin_variant(const ProductSizes& sizes);

}  // namespace course::step4
