#include "common/cublas_gemm.hpp"

#include "common/cuda_check.hpp"

namespace course {

CublasSgemm::CublasSgemm() {
  CUBLAS_CHECK(cublasCreate(&handle_));
  // Default math: full fp32 SGEMM. TF32 Tensor Cores (CUBLAS_TF32_TENSOR_OP_MATH) would be
  // faster but round the inputs to 10 mantissa bits, which is not the product we compare.
  CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
}

CublasSgemm::~CublasSgemm() {
  cublasDestroy(handle_);  // no check: destructors must not throw
}

void CublasSgemm::multiply(const float* a, const float* b, float* c, int rows, int inner,
                           int cols) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Column-major view: c^T (cols×rows) = b^T (cols×inner) · a^T (inner×rows).
  CUBLAS_CHECK(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, cols, rows, inner, &alpha, b, cols,
                           a, inner, &beta, c, cols));
}

}  // namespace course
