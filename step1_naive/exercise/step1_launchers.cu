/// @file step1_launchers.cu
/// @brief Launch configuration of step 1's naive kernel.

#include "step1_naive/step1_launchers.hpp"

#include "common/cuda_check.hpp"
#include "step1_naive/naive_single_block.cuh"

#include <sstream>
#include <stdexcept>

namespace course::step1 {

void check_naive_single_block_sizes(const ProductSizes& sizes) {
  const auto in_range = [](int size) { return size >= 1 && size <= kMaxSide; };
  if (in_range(sizes.rows) && in_range(sizes.inner) && in_range(sizes.cols)) {
    return;
  }
  std::ostringstream message;
  message << "step 1 multiplies matrices of at least 1x1 and at most " << kMaxSide << "x"
          << kMaxSide << ", got A " << sizes.rows << "x" << sizes.inner << " times B "
          << sizes.inner << "x" << sizes.cols
          << ". Step 1 runs a single block with one thread per output element, and a "
          << "block holds at most " << kMaxThreadsPerBlock << " threads (" << kMaxSide << "x"
          << kMaxSide << " outputs). Larger products need many blocks or threads that compute "
          << "several outputs: use step 2 (step2_three_approaches).";
  throw std::invalid_argument(message.str());
}

void launch_naive_single_block(const float* a, const float* b, float* c, const ProductSizes& sizes,
                               cudaStream_t stream) {
  check_naive_single_block_sizes(sizes);
  // BEGIN EXERCISE launch_configuration
  // TODO(step 1): choose the block. naive_single_block_kernel makes thread (threadIdx.y,
  // threadIdx.x) of the one block compute C(threadIdx.y, threadIdx.x) and checks no bounds,
  // so the block must hold exactly one thread per element of C: no fewer (an element nobody
  // writes), no more (a thread writing outside C). check_naive_single_block_sizes above has
  // made sure that the sizes fit one block. The 1x1 block below writes C(0, 0) alone.
  // Checked by the same tests as the kernel (scripts/try_exercise.sh step1).
  const dim3 block(1, 1);
  // END EXERCISE launch_configuration
  const dim3 grid(1, 1);
  naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(naive_single_block_kernel);
}

}  // namespace course::step1
