/// @file product_sizes.hpp
/// @brief The sizes of a matrix product, named as the glossary names them: C = A·B with A
/// rows×inner, B inner×cols and C rows×cols (docs/glossary.md).
#pragma once

#include <string>

namespace course {

/// @brief Sizes of the product C = A·B: A is rows×inner, B is inner×cols, C is rows×cols.
///
/// Step 5 uses the same names for SDDMM: the mask S and the output C are rows×cols, A is
/// rows×inner and B is inner×cols (stored transposed, cols×inner).
struct ProductSizes {
  int rows = 0;   ///< rows of A and of C
  int inner = 0;  ///< columns of A and rows of B: the length of each dot product
  int cols = 0;   ///< columns of B and of C

  /// @brief Floating-point operations of the dense product (2·rows·inner·cols).
  double flops() const { return 2.0 * rows * static_cast<double>(inner) * cols; }
  /// @brief "rows x inner x cols", for messages and tables.
  std::string text() const {
    return std::to_string(rows) + "x" + std::to_string(inner) + "x" + std::to_string(cols);
  }
};

}  // namespace course
