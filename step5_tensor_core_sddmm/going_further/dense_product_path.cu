/// @file dense_product_path.cu
/// @brief DenseProductPath: cublasGemmEx (fp16 A and Bᵀ, fp32 product and sums) and the
/// gather of S's entries, by tiles through the dense panels' tables or one thread per entry.
///
/// Step 5, going further: the dense path's GEMM and gather.
/// Read first: dense_product_path.hpp.
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"

#include "common/cuda_check.hpp"
#include "common/gpu_description.hpp"
#include "common/launch_math.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_gather.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
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

/// Each band's first tile, then the tile count. The tables list each panel's tiles after the
/// panel before (choose_dense_panels), so a band's tiles are one run.
std::vector<std::int64_t> band_first_tiles(const std::vector<DenseTile>& tiles, int rows,
                                           int band_rows) {
  const int bands = course::ceil_div(rows, band_rows);
  std::vector<std::int64_t> first(static_cast<std::size_t>(bands) + 1,
                                  static_cast<std::int64_t>(tiles.size()));
  first[0] = 0;
  int band = 0;
  for (std::size_t tile = 0; tile < tiles.size(); ++tile) {
    const int tile_band = tiles[tile].first_row / band_rows;
    if (tile_band < band) {
      throw std::logic_error("the dense path's tiles are not in row order (tile " +
                             std::to_string(tile) + ")");
    }
    while (band < tile_band) {
      first[static_cast<std::size_t>(++band)] = static_cast<std::int64_t>(tile);
    }
  }
  return first;
}

/// The gather's tables: every panel with entries is a dense panel over the columns it spans,
/// and @p band_first_tile the first tile of each band of @p band_rows rows. None (the gather
/// by entries) where 64 rows of the product are not int-indexable or the tables are not
/// (choose_dense_panels then returns no panel).
DensePanelTables gather_tables(const DevicePattern& pattern, const PanelStatistics& statistics,
                               int band_rows, std::vector<std::int64_t>& band_first_tile) {
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
  band_first_tile = band_first_tiles(choice.tiles, pattern.rows(), band_rows);
  // upload_dense_panels writes the staging that an earlier upload of this plan may still be
  // reading on the device.
  CUDA_CHECK(cudaDeviceSynchronize());
  return upload_dense_panels(choice, pattern);
}

}  // namespace

int dense_band_rows(int rows, int cols, long long l2_bytes) {
  const long long row_bytes = static_cast<long long>(cols) * static_cast<long long>(sizeof(float));
  const long long half_l2_rows = l2_bytes / 2 / row_bytes;
  const long long panels = std::max<long long>(half_l2_rows, kMinDenseBandRows) / kTileMaskRows;
  const long long all_rows = course::ceil_div(rows, kTileMaskRows) * kTileMaskRows;
  return static_cast<int>(std::min(panels * kTileMaskRows, all_rows));
}

DenseProductPath::DenseProductPath(const DevicePattern& pattern, const PanelStatistics& statistics)
    : band_rows_(dense_band_rows(pattern.rows(), pattern.cols(), describe_current_gpu().l2_bytes)),
      tables_(gather_tables(pattern, statistics, band_rows_, band_first_tile_)),
      product_(static_cast<std::size_t>(gathers_by_tiles() ? band_rows_ : pattern.rows()) *
                   static_cast<std::size_t>(pattern.cols()),
               "the dense path's band of the product", course::DeviceMemorySource::stream_pool),
      rows_(pattern.rows()),
      cols_(pattern.cols()),
      nnz_(pattern.nnz()) {
  if (!gathers_by_tiles()) {
    band_rows_ = rows_;  // the gather by entries reads the whole product
  }
  CUBLAS_CHECK(cublasCreate(&handle_));
}

DenseProductPath::~DenseProductPath() {
  cublasDestroy(handle_);  // no check: destructors must not throw
}

