/// @file step4_launchers.hpp
/// @brief Host launchers of step 4's kernels, each `launch_<technique>(a, b, c, sizes, stream)`.
///
/// Every launcher validates the sizes (validate_shape: each >= 1, every matrix within the
/// int index limit, the grid within CUDA's limits), chooses the launch configuration with
/// ceiling division and checks the launch. Launches are asynchronous: the next checked
/// synchronising call (a copy back, a timer) reports errors raised while the kernel ran.
/// All matrices are row-major and contiguous: A is rows×inner, B is inner×cols, C is rows×cols.
///
/// This is the lesson's interface: approaches 1 to 3 and the unchecked kernel they are measured
/// against. The fast kernel of "going further" has its own launcher
/// (going_further/fast_gemm_launch.hpp).
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace course::step4 {

class PaddedWorkspace;

/// @brief The tile widths launch_tiled_checked accepts.
constexpr int kCheckedTiles[] = {2, 16, 32};

/// @brief C = A·B with square tiles and the three boundary checks.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols (checked first: validate_shape, validate_grid_rows)
/// @param stream stream to launch on (default stream when nullptr)
/// @param tile tile width: 2 (the note's example), 16 or 32 (default)
void launch_tiled_checked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                          cudaStream_t stream = nullptr, int tile = 32);

/// @brief C = A·B with the UNCHECKED step-3 kernel; refuses any size that is not a multiple
/// of @p tile (std::invalid_argument), since that kernel would then read and write
/// outside the matrices.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols (each a multiple of @p tile)
/// @param stream stream to launch on (default stream when nullptr)
/// @param tile tile width: 2 or 32
void launch_tiled_unchecked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                            cudaStream_t stream = nullptr, int tile = 32);

/// @brief For the bug demonstration only: runs the unchecked kernel with tile width 2 on
/// ANY size, as the note's 3×3 example does. It reads A and B and writes C outside their
/// rows×inner, inner×cols and rows×cols elements (up to the next multiples of 2): the caller
/// must either give allocations that large, or run it under compute-sanitizer to see the
/// violations.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written, and written past its end)
/// @param sizes rows, inner, cols (any)
/// @param stream stream to launch on (default stream when nullptr)
void launch_unchecked_tile2_demo(const float* a, const float* b, float* c,
                                 const ProductSizes& sizes, cudaStream_t stream = nullptr);

/// @brief C = A·B through zero-padded copies and the unchecked kernel (allocates a
/// workspace for this one call; see PaddedWorkspace to reuse one).
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols
/// @param stream stream to copy and launch on (default stream when nullptr)
void launch_padded(const float* a, const float* b, float* c, const ProductSizes& sizes,
                   cudaStream_t stream = nullptr);

/// @brief C = A·B through zero-padded copies held in @p workspace.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols
/// @param stream stream to copy and launch on (default stream when nullptr)
/// @param workspace padded buffers, reused between calls
void launch_padded(const float* a, const float* b, float* c, const ProductSizes& sizes,
                   cudaStream_t stream, PaddedWorkspace& workspace);

/// @brief C = A·B with 64×16 by 16×64 rectangular tiles, each thread computing 4×4 outputs.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols
/// @param stream stream to launch on (default stream when nullptr)
void launch_rect_tiles(const float* a, const float* b, float* c, const ProductSizes& sizes,
                       cudaStream_t stream = nullptr);

}  // namespace course::step4
