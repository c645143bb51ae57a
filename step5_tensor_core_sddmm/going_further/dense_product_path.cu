/// @file dense_product_path.cu
/// @brief DenseProductPath: cublasGemmEx (fp16 A and Bᵀ, fp32 product and sums) strip by
/// strip, and the gather of each strip's entries.
///
/// Step 5, going further: the dense path's GEMM and gather.
/// Read first: dense_product_path.hpp.
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"

#include "common/cuda_check.hpp"
#include "common/launch_math.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace course::step5 {
namespace {

/// output[e] = product(row_e - first_row, col_e - first_col) for the entries e in
/// [begin, end), times S's value e unless @p values is null. Preconditions: those entries lie
/// in the product's rows and columns.
__global__ void gather_product_kernel(const float* __restrict__ product, int product_ld,
                                      int first_row, int first_col, const int* __restrict__ row_of,
                                      const int* __restrict__ col_of,
                                      const float* __restrict__ values, std::int64_t begin,
                                      std::int64_t end, float* __restrict__ output) {
  const std::int64_t entry =
      begin + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= end) {
    return;  // the last block's threads past the range's end
  }
  const std::int64_t row = row_of[entry] - first_row;
  const float sampled = product[row * product_ld + (col_of[entry] - first_col)];
  output[entry] = values == nullptr ? sampled : sampled * values[entry];
}

/// Launches gather_product_kernel for the entries [begin, end) of @p pattern.
void gather_range(const float* product, const DenseStrip& strip, const DevicePattern& pattern,
                  float* output, cudaStream_t stream) {
  if (strip.end <= strip.begin) {
    return;  // no entry (an empty S): nothing to launch
  }
  const float* values = pattern.unit_values() ? nullptr : pattern.values();
  gather_product_kernel<<<blocks_for(strip.end - strip.begin, kThreadsPerBlock), kThreadsPerBlock,
                          0, stream>>>(product, strip.cols, strip.first_row, strip.first_col,
                                       pattern.row_indices(), pattern.col_indices(), values,
                                       strip.begin, strip.end, output);
  CUDA_CHECK_LAUNCH(gather_product_kernel);
}

/// The strip's rows and columns of A·B into @p product (strip.rows × strip.cols floats).
void strip_product_fp16(cublasHandle_t handle, const DenseOperands& operands,
                        const DenseStrip& strip, float* product) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Row-major C (rows×cols) is column-major Cᵀ = Bᵀ·Aᵀ: Bᵀ's bytes are a column-major
  // inner×cols matrix, used transposed; A's bytes a column-major inner×rows matrix, used as is.
  // A strip starts first_col rows into Bᵀ and first_row rows into A.
  const __half* b_rows =
      operands.b_transposed + static_cast<std::int64_t>(strip.first_col) * operands.ldb;
  const __half* a_rows = operands.a + static_cast<std::int64_t>(strip.first_row) * operands.lda;
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, strip.cols, strip.rows,
                            operands.inner, &alpha, b_rows, CUDA_R_16F, operands.ldb, a_rows,
                            CUDA_R_16F, operands.lda, &beta, product, CUDA_R_32F, strip.cols,
                            CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

}  // namespace

DenseProductPath::DenseProductPath(const DevicePattern& pattern, DenseStrips strips)
    : pattern_(pattern),
      strips_(std::move(strips)),
      product_(static_cast<std::size_t>(strips_.buffer_floats()),
               "the dense path's product of one strip", course::DeviceMemorySource::stream_pool) {
  CUBLAS_CHECK(cublasCreate(&handle_));
}

DenseProductPath::~DenseProductPath() {
  cublasDestroy(handle_);  // no check: destructors must not throw
}

void dense_product_fp16(cublasHandle_t handle, const DenseOperands& operands, float* product) {
  DenseStrip whole;
  whole.rows = operands.rows;
  whole.cols = operands.cols;
  strip_product_fp16(handle, operands, whole, product);
}

void gather_at_pattern(const float* product, int cols, const DevicePattern& pattern, float* output,
                       cudaStream_t stream) {
  DenseStrip whole;  // the whole product: one strip holding every entry
  whole.rows = pattern.rows();
  whole.cols = cols;
  whole.end = pattern.nnz();
  gather_range(product, whole, pattern, output, stream);
}

void DenseProductPath::run(const DenseOperands& operands, float* output,
                           cudaStream_t stream) const {
  if (operands.rows != pattern_.rows() || operands.cols != pattern_.cols()) {
    throw std::invalid_argument("the dense path was made for " + std::to_string(pattern_.rows()) +
                                " x " + std::to_string(pattern_.cols()) + ", got " +
                                std::to_string(operands.rows) + " x " +
                                std::to_string(operands.cols));
  }
  CUBLAS_CHECK(cublasSetStream(handle_, stream));
  for (const DenseStrip& strip : strips_.strips) {
    // Each strip's GEMM overwrites the buffer the previous strip's gather reads: both are on
    // the one stream, so the gather has finished first.
    strip_product_fp16(handle_, operands, strip, product_.data());
    gather_range(product_.data(), strip, pattern_, output, stream);
  }
}

}  // namespace course::step5