void dense_product_fp16(cublasHandle_t handle, const DenseOperands& operands, float* product) {
  dense_product_rows_fp16(handle, operands, 0, operands.rows, product);
}

void dense_product_rows_fp16(cublasHandle_t handle, const DenseOperands& operands, int first_row,
                             int row_count, float* product) {
  if (first_row < 0 || row_count < 1 || row_count > operands.rows - first_row) {
    throw std::invalid_argument(
        "rows " + std::to_string(first_row) + " to " + std::to_string(first_row + row_count - 1) +
        " of the product are not rows of A (" + std::to_string(operands.rows) + " rows)");
  }
  const float alpha = 1.0f;
  const float beta = 0.0f;
  // Row-major C (rows×cols) is column-major Cᵀ = Bᵀ·Aᵀ: Bᵀ's bytes are a column-major
  // inner×cols matrix, used transposed; A's bytes a column-major inner×rows matrix, used as is,
  // from its column first_row on.
  const __half* a_band = operands.a + static_cast<std::int64_t>(first_row) * operands.lda;
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, operands.cols, row_count,
                            operands.inner, &alpha, operands.b_transposed, CUDA_R_16F, operands.ldb,
                            a_band, CUDA_R_16F, operands.lda, &beta, product, CUDA_R_32F,
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
  if (!gathers_by_tiles()) {
    dense_product_fp16(handle_, operands, product_.data());
    gather_at_pattern(product_.data(), cols_, pattern, output, stream);
    return;
  }
  for (std::size_t band = 0; band + 1 < band_first_tile_.size(); ++band) {
    const std::int64_t first_tile = band_first_tile_[band];
    const std::int64_t tiles = band_first_tile_[band + 1] - first_tile;
    if (tiles == 0) {
      continue;  // a band of rows without entries: nothing of it is gathered
    }
    const int first_row = static_cast<int>(band) * band_rows_;
    // The band's GEMM writes over the buffer the previous band's gather read: both are in
    // the stream's order.
    dense_product_rows_fp16(handle_, operands, first_row, std::min(band_rows_, rows_ - first_row),
                            product_.data());
    gather_band(first_row, first_tile, tiles, pattern, output, stream);
  }
}

int DenseProductPath::launches() const {
  if (!gathers_by_tiles()) {
    return 2;
  }
  int launches = 0;
  for (std::size_t band = 0; band + 1 < band_first_tile_.size(); ++band) {
    launches += band_first_tile_[band + 1] > band_first_tile_[band] ? 2 : 0;
  }
  return launches;
}

void DenseProductPath::gather_band(int first_row, std::int64_t first_tile, std::int64_t tiles,
                                   const DevicePattern& pattern, float* output,
                                   cudaStream_t stream) const {
  const auto* tile_list = tables_.storage.at<DenseTile>(tables_.tiles_offset);
  const int* tile_starts = tables_.storage.at<int>(tables_.tile_starts_offset);
  const auto* tile_masks = tables_.storage.at<unsigned long long>(tables_.tile_masks_offset);
  const auto blocks = static_cast<unsigned>(tiles);
  constexpr int kThreads = 32 * kGatherWarps;
  if (pattern.unit_values()) {
    dense_gather_tiles_kernel<false><<<blocks, kThreads, 0, stream>>>(
        product_.data(), cols_, first_row, first_tile, tile_list, tile_starts, tile_masks,
        pattern.col_indices(), nullptr, output);
    CUDA_CHECK_LAUNCH(dense_gather_tiles_kernel);
    return;
  }
  dense_gather_tiles_kernel<true><<<blocks, kThreads, 0, stream>>>(
      product_.data(), cols_, first_row, first_tile, tile_list, tile_starts, tile_masks,
      pattern.col_indices(), pattern.values(), output);
  CUDA_CHECK_LAUNCH(dense_gather_tiles_kernel);
}

}  // namespace course::step5
