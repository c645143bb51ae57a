/// @file cublas_gemm.hpp
/// @brief cuBLAS SGEMM on row-major matrices: the reference the benchmarks measure against.
#pragma once

#include <cublas_v2.h>

namespace course {

/// @brief Owns a cuBLAS handle set to plain fp32 math (TF32 off) and multiplies row-major
/// matrices with it.
///
/// cuBLAS is column-major. A row-major rows×cols matrix is the same bytes as a column-major
/// cols×rows matrix (its transpose), so C = A·B row-major is computed as Cᵀ = Bᵀ·Aᵀ
/// column-major: swap the operands and the outer dimensions, transpose nothing.
class CublasSgemm {
 public:
  /// @brief Creates the handle (throws course::CudaError on failure).
  CublasSgemm();
  ~CublasSgemm();
  CublasSgemm(const CublasSgemm&) = delete;
  CublasSgemm& operator=(const CublasSgemm&) = delete;

  /// @brief c = a·b for contiguous row-major device matrices.
  /// @param a left factor, rows×inner, device memory
  /// @param b right factor, inner×cols, device memory
  /// @param c result, rows×cols, device memory
  /// @param rows rows of a and c
  /// @param inner columns of a, rows of b
  /// @param cols columns of b and c
  void multiply(const float* a, const float* b, float* c, int rows, int inner, int cols);

  /// @brief The underlying handle, for other cuBLAS calls.
  cublasHandle_t handle() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace course
