// Step 5, every launcher (lesson "Files"): the grid arithmetic the launch files share.
// Read first: step5_launchers.hpp (the interface these launchers implement).
/// @file launch_config.hpp
/// @brief Grid sizes by ceiling division, and the block size of step 5's one-thread-per-item
/// kernels.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace course::step5 {

/// @brief Threads per block of the one-thread-per-item kernels (checks, conversions, sampling).
constexpr int kThreadsPerBlock = 256;

/// @brief Blocks of @p per_block threads (or items) that cover @p threads: ceil-division, at
/// least one; throws std::invalid_argument beyond the grid limit of INT_MAX blocks.
/// @param threads threads (or items) to cover
/// @param per_block threads (or items) per block
/// @return the number of blocks
inline unsigned blocks_for(std::int64_t threads, int per_block) {
  const std::int64_t blocks = (threads + per_block - 1) / per_block;
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
inline std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// @brief @p bytes rounded up to 256, the alignment of each array inside one allocation.
/// @param bytes size of the array
/// @return the bytes it occupies
inline std::size_t align_bytes(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}

}  // namespace course::step5
