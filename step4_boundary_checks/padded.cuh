/// @file padded.cuh
/// @brief Padding, the course's measured alternative to the boundary checks: pad A, B and C
/// with zeros up to multiples of the tile width and run the unchecked step-3 kernel, which
/// then never leaves its matrices.
///
/// The note's "simple" solution is not this but zero-fill on load (tiled_checked.cuh): an
/// out-of-range thread writes 0 into the shared-memory tile, so the inner loop needs no test.
///
/// What it costs: three extra device arrays (the padded copies), two 2-D copies in and
/// one out per product, and the arithmetic on the zero padding. The benchmark measures
/// all of it against the boundary checks of tiled_checked.cuh.
#pragma once

#include "common/matrix.hpp"
#include "step4_boundary_checks/problem_shape.hpp"

#include <cstddef>

namespace course::step4 {

/// @brief Device buffers for the padded copies, kept between calls so that repeated
/// products of the same sizes allocate and zero them only once.
class PaddedWorkspace {
 public:
  /// @brief The tile width the sizes are padded to (that of the unchecked kernel it runs).
  static constexpr int kTileWidth = 32;

  /// @brief C = A·B through padded copies.
  ///
  /// Copies A and B into the zero-padded buffers (cudaMemcpy2D), runs the unchecked
  /// kernel on the padded sizes, and copies the rows×cols corner of the padded C out. The
  /// padding is zeroed whenever the sizes change; the copies never touch it afterwards.
  /// Throws std::invalid_argument when a padded matrix would exceed kMaxElements, and
  /// DeviceMemoryError when the padded copies do not fit on the device.
  /// @param a A, rows×inner, device memory
  /// @param b B, inner×cols, device memory
  /// @param c C, rows×cols, device memory (written)
  /// @param sizes the validated sizes
  /// @param stream stream for the copies and the launch
  void multiply(const float* a, const float* b, float* c, const ProductSizes& sizes,
                cudaStream_t stream);

  /// @brief Device memory the padded copies of @p sizes take, in bytes.
  /// @param sizes the product's sizes
  /// @return bytes of the three padded arrays
  static std::size_t padded_bytes(const ProductSizes& sizes);

  /// @brief The padded sizes of @p sizes (each rounded up to kTileWidth).
  /// @param sizes the product's sizes
  /// @return the padded sizes (validated against the element limits)
  static ProductSizes padded_sizes(const ProductSizes& sizes);

 private:
  void prepare(const ProductSizes& padded, cudaStream_t stream);

  course::DeviceBuffer<float> a_padded_;
  course::DeviceBuffer<float> b_padded_;
  course::DeviceBuffer<float> c_padded_;
  ProductSizes zeroed_for_{};  // padded sizes whose padding is currently zero
};

}  // namespace course::step4
