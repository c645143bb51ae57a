/// @file step2_launchers.hpp
/// @brief Step 2's host interface: the launchers of the three approaches and their size
/// checks.
///
/// This interface is stable: an instructor may swap in a student's kernel files and the
/// program, benchmark and tests keep working. All pointers are device pointers to row-major
/// matrices: A is rows×inner, B is inner×cols, C is rows×cols. Each launcher checks the
/// sizes, launches asynchronously on @p stream and checks the launch.
#pragma once

#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace course::step2 {

/// @brief Side of approach 1's single block: 32×32 = 1024 threads, the note's block.
constexpr int kSingleBlockSide = 32;
/// @brief Threads per block of approach 2, all along one row of C.
constexpr int kStripWidth = 256;
/// @brief Side of approach 3's output tiles (and of its blocks).
constexpr int kOutputTileWidth = 32;

/// @brief A short description of approach @p number (1 to 3) for program output.
/// @param number the approach
/// @return e.g. "approach 2: one thread per output element, 1x256 strips over a 2-D grid"
std::string approach_description(int number);

/// @brief Throws std::invalid_argument unless approach @p number can multiply these sizes:
/// every size at least 1, every matrix below 2^31 elements (int indexing) and, for approach
/// 2, rows <= 65535 (one block row of the grid per row of C).
/// @param number the approach (1 to 3; anything else is refused)
/// @param sizes rows, inner and cols of the product
void check_approach_sizes(int number, const ProductSizes& sizes);

/// @brief Approach 1: c = a·b with a single block of 32×32 threads looping over c.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols
/// @param sizes rows, inner and cols of the product
/// @param stream stream to launch on (default stream when nullptr)
void launch_single_block_loop(const float* a, const float* b, float* c, const ProductSizes& sizes,
                              cudaStream_t stream = nullptr);

/// @brief Approach 2: c = a·b with one thread per element of c, 1×256 strips of c per block.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols
/// @param sizes rows (at most 65535), inner and cols of the product
/// @param stream stream to launch on (default stream when nullptr)
void launch_one_thread_per_element(const float* a, const float* b, float* c,
                                   const ProductSizes& sizes, cudaStream_t stream = nullptr);

/// @brief Approach 3: c = a·b with one 32×32 tile of c per block, no shared memory.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols
/// @param sizes rows, inner and cols of the product
/// @param stream stream to launch on (default stream when nullptr)
void launch_output_tiles_no_shared(const float* a, const float* b, float* c,
                                   const ProductSizes& sizes, cudaStream_t stream = nullptr);

/// @brief Launches approach @p number (1 to 3); throws std::invalid_argument for another.
/// @param number the approach
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols
/// @param sizes rows, inner and cols of the product
/// @param stream stream to launch on (default stream when nullptr)
void launch_approach(int number, const float* a, const float* b, float* c,
                     const ProductSizes& sizes, cudaStream_t stream = nullptr);

}  // namespace course::step2
