/// @file dense_operands.hpp
/// @brief The kernel-side type of step 5: A and Bᵀ on the device, passed by value to every
/// SDDMM kernel, and the host check that every launch runs on them first.
///
/// **Layout of B.** Every approach reads B as its transpose Bᵀ, a cols×inner row-major matrix:
/// the value needed for nonzero (i, j) is then the dot product of row i of A with row j of Bᵀ,
/// two contiguous runs of inner halves that vector loads read whole. (Seen from WMMA, Bᵀ
/// row-major is B column-major.) The cuSPARSE reference receives the same bytes as a
/// column-major inner×cols matrix.
#pragma once

#include "common/product_sizes.hpp"

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief The dense operands on the device.
///
/// Made from a course::ProductSizes (rows, inner, cols: the one order of the course), so that
/// sizes given in another order do not compile; the kernels read the fields.
struct DenseOperands {
  /// @brief Empty operands (every size 0, no matrix).
  DenseOperands() = default;
  /// @brief A and Bᵀ for the product of @p sizes.
  /// @param sizes rows, inner and cols
  /// @param a_matrix A, rows×inner row-major
  /// @param a_ld leading dimension of A
  /// @param b_transposed_matrix Bᵀ, cols×inner row-major
  /// @param b_transposed_ld leading dimension of Bᵀ
  DenseOperands(const ProductSizes& sizes, const __half* a_matrix, int a_ld,
                const __half* b_transposed_matrix, int b_transposed_ld)
      : rows(sizes.rows),
        cols(sizes.cols),
        inner(sizes.inner),
        a(a_matrix),
        lda(a_ld),
        b_transposed(b_transposed_matrix),
        ldb(b_transposed_ld) {}
  /// @brief rows, inner and cols as a ProductSizes.
  ProductSizes sizes() const { return {rows, inner, cols}; }

  int rows = 0;                          ///< rows: rows of A (and of S)
  int cols = 0;                          ///< cols: columns of B (and of S)
  int inner = 0;                         ///< inner: columns of A, rows of B
  const __half* a = nullptr;             ///< A, rows×inner row-major, leading dimension lda
  int lda = 0;                           ///< leading dimension of A (>= inner)
  const __half* b_transposed = nullptr;  ///< Bᵀ, cols×inner row-major, leading dimension ldb
  int ldb = 0;                           ///< leading dimension of Bᵀ (>= inner)
};

/// @brief Checks shapes and leading dimensions; throws std::invalid_argument naming the
/// first problem (negative size, ld < inner, null pointer with a non-empty matrix).
/// Implemented in step5_launchers.cu.
/// @param operands the operands to check
void check_operands(const DenseOperands& operands);

}  // namespace course::step5
