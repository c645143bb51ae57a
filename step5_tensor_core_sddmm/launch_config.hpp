/// @file launch_config.hpp
/// @brief What step 5's launchers share beyond common/launch_math.hpp (ceil_div, blocks_for,
/// round_up and the grid limits, defined there once): the block size of the
/// one-thread-per-item kernels, the grid of one tile per warp, the depth of a WMMA step and
/// the alignment of arrays in one allocation.
#pragma once

#include "common/launch_math.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace course::step5 {

/// @brief Threads per block of the one-thread-per-item kernels (checks, conversions, sampling).
constexpr int kThreadsPerBlock = 256;

/// @brief The grid of a kernel that gives each warp one output tile, with blocks of
/// @p warps_x × @p warps_y warps: ceil_div of the tile counts by the warps. Throws
/// std::invalid_argument naming @p what when its y size passes course::kMaxGridY.
/// @param tile_rows output tiles along the rows
/// @param tile_cols output tiles along the columns
/// @param warps_x warps per block along the tile columns
/// @param warps_y warps per block along the tile rows
/// @param what the launch, for the message (e.g. "approach 2")
/// @return the grid
inline dim3 warp_tile_grid(int tile_rows, int tile_cols, int warps_x, int warps_y,
                           const std::string& what) {
  const dim3 grid(course::ceil_div(tile_cols, warps_x), course::ceil_div(tile_rows, warps_y));
  if (grid.y > static_cast<unsigned>(course::kMaxGridY)) {
    throw std::invalid_argument(what + " needs " + std::to_string(grid.y) +
                                " blocks along the rows, more than the limit " +
                                std::to_string(course::kMaxGridY));
  }
  return grid;
}

/// @brief Depth of one WMMA step (the 16×16×16 fragments of every Tensor Core kernel here).
constexpr int kWmmaDepth = 16;

/// @brief @p size rounded up to whole WMMA steps: the depth the Tensor Core kernels multiply
/// over (zeros past @p size), and the padded extent the cost model counts.
/// @param size the inner size (or a row or column count)
/// @return the rounded size
__host__ __device__ constexpr int wmma_padded(int size) {
  return (size + kWmmaDepth - 1) / kWmmaDepth * kWmmaDepth;
}

/// @brief @p bytes rounded up to 256, the alignment of each array inside one allocation.
/// @param bytes size of the array
/// @return the bytes it occupies
inline std::size_t align_bytes(std::size_t bytes) {
  return course::ceil_div(bytes, std::size_t{256}) * 256;
}

}  // namespace course::step5
