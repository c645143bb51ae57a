/// @file step1_launchers.hpp
/// @brief Step 1's host interface: the one-block size limit and the launcher of the naive
/// kernel.
///
/// This interface is stable: an instructor may swap in a student's naive_single_block.cuh and
/// the program and tests keep working. All pointers are device pointers to row-major
/// matrices: A is rows×inner, B is inner×cols, C is rows×cols.
#pragma once

#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

namespace course::step1 {

/// @brief The most threads one block may hold (every CUDA GPU since compute capability 2.0).
constexpr int kMaxThreadsPerBlock = 1024;

/// @brief Largest side of a matrix step 1 accepts: a 32×32 result needs 32·32 = 1024
/// threads, one full block.
constexpr int kMaxSide = 32;

static_assert(kMaxSide * kMaxSide <= kMaxThreadsPerBlock,
              "one thread per output element of a kMaxSide×kMaxSide result must fit a block");

/// @brief Throws std::invalid_argument unless every size is in [1, kMaxSide].
///
/// The message explains the one-block limit (one thread per output element, at most 1024
/// threads per block) and points to step 2 for larger matrices.
/// @param sizes rows, inner and cols of the product
void check_naive_single_block_sizes(const ProductSizes& sizes);

/// @brief c = a·b with one block of cols×rows threads, one per element of c.
///
/// Checks the sizes first (check_naive_single_block_sizes), then launches
/// naive_single_block_kernel and checks the launch. The launch is asynchronous.
/// @param a left factor, rows×inner, device memory
/// @param b right factor, inner×cols, device memory
/// @param c result, rows×cols, device memory
/// @param sizes rows, inner and cols of the product, each 1..32
/// @param stream stream to launch on (default stream when nullptr)
void launch_naive_single_block(const float* a, const float* b, float* c, const ProductSizes& sizes,
                               cudaStream_t stream = nullptr);

}  // namespace course::step1
