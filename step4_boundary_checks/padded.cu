/// @file padded.cu
/// @brief The padding approach: zero-padded copies and the unchecked tiled kernel.
#include "step4_boundary_checks/padded.cuh"

#include "common/cuda_check.hpp"
#include "step4_boundary_checks/tiled_unchecked.cuh"

#include <stdexcept>
#include <string>

namespace step4 {

ProblemShape PaddedWorkspace::padded_shape(const ProblemShape& shape) {
  try {
    return validate_shape(round_up(shape.rows, kTile), round_up(shape.inner, kTile),
                          round_up(shape.cols, kTile));
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument("padding " + shape.text() + " to multiples of " +
                                std::to_string(kTile) + ": " + error.what());
  }
}

std::size_t PaddedWorkspace::padded_bytes(const ProblemShape& shape) {
  const ProblemShape padded = padded_shape(shape);
  const std::size_t elements = static_cast<std::size_t>(padded.rows) * padded.inner +
                               static_cast<std::size_t>(padded.inner) * padded.cols +
                               static_cast<std::size_t>(padded.rows) * padded.cols;
  return elements * sizeof(float);
}

void PaddedWorkspace::prepare(const ProblemShape& padded) {
  const std::size_t m_count = static_cast<std::size_t>(padded.rows) * padded.inner;
  const std::size_t n_count = static_cast<std::size_t>(padded.inner) * padded.cols;
  const std::size_t p_count = static_cast<std::size_t>(padded.rows) * padded.cols;
  if (m_padded_.size() < m_count) {
    m_padded_ = course::DeviceBuffer<float>();  // free the old one before allocating
    m_padded_ = course::DeviceBuffer<float>(m_count, "the zero-padded copy of M");
  }
  if (n_padded_.size() < n_count) {
    n_padded_ = course::DeviceBuffer<float>();
    n_padded_ = course::DeviceBuffer<float>(n_count, "the zero-padded copy of N");
  }
  if (p_padded_.size() < p_count) {
    p_padded_ = course::DeviceBuffer<float>();
    p_padded_ = course::DeviceBuffer<float>(p_count, "the padded P");
  }
  const bool same = zeroed_for_.rows == padded.rows && zeroed_for_.inner == padded.inner &&
                    zeroed_for_.cols == padded.cols;
  if (!same) {
    // The 2-D copies write only the top-left corners, so the rest stays zero afterwards.
    CUDA_CHECK(cudaMemset(m_padded_.data(), 0, m_count * sizeof(float)));
    CUDA_CHECK(cudaMemset(n_padded_.data(), 0, n_count * sizeof(float)));
    zeroed_for_ = padded;
  }
}

void PaddedWorkspace::multiply(const float* m_matrix, const float* n_matrix, float* p_matrix,
                               const ProblemShape& shape) {
  const ProblemShape padded = padded_shape(shape);
  validate_grid_rows(padded, kTile, "padded tiling");
  prepare(padded);
  const std::size_t word = sizeof(float);
  CUDA_CHECK(cudaMemcpy2DAsync(m_padded_.data(), padded.inner * word, m_matrix, shape.inner * word,
                               shape.inner * word, shape.rows, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy2DAsync(n_padded_.data(), padded.cols * word, n_matrix, shape.cols * word,
                               shape.cols * word, shape.inner, cudaMemcpyDeviceToDevice));
  const dim3 block(kTile, kTile);
  const dim3 grid(padded.cols / kTile, padded.rows / kTile);  // exact: the sizes are padded
  tiled_unchecked_kernel<kTile><<<grid, block>>>(m_padded_.data(), n_padded_.data(),
                                                 p_padded_.data(), padded.inner, padded.cols);
  CUDA_CHECK_LAUNCH(tiled_unchecked_kernel);
  CUDA_CHECK(cudaMemcpy2DAsync(p_matrix, shape.cols * word, p_padded_.data(), padded.cols * word,
                               shape.cols * word, shape.rows, cudaMemcpyDeviceToDevice));
}

}  // namespace step4
