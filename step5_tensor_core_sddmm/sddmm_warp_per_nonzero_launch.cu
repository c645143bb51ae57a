/// @file sddmm_warp_per_nonzero_launch.cu
/// @brief Approach 1's launch: 256 threads per block, one warp per nonzero.
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

// The kernel a student writes, named with its step folder so that COURSE_KERNELS can swap
// it (course_add_kernel_library in cmake/Course.cmake).
#include "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"

namespace course::step5 {

void launch_warp_per_nonzero(const DenseOperands& operands, const DevicePattern& pattern,
                             float* output, cudaStream_t stream) {
  constexpr int kWarpsPerBlock = kThreadsPerBlock / 32;
  const unsigned blocks = blocks_for(pattern.nnz(), kWarpsPerBlock);
  sddmm_warp_per_nonzero_kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(
      operands, pattern.nnz(), pattern.row_indices(), pattern.col_indices(), pattern.values(),
      output);
  CUDA_CHECK_LAUNCH(sddmm_warp_per_nonzero_kernel);
}

}  // namespace course::step5
