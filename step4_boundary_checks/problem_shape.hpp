/// @file problem_shape.hpp
/// @brief The shape of step 4's product P = M·N and the limits every launcher enforces.
///
/// M is I×J, N is J×K and P is I×K, all row-major and contiguous (the leading dimension of
/// each matrix is its number of columns). The kernels index elements with 32-bit `int`, so
/// every matrix must hold at most INT_MAX elements; this file says so in one place and
/// refuses anything else with a message that names the limit.
#pragma once

#include <climits>
#include <string>

namespace step4 {

/// @brief Largest allowed value of one dimension (I, J or K): 2^30. Tile loops add up to a
/// tile width to an index, which must not overflow `int`.
constexpr long long kMaxDimension = 1LL << 30;

/// @brief Largest number of elements in one matrix: INT_MAX, because kernels compute the
/// linear index row * ld + col in `int`.
constexpr long long kMaxElements = INT_MAX;

/// @brief Largest gridDim.y (CUDA's limit); the launchers put block rows there.
constexpr long long kMaxGridRows = 65535;

/// @brief Sizes of P = M·N: M is rows×inner (I×J), N is inner×cols (J×K), P is rows×cols.
struct ProblemShape {
  int rows = 0;   ///< I: rows of M and of P
  int inner = 0;  ///< J: columns of M, rows of N (the length of each dot product)
  int cols = 0;   ///< K: columns of N and of P

  /// @brief Floating-point operations of the product (2·I·J·K).
  double flops() const { return 2.0 * rows * static_cast<double>(inner) * cols; }
  /// @brief "IxJxK", for messages and tables.
  std::string text() const;
};

/// @brief Checks I, J, K against the limits above and returns them as a ProblemShape.
///
/// Throws std::invalid_argument with a message naming the offending size and the limit
/// when a dimension is below 1 or above kMaxDimension, or when I·J, J·K or I·K exceeds
/// kMaxElements.
/// @param rows I
/// @param inner J
/// @param cols K
/// @return the validated shape
ProblemShape validate_shape(long long rows, long long inner, long long cols);

/// @brief Throws std::invalid_argument unless ceil(rows / tile_rows) <= kMaxGridRows.
/// @param shape the validated problem
/// @param tile_rows rows of P that one block computes
/// @param approach the kernel's name, for the message
void validate_grid_rows(const ProblemShape& shape, int tile_rows, const std::string& approach);

/// @brief Ceiling division for positive integers: the number of tiles covering @p extent.
/// @param extent length to cover (>= 0)
/// @param tile tile length (>= 1)
/// @return ceil(extent / tile)
constexpr int ceil_div(int extent, int tile) {
  return (extent + tile - 1) / tile;
}

/// @brief @p extent rounded up to a multiple of @p tile.
/// @param extent length (>= 0)
/// @param tile tile length (>= 1)
/// @return the padded length
constexpr long long round_up(long long extent, long long tile) {
  return (extent + tile - 1) / tile * tile;
}

}  // namespace step4
