/// @file padded.cuh
/// @brief The notes' "simple" solution: pad M, N and P with zeros up to multiples of the
/// tile width and run the unchecked step-3 kernel, which then never leaves its matrices.
///
/// What it costs: three extra device arrays (the padded copies), two 2-D copies in and
/// one out per product, and the arithmetic on the zero padding. The benchmark measures
/// all of it against the boundary checks of tiled_checked.cuh.
#pragma once

#include "common/matrix.hpp"
#include "step4_boundary_checks/problem_shape.hpp"

#include <cstddef>

namespace step4 {

/// @brief Device buffers for the padded copies, kept between calls so that repeated
/// products of one shape allocate and zero them only once.
class PaddedWorkspace {
 public:
  /// @brief The tile width the sizes are padded to (that of the unchecked kernel it runs).
  static constexpr int kTile = 32;

  /// @brief P = M·N through padded copies.
  ///
  /// Copies M and N into the zero-padded buffers (cudaMemcpy2D), runs the unchecked
  /// kernel on the padded sizes, and copies the I×K corner of the padded P out. The
  /// padding is zeroed whenever the shape changes; the copies never touch it afterwards.
  /// Throws std::invalid_argument when a padded matrix would exceed kMaxElements, and
  /// DeviceMemoryError when the padded copies do not fit on the device.
  /// @param m_matrix M, I×J, device memory
  /// @param n_matrix N, J×K, device memory
  /// @param p_matrix P, I×K, device memory (written)
  /// @param shape the validated sizes
  void multiply(const float* m_matrix, const float* n_matrix, float* p_matrix,
                const ProblemShape& shape);

  /// @brief Device memory the padded copies of @p shape take, in bytes.
  /// @param shape the problem
  /// @return bytes of the three padded arrays
  static std::size_t padded_bytes(const ProblemShape& shape);

  /// @brief The padded sizes of @p shape (each rounded up to kTile).
  /// @param shape the problem
  /// @return the padded shape (validated against the element limits)
  static ProblemShape padded_shape(const ProblemShape& shape);

 private:
  void prepare(const ProblemShape& padded);

  course::DeviceBuffer<float> m_padded_;
  course::DeviceBuffer<float> n_padded_;
  course::DeviceBuffer<float> p_padded_;
  ProblemShape zeroed_for_{};  // padded shape whose padding is currently zero
};

}  // namespace step4
