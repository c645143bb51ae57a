/// @file step2_launchers.cu
/// @brief Launch configurations of step 2's three approaches.

#include "step2_three_approaches/step2_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/launch_math.hpp"
#include "step2_three_approaches/one_thread_per_element.cuh"
#include "step2_three_approaches/output_tiles_no_shared.cuh"
#include "step2_three_approaches/single_block_loop.cuh"

#include <sstream>
#include <stdexcept>

namespace course::step2 {
std::string approach_description(int number) {
  switch (number) {
    case 1:
      return "approach 1: one block of 1024 threads, each looping over several outputs";
    case 2:
      return "approach 2: one thread per output element, 1x" + std::to_string(kStripWidth) +
             " strips of C over a 2-D grid of blocks";
    case 3:
      return "approach 3: " + std::to_string(kOutputTileWidth) + "x" +
             std::to_string(kOutputTileWidth) +
             " output tiles per block, no shared memory (hardware caches only)";
    default:
      throw std::invalid_argument("step 2 has approaches 1, 2 and 3, not " +
                                  std::to_string(number));
  }
}

void check_approach_sizes(int number, const ProductSizes& sizes) {
  approach_description(number);  // refuses an unknown approach
  const int rows = sizes.rows;
  const int inner = sizes.inner;
  const int cols = sizes.cols;
  std::ostringstream message;
  if (rows < 1 || inner < 1 || cols < 1) {
    message << "sizes must be at least 1, got A " << rows << "x" << inner << " times B " << inner
            << "x" << cols;
  } else if (!fits_int_indexing(rows, inner) || !fits_int_indexing(inner, cols) ||
             !fits_int_indexing(rows, cols)) {
    message << "each matrix must have fewer than 2^31 elements (the kernels index with int), "
            << "got A " << rows << "x" << inner << " times B " << inner << "x" << cols;
  } else if (number == 2 && rows > kMaxGridY) {
    message << "approach 2 launches one block row per row of C and a grid has at most " << kMaxGridY
            << " block rows, got " << rows << " rows; use approach 3";
  } else if (number == 3 && ceil_div<long long>(rows, kOutputTileWidth) > kMaxGridY) {
    message << "approach 3 launches one block row per " << kOutputTileWidth
            << " rows of C and a grid has at most " << kMaxGridY << " block rows, got " << rows
            << " rows";
  } else {
    return;
  }
  throw std::invalid_argument(message.str());
}

void launch_single_block_loop(const float* a, const float* b, float* c, const ProductSizes& sizes,
                              cudaStream_t stream) {
  check_approach_sizes(1, sizes);
  const dim3 block(kSingleBlockSide, kSingleBlockSide);
  const dim3 grid(1, 1);  // the point of approach 1: a single block, whatever the size
  single_block_loop_kernel<kSingleBlockSide>
      <<<grid, block, 0, stream>>>(a, b, c, sizes.rows, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(single_block_loop_kernel);
}

void launch_one_thread_per_element(const float* a, const float* b, float* c,
                                   const ProductSizes& sizes, cudaStream_t stream) {
  check_approach_sizes(2, sizes);
  const dim3 block(kStripWidth, 1);
  // In 64 bits: cols may be up to 2^31 - 1 (one row), where cols + kStripWidth - 1 overflows int.
  const dim3 grid(static_cast<unsigned>(ceil_div<long long>(sizes.cols, kStripWidth)), sizes.rows);
  one_thread_per_element_kernel<kStripWidth>
      <<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(one_thread_per_element_kernel);
}

void launch_output_tiles_no_shared(const float* a, const float* b, float* c,
                                   const ProductSizes& sizes, cudaStream_t stream) {
  check_approach_sizes(3, sizes);
  const dim3 block(kOutputTileWidth, kOutputTileWidth);
  const dim3 grid(static_cast<unsigned>(ceil_div<long long>(sizes.cols, kOutputTileWidth)),
                  static_cast<unsigned>(ceil_div<long long>(sizes.rows, kOutputTileWidth)));
  output_tiles_no_shared_kernel<kOutputTileWidth>
      <<<grid, block, 0, stream>>>(a, b, c, sizes.rows, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(output_tiles_no_shared_kernel);
}

void launch_approach(int number, const float* a, const float* b, float* c,
                     const ProductSizes& sizes, cudaStream_t stream) {
  switch (number) {
    case 1:
      launch_single_block_loop(a, b, c, sizes, stream);
      return;
    case 2:
      launch_one_thread_per_element(a, b, c, sizes, stream);
      return;
    case 3:
      launch_output_tiles_no_shared(a, b, c, sizes, stream);
      return;
    default:
      approach_description(number);  // throws: names the approaches that exist
  }
}

}  // namespace course::step2
