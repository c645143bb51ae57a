/// @file launch_math.hpp
/// @brief The arithmetic of launch configurations that every step shares: ceiling division,
/// rounding up, a checked one-dimensional grid and CUDA's grid limits, defined once here.
///
/// Host launchers compute their grids with ceil_div() and compare them with the limits
/// below before launching, so that a size over a limit is refused with a message instead of
/// failing inside the CUDA runtime. The functions are `constexpr` and callable from device
/// code too.
#pragma once

#include <climits>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

/// @brief Marks a function callable from host and device code when nvcc compiles it (and
/// expands to nothing for a host compiler).
#if defined(__CUDACC__)
#define COURSE_HOST_DEVICE __host__ __device__
#else
/// @brief Marks a function callable from host and device code (empty for a host compiler).
#define COURSE_HOST_DEVICE
#endif

namespace course {

/// @brief Largest gridDim.y CUDA accepts (gridDim.x may go to 2^31 - 1).
constexpr int kMaxGridY = 65535;

/// @brief Largest gridDim.z CUDA accepts.
constexpr int kMaxGridZ = 65535;

/// @brief Ceiling division for non-negative counts: how many parts of @p per_part cover
/// @p count (the number of blocks or tiles a grid needs).
/// @tparam Int an integer type (both arguments have it, so a mix of int and long long is
/// a compile error rather than a silent narrowing)
/// @param count length to cover (>= 0)
/// @param per_part length of one part (>= 1)
/// @return ceil(count / per_part)
template <typename Int>
COURSE_HOST_DEVICE constexpr Int ceil_div(Int count, Int per_part) {
  return (count + per_part - 1) / per_part;
}

/// @brief Whether a matrix of @p rows x @p cols elements can be indexed with `int` (the
/// lessons' kernels index with `int`): at most 2^31 - 1 elements. Host launchers check each
/// operand and the product with it before launching.
/// @param rows the matrix's rows (>= 0)
/// @param cols the matrix's columns (>= 0)
constexpr bool fits_int_indexing(int rows, int cols) {
  return static_cast<long long>(rows) * cols <= std::numeric_limits<int>::max();
}

/// @brief Blocks of @p per_block threads (or items) that cover @p threads: ceil-division, at
/// least one; throws std::invalid_argument beyond the grid limit of INT_MAX blocks.
/// @param threads threads (or items) to cover
/// @param per_block threads (or items) per block
/// @return the number of blocks
inline unsigned blocks_for(std::int64_t threads, int per_block) {
  const std::int64_t blocks = ceil_div(threads, static_cast<std::int64_t>(per_block));
  if (blocks > INT_MAX) {
    throw std::invalid_argument("launch needs " + std::to_string(blocks) +
                                " blocks, more than the grid limit of " + std::to_string(INT_MAX));
  }
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

/// @brief @p value rounded up to a multiple of @p multiple.
/// @param value the value
/// @param multiple the multiple (> 0)
/// @return the rounded value
constexpr std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return ceil_div(value, multiple) * multiple;
}

}  // namespace course
