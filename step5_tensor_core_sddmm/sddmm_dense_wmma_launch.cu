/// @file sddmm_dense_wmma_launch.cu
/// @brief Approach 2's launches: the dense product with one of the built block shapes (the
/// note's experiment of 32×32 against 128×4 threads), then one thread per nonzero samples it.
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/sddmm_dense_wmma.cuh"

#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

template <int kWarpsX, int kWarpsY>
void launch_dense_shape(const DenseOperands& operands, float* dense, int ld_dense,
                        cudaStream_t stream) {
  const dim3 block(32 * kWarpsX, kWarpsY);
  const dim3 grid =
      warp_tile_grid(course::ceil_div(operands.rows, kTile), course::ceil_div(operands.cols, kTile),
                     kWarpsX, kWarpsY, "approach 2");
  sddmm_dense_wmma_kernel<kWarpsX, kWarpsY><<<grid, block, 0, stream>>>(
      operands, dense, ld_dense, allows_vector_loads(operands.a, operands.lda),
      allows_vector_loads(operands.b_transposed, operands.ldb));
  CUDA_CHECK_LAUNCH(sddmm_dense_wmma_kernel);
}

void launch_dense(const Options& options, const DenseOperands& operands, float* dense, int ld_dense,
                  cudaStream_t stream) {
  const int x = options.dense_warps_x;
  const int y = options.dense_warps_y;
  if (x == 4 && y == 4) {
    launch_dense_shape<4, 4>(operands, dense, ld_dense, stream);
  } else if (x == 1 && y == 32) {
    launch_dense_shape<1, 32>(operands, dense, ld_dense, stream);
  } else if (x == 2 && y == 8) {
    launch_dense_shape<2, 8>(operands, dense, ld_dense, stream);
  } else if (x == 8 && y == 2) {
    launch_dense_shape<8, 2>(operands, dense, ld_dense, stream);
  } else if (x == 4 && y == 1) {
    launch_dense_shape<4, 1>(operands, dense, ld_dense, stream);
  } else {
    throw std::invalid_argument("approach 2 block of " + std::to_string(x) + "x" +
                                std::to_string(y) +
                                " warps is not built; choose 4x4 (128x4 threads), 1x32 "
                                "(32x32), 2x8, 8x2 or 4x1");
  }
}

}  // namespace

void launch_dense_wmma(const Options& options, const DenseOperands& operands,
                       const DevicePattern& pattern, float* dense, int ld_dense, float* output,
                       cudaStream_t stream) {
  launch_dense(options, operands, dense, ld_dense, stream);
  sample_dense_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock, 0, stream>>>(
      dense, ld_dense, pattern.nnz(), pattern.row_indices(), pattern.col_indices(),
      pattern.values(), output);
  CUDA_CHECK_LAUNCH(sample_dense_kernel);
}

}  // namespace course::step5
