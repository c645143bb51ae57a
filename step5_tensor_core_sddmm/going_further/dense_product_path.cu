/// @file dense_product_path.cu
/// @brief DenseProductPath: cublasGemmEx (fp16 A and Bᵀ, fp32 product and sums) and the
/// gather of S's entries, by tiles through the dense panels' tables or one thread per entry.
///
/// Step 5, going further: the dense path's GEMM and gather.
/// Read first: dense_product_path.hpp.
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"

#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_gather.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {
namespace {

/// output[e] = product(row_e, col_e), times S's value e unless @p values is null.
__global__ void gather_product_kernel(const float* __restrict__ product, int cols,
                                      const int* __restrict__ row_of,
                                      const int* __restrict__ col_of,
                                      const float* __restrict__ values, std::int64_t nnz,
                                      float* __restrict__ output) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  const float sampled = product[static_cast<std::int64_t>(row_of[entry]) * cols + col_of[entry]];
  output[entry] = values == nullptr ? sampled : sampled * values[entry];
}

/// The gather's tables: every panel with entries is a dense panel over the columns it spans.
/// None (the gather by entries) where 64 rows of the product are not int-indexable or the
/// tables are not (choose_dense_panels then returns no panel).
DensePanelTables gather_tables(const DevicePattern& pattern, const PanelStatistics& statistics) {
  if (static_cast<std::int64_t>(kTileMaskRows) * pattern.cols() > INT_MAX) {
    return {};  // dense_gather_tiles_kernel's rows are int offsets
  }
  HybridOptions every_panel;
  every_panel.tc_min_nnz = 0;
  const std::vector<char> selected(statistics.nnz.size(), 1);
  const DensePanelChoice choice =
      choose_dense_panels(pattern, statistics.spans, statistics.nnz, every_panel, &selected);
  if (choice.dense_nnz != pattern.nnz()) {
    return {};
  }
  // upload_dense_panels writes the staging that an earlier upload of this plan may still be
  // reading on the device.
  CUDA_CHECK(cudaDeviceSynchronize());
  return upload_dense_panels(choice, pattern);
}

}  // namespace

DenseProductPath::DenseProductPath(const DevicePattern& pattern, const PanelStatistics& statistics)
    : product_(static_cast<std::size_t>(pattern.rows()) * static_cast<std::size_t>(pattern.cols()),
               "the dense path's rows x cols product", course::DeviceMemorySource::stream_pool),
      tables_(gather_tables(pattern, statistics)),
      rows_(pattern.rows()),
      cols_(pattern.cols()),
      nnz_(pattern.nnz()) {
  CUBLAS_CHECK(cublasCreate(&handle_));
}

DenseProductPath::~DenseProductPath() {
  cublasDestroy(handle_);  // no check: destructors must not throw
}

void dense_product_fp16(cublasHandle_t handle, const DenseOperands& operands, float* product) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Row-major C (rows×cols) is column-major Cᵀ = Bᵀ·Aᵀ: Bᵀ's bytes are a column-major
  // inner×cols matrix, used transposed; A's bytes a column-major inner×rows matrix, used as is.
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, operands.cols, operands.rows,
                            operands.inner, &alpha, operands.b_transposed, CUDA_R_16F, operands.ldb,
                            operands.a, CUDA_R_16F, operands.lda, &beta, product, CUDA_R_32F,
                            operands.cols, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void gather_at_pattern(const float* product, int cols, const DevicePattern& pattern, float* output,
                       cudaStream_t stream) {
  const float* values = pattern.unit_values() ? nullptr : pattern.values();
  gather_product_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock, 0,
                          stream>>>(product, cols, pattern.row_indices(), pattern.col_indices(),
                                    values, pattern.nnz(), output);
  CUDA_CHECK_LAUNCH(gather_product_kernel);
}

void DenseProductPath::run(const DenseOperands& operands, const DevicePattern& pattern,
                           float* output, cudaStream_t stream) const {
  if (operands.rows != rows_ || operands.cols != cols_ || pattern.nnz() != nnz_) {
    throw std::invalid_argument(
        "the dense path was made for " + std::to_string(rows_) + " x " + std::to_string(cols_) +
        " with " + std::to_string(nnz_) + " entries, got " + std::to_string(operands.rows) + " x " +
        std::to_string(operands.cols) + " with " + std::to_string(pattern.nnz()));
  }
  CUBLAS_CHECK(cublasSetStream(handle_, stream));
  dense_product_fp16(handle_, operands, product_.data());
  if (!gathers_by_tiles()) {
    gather_at_pattern(product_.data(), cols_, pattern, output, stream);
    return;
  }
  const auto* tiles = tables_.storage.at<DenseTile>(tables_.tiles_offset);
  const int* tile_starts = tables_.storage.at<int>(tables_.tile_starts_offset);
  const auto* tile_masks = tables_.storage.at<unsigned long long>(tables_.tile_masks_offset);
  const auto blocks = static_cast<unsigned>(tables_.tile_count);
  constexpr int kThreads = 32 * kGatherWarps;
  if (pattern.unit_values()) {
    dense_gather_tiles_kernel<false>
        <<<blocks, kThreads, 0, stream>>>(product_.data(), cols_, tiles, tile_starts, tile_masks,
                                          pattern.col_indices(), nullptr, output);
    CUDA_CHECK_LAUNCH(dense_gather_tiles_kernel);
    return;
  }
  dense_gather_tiles_kernel<true>
      <<<blocks, kThreads, 0, stream>>>(product_.data(), cols_, tiles, tile_starts, tile_masks,
                                        pattern.col_indices(), pattern.values(), output);
  CUDA_CHECK_LAUNCH(dense_gather_tiles_kernel);
}

}  // namespace course::step5
