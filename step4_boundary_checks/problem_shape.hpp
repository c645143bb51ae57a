/// @file problem_shape.hpp
/// @brief The sizes of step 4's product C = A·B and the limits every launcher enforces.
///
/// A is rows×inner, B is inner×cols and C is rows×cols, all row-major and contiguous (the leading
/// dimension of each matrix is its number of columns). The kernels index elements with 32-bit
/// `int`, so every matrix must hold at most INT_MAX elements; this file says so in one place and
/// refuses anything else with a message that names the limit.
#pragma once

#include "common/launch_math.hpp"
#include "common/product_sizes.hpp"

#include <climits>
#include <string>

namespace course::step4 {

/// @brief Largest allowed value of one dimension (rows, inner or cols): 2^30. Tile loops add up to
/// a tile width to an index, which must not overflow `int`.
constexpr long long kMaxDimension = 1LL << 30;

/// @brief Largest number of elements in one matrix: INT_MAX, because kernels compute the
/// linear index row * ld + col in `int`.
constexpr long long kMaxElements = INT_MAX;

/// @brief Checks rows, inner and cols against the limits above and returns them as
/// course::ProductSizes (common/product_sizes.hpp).
///
/// Throws std::invalid_argument with a message naming the offending size and the limit
/// when a dimension is below 1 or above kMaxDimension, or when rows·inner, inner·cols or rows·cols
/// exceeds kMaxElements.
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @return the validated sizes
ProductSizes validate_shape(long long rows, long long inner, long long cols);

/// @brief Throws std::invalid_argument unless ceil(rows / tile_rows) <= course::kMaxGridY (the
/// launchers put block rows in gridDim.y; common/launch_math.hpp).
/// @param sizes the validated sizes
/// @param tile_rows rows of C that one block computes
/// @param approach the kernel's name, for the message
void validate_grid_rows(const ProductSizes& sizes, int tile_rows, const std::string& approach);

}  // namespace course::step4
