/// @file wide_tile_launch.hpp
/// @brief The wide-tile kernels (wide_tile_gemm.cuh) as the fast kernel's launcher sees them:
/// their facts for the choice and one launch of one split-K pass. fast_gemm_launch.cu adds the
/// split-K workspace and the reduction around it.
#pragma once

#include "step4_boundary_checks/fast_gemm_config.hpp"
#include "step4_boundary_checks/problem_shape.hpp"

#include <cuda_runtime_api.h>

namespace course::step4 {

/// @brief The facts of wide tile @p variant on the current device: its sizes, threads and
/// resident blocks per SM (occupancy query with its dynamic shared memory).
/// @param variant a wide tile (wide_tile_gemm.cuh)
/// @param efficiency fraction of the FMA peak it reaches with float4 loads (measured)
/// @param ragged_efficiency the same with scalar loads (measured)
TileFacts describe_wide_tile(FastVariant variant, double efficiency, double ragged_efficiency);

/// @brief Runs wide tile @p variant once: C, or with @p splits > 1 the split-K workspace.
/// @param variant a wide tile (wide_tile_gemm.cuh)
/// @param a A, rows×inner
/// @param b B, inner×cols
/// @param out C (one split) or the workspace (@p splits slices of rows×cols)
/// @param sizes the product's sizes (validated)
/// @param splits splits that run (effective_splits of the tile's depth)
/// @param group_rows tile-rows per group of the block order
/// @param stream the stream
void launch_wide_tile(FastVariant variant, const float* a, const float* b, float* out,
                      const ProductSizes& sizes, int splits, int group_rows, cudaStream_t stream);

}  // namespace course::step4
