/// @file step3_launchers.hpp
/// @brief Step 3's host interface: the launcher of the shared-memory tiled kernel and the
/// check of its precondition.
///
/// This interface is stable: an instructor may swap in a student's tiled_shared.cuh and the
/// program, benchmark and tests keep working. All pointers are device pointers to row-major
/// matrices: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

namespace course::step3 {

/// @brief Side of the tiles staged in shared memory (and of each block): 32×32 = 1024
/// threads, 2 × 4 KiB of shared memory per block.
constexpr int kTileWidth = 32;

/// @brief Throws std::invalid_argument unless every size is a positive multiple of
/// kTileWidth (the kernel's precondition: it checks no boundary), the matrices have fewer
/// than 2^31 elements and the grid fits (at most 65535 block rows). The message points to
/// step 4, whose kernel handles any size.
/// @param sizes rows, inner and cols of the product
void check_tiled_shared_sizes(const ProductSizes& sizes);

/// @brief Approach 4: c = a·b with 32×32 tiles of a and b staged in shared memory.
///
/// Checks the sizes first (check_tiled_shared_sizes): sizes that are not multiples of 32 are
/// refused, never computed wrongly. The launch is asynchronous and checked.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols
/// @param sizes rows, inner and cols of the product, each a multiple of 32
/// @param stream stream to launch on (default stream when nullptr)
void launch_tiled_shared(const float* a, const float* b, float* c, const ProductSizes& sizes,
                         cudaStream_t stream = nullptr);

}  // namespace course::step3
