// Step 5, the benchmark (the lab): the baseline a user would write for a dense-ish mask.
// Read first: baselines.hpp.
/// @file dense_then_sample.cu
/// @brief Dense then sample: cuBLAS's fp16 Tensor Core GEMM of the whole rows×cols product, then a
/// gather at S's nonzeros.
#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/timing.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace course::step5::bench {
namespace {

/// Threads per block of the gather: one nonzero each, any multiple of 32 serves.
constexpr int kGatherThreads = 256;

/// Device memory left free beside the product: cuBLAS's work space and the allocator's slack.
constexpr std::size_t kMarginBytes = std::size_t{512} << 20;

/// output[e] = product[row_e, col_e] (· S's value e, unless @p values is null).
__global__ void gather_kernel(const float* product, int cols, const int* rows_of,
                              const int* cols_of, const float* values, std::int64_t nnz,
                              float* output) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {  // the last block's threads past the last nonzero
    return;
  }
  const float sampled = product[static_cast<std::int64_t>(rows_of[entry]) * cols + cols_of[entry]];
  output[entry] = values != nullptr ? sampled * values[entry] : sampled;
}

std::size_t product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * sizeof(float);
}

}  // namespace

std::string dense_then_sample_skip(int rows, int cols) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  course::device_memory(free_bytes, total_bytes);
  const std::size_t needed = product_bytes(rows, cols) + kMarginBytes;
  if (needed <= free_bytes) {
    return "";
  }
  return "skipped: the dense " + std::to_string(rows) + " x " + std::to_string(cols) +
         " float product needs " + course::format_bytes(product_bytes(rows, cols)) + " (plus " +
         course::format_bytes(kMarginBytes) + " margin), " + course::format_bytes(free_bytes) +
         " free";
}

BaselineRun time_dense_then_sample(const Settings& settings, cublasHandle_t handle,
                                   const course::step5::DevicePattern& pattern,
                                   const course::step5::DenseOperands& operands) {
  BaselineRun run;
  run.note = dense_then_sample_skip(operands.rows, operands.cols);
  if (!run.note.empty()) {
    return run;
  }
  run.note = "cuBLAS fp16 GEMM + gather";
  course::DeviceBuffer<float> product(
      static_cast<std::size_t>(operands.rows) * static_cast<std::size_t>(operands.cols),
      "the dense product (dense then sample)");
  course::DeviceBuffer<float> output(static_cast<std::size_t>(pattern.nnz()),
                                     "P (dense then sample)");
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const float* values = pattern.unit_values() ? nullptr : pattern.values();
  const auto blocks = static_cast<unsigned>(
      course::ceil_div(pattern.nnz(), static_cast<std::int64_t>(kGatherThreads)));
  const auto work = [&] {
    // Row-major C (rows×cols) is column-major Cᵀ (cols×rows) = Bᵀ·Aᵀ seen column-major: Bᵀ's bytes
    // (cols×inner row-major) are a column-major inner×cols matrix, used transposed; A's bytes
    // (rows×inner row-major) are a column-major inner×rows matrix, used as is.
    CUBLAS_CHECK(cublasGemmEx(
        handle, CUBLAS_OP_T, CUBLAS_OP_N, operands.cols, operands.rows, operands.inner, &alpha,
        operands.b_transposed, CUDA_R_16F, operands.ldb, operands.a, CUDA_R_16F, operands.lda,
        &beta, product.data(), CUDA_R_32F, operands.cols, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    if (blocks > 0) {
      gather_kernel<<<blocks, kGatherThreads>>>(product.data(), operands.cols,
                                                pattern.row_indices(), pattern.col_indices(),
                                                values, pattern.nnz(), output.data());
      CUDA_CHECK(cudaGetLastError());
    }
  };
  const course::TimingStats timing = course::time_gpu(work, 1, settings.repeats);
  run.ms = timing.median_ms;
  run.min_ms = timing.min_ms;
  run.result = output.to_vector();
  return run;
}

}  // namespace course::step5::bench
