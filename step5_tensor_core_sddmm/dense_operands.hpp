// Step 5, every kernel (lesson "Reading path"): the dense operands as the kernels take them.
// Read first: step5_launchers.hpp (the interface that hands them to the launches).
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

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief The dense operands on the device.
struct DenseOperands {
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
