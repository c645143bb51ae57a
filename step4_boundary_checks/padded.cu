/// @file padded.cu
/// @brief The padding approach: zero-padded copies and the unchecked tiled kernel.
#include "step4_boundary_checks/padded.cuh"

#include "common/cuda_check.hpp"
#include "step4_boundary_checks/tiled_unchecked.cuh"

#include <stdexcept>
#include <string>

namespace course::step4 {

ProductSizes PaddedWorkspace::padded_sizes(const ProductSizes& sizes) {
  try {
    return validate_shape(round_up(sizes.rows, kTileWidth), round_up(sizes.inner, kTileWidth),
                          round_up(sizes.cols, kTileWidth));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("padding " + sizes.text() + " to multiples of " +
                                std::to_string(kTileWidth) + ": " + error.what());
  }
}

std::size_t PaddedWorkspace::padded_bytes(const ProductSizes& sizes) {
  const ProductSizes padded = padded_sizes(sizes);
  const std::size_t elements = static_cast<std::size_t>(padded.rows) * padded.inner +
                               static_cast<std::size_t>(padded.inner) * padded.cols +
                               static_cast<std::size_t>(padded.rows) * padded.cols;
  return elements * sizeof(float);
}

void PaddedWorkspace::prepare(const ProductSizes& padded, cudaStream_t stream) {
  const std::size_t a_count = static_cast<std::size_t>(padded.rows) * padded.inner;
  const std::size_t b_count = static_cast<std::size_t>(padded.inner) * padded.cols;
  const std::size_t c_count = static_cast<std::size_t>(padded.rows) * padded.cols;
  if (a_padded_.size() < a_count) {
    a_padded_ = course::DeviceBuffer<float>();  // free the old one before allocating
    a_padded_ = course::DeviceBuffer<float>(a_count, "the zero-padded copy of A");
  }
  if (b_padded_.size() < b_count) {
    b_padded_ = course::DeviceBuffer<float>();
    b_padded_ = course::DeviceBuffer<float>(b_count, "the zero-padded copy of B");
  }
  if (c_padded_.size() < c_count) {
    c_padded_ = course::DeviceBuffer<float>();
    c_padded_ = course::DeviceBuffer<float>(c_count, "the padded C");
  }
  const bool same = zeroed_for_.rows == padded.rows && zeroed_for_.inner == padded.inner &&
                    zeroed_for_.cols == padded.cols;
  if (!same) {
    // The 2-D copies write only the top-left corners, so the rest stays zero afterwards.
    CUDA_CHECK(cudaMemsetAsync(a_padded_.data(), 0, a_count * sizeof(float), stream));
    CUDA_CHECK(cudaMemsetAsync(b_padded_.data(), 0, b_count * sizeof(float), stream));
    zeroed_for_ = padded;
  }
}

void PaddedWorkspace::multiply(const float* a, const float* b, float* c, const ProductSizes& sizes,
                               cudaStream_t stream) {
  const ProductSizes padded = padded_sizes(sizes);
  validate_grid_rows(padded, kTileWidth, "padded tiling");
  prepare(padded, stream);
  const std::size_t word = sizeof(float);
  CUDA_CHECK(cudaMemcpy2DAsync(a_padded_.data(), padded.inner * word, a, sizes.inner * word,
                               sizes.inner * word, sizes.rows, cudaMemcpyDeviceToDevice, stream));
  CUDA_CHECK(cudaMemcpy2DAsync(b_padded_.data(), padded.cols * word, b, sizes.cols * word,
                               sizes.cols * word, sizes.inner, cudaMemcpyDeviceToDevice, stream));
  const dim3 block(kTileWidth, kTileWidth);
  const dim3 grid(padded.cols / kTileWidth,
                  padded.rows / kTileWidth);  // exact: the sizes are padded
  tiled_unchecked_kernel<kTileWidth><<<grid, block, 0, stream>>>(
      a_padded_.data(), b_padded_.data(), c_padded_.data(), padded.inner, padded.cols);
  CUDA_CHECK_LAUNCH(tiled_unchecked_kernel);
  CUDA_CHECK(cudaMemcpy2DAsync(c, sizes.cols * word, c_padded_.data(), padded.cols * word,
                               sizes.cols * word, sizes.rows, cudaMemcpyDeviceToDevice, stream));
}

}  // namespace course::step4
