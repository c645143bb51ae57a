/// @file pattern_upload_coo.cu
/// @brief DevicePattern from COO: upload, validation (on the host for a few thousand entries,
/// on the GPU beyond), the panel counts and spans that approach 4 classifies from, and the
/// accessors.
///
/// Step 5, S on the device (device_pattern/README.md): the COO upload.
/// Read first: pattern_storage.hpp, then coo_pattern_check.cuh (the GPU check of a large S).
#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/device_pattern/coo_pattern_check.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/device_pattern/pattern_storage.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {

namespace {

/// Throws the error that describes entry @p entry of @p matrix: an index out of range, or an
/// entry before its predecessor.
[[noreturn]] void throw_bad_entry(const course::CooMatrix& matrix, std::size_t entry) {
  const int row = matrix.row_indices[entry];
  const int col = matrix.col_indices[entry];
  if (row < 0 || row >= matrix.rows || col < 0 || col >= matrix.cols) {
    throw std::invalid_argument("S entry " + std::to_string(entry) + " (" + std::to_string(row) +
                                ", " + std::to_string(col) + ") is out of range for a " +
                                std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                                " matrix");
  }
  throw std::invalid_argument("S must be sorted row-major (course::sort_row_major); entry " +
                              std::to_string(entry) + " comes before entry " +
                              std::to_string(entry - 1));
}

}  // namespace

DevicePattern::DevicePattern(const course::CooMatrix& matrix)
    : rows_(matrix.rows), cols_(matrix.cols), buffers_(std::make_unique<Buffers>()) {
  upload_coo(matrix);
}

void DevicePattern::upload_coo(const course::CooMatrix& matrix) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("S has negative size " + std::to_string(matrix.rows) + " x " +
                                std::to_string(matrix.cols));
  }
  const std::size_t nnz = matrix.row_indices.size();
  if (matrix.col_indices.size() != nnz || matrix.values.size() != nnz) {
    throw std::invalid_argument("S has " + std::to_string(nnz) + " row indices but " +
                                std::to_string(matrix.col_indices.size()) + " column indices and " +
                                std::to_string(matrix.values.size()) + " values");
  }
  nnz_ = static_cast<std::int64_t>(nnz);
  const int panel_count = panels_covering(rows_);
  panel_nnz_.assign(static_cast<std::size_t>(panel_count), 0);
  panel_spans_.assign(static_cast<std::size_t>(panel_count), PanelSpan{});
  if (nnz > 0) {
    if (nnz_ <= kHostCheckLimit) {
      // Small S: check and count on the host before anything touches the device, then one
      // copy of the three arrays, packed as they lie on the device.
      check_and_count_on_host(matrix);
      const PatternArrays device = buffers_->allocate(nnz);
      std::vector<unsigned char> staging(buffers_->storage.bytes());
      std::memcpy(staging.data(), matrix.row_indices.data(), nnz * sizeof(int));
      std::memcpy(staging.data() + buffers_->cols_offset, matrix.col_indices.data(),
                  nnz * sizeof(int));
      std::memcpy(staging.data() + buffers_->values_offset, matrix.values.data(),
                  nnz * sizeof(float));
      CUDA_CHECK(cudaMemcpyAsync(device.rows, staging.data(), staging.size(),
                                 cudaMemcpyHostToDevice, nullptr));
    } else {
      check_and_count_on_device(matrix, buffers_->allocate(nnz));
    }
  }
  compute_max_panel_density();
}

void DevicePattern::check_and_count_on_host(const course::CooMatrix& matrix) {
  for (std::size_t entry = 0; entry < matrix.row_indices.size(); ++entry) {
    const int row = matrix.row_indices[entry];
    const int col = matrix.col_indices[entry];
    const bool in_range = row >= 0 && row < rows_ && col >= 0 && col < cols_;
    // Entry 0 has no predecessor to be compared with.
    const bool in_order =
        entry == 0 || row > matrix.row_indices[entry - 1] ||
        (row == matrix.row_indices[entry - 1] && col >= matrix.col_indices[entry - 1]);
    if (!in_range || !in_order) {
      throw_bad_entry(matrix, entry);
    }
    const auto panel = static_cast<std::size_t>(row / kPanelRows);
    ++panel_nnz_[panel];
    PanelSpan& span = panel_spans_[panel];
    span.first_col = span.first_col < 0 ? col : std::min(span.first_col, col);
    span.last_col = std::max(span.last_col, col);
  }
}

void DevicePattern::check_and_count_on_device(const course::CooMatrix& matrix,
                                              const PatternArrays& device) {
  // The upload is fast when the caller registered its arrays with cudaHostRegister.
  const std::size_t nnz = matrix.row_indices.size();
  CUDA_CHECK(cudaMemcpyAsync(device.rows, matrix.row_indices.data(), nnz * sizeof(int),
                             cudaMemcpyHostToDevice, nullptr));
  CUDA_CHECK(cudaMemcpyAsync(device.cols, matrix.col_indices.data(), nnz * sizeof(int),
                             cudaMemcpyHostToDevice, nullptr));
  CUDA_CHECK(cudaMemcpyAsync(device.values, matrix.values.data(), nnz * sizeof(float),
                             cudaMemcpyHostToDevice, nullptr));
  // The check word, the panel counts, then two ints of span per panel (one word).
  const int panel_count = static_cast<int>(panel_nnz_.size());
  const std::size_t check_words = 1 + 2 * static_cast<std::size_t>(panel_count);
  const std::size_t spans_at = (1 + static_cast<std::size_t>(panel_count)) * sizeof(std::uint64_t);
  const course::DeviceBuffer<unsigned char> check(check_words * sizeof(std::uint64_t),
                                                  "the check of S",
                                                  course::DeviceMemorySource::stream_pool);
  CUDA_CHECK(cudaMemsetAsync(check.at<void>(0), 0xFF, sizeof(PatternCheck), nullptr));
  CUDA_CHECK(cudaMemsetAsync(check.at<void>(spans_at), 0,
                             static_cast<std::size_t>(panel_count) * sizeof(std::uint64_t),
                             nullptr));
  const std::int64_t threads = std::max<std::int64_t>(nnz_, panel_count);
  validate_pattern_kernel<<<blocks_for(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
      rows_, cols_, device.rows, device.cols, nnz_, panel_count, check.at<PatternCheck>(0),
      check.at<std::int64_t>(sizeof(std::uint64_t)), check.at<int>(spans_at));
  CUDA_CHECK_LAUNCH(validate_pattern_kernel);
  // One copy reads the verdict, the counts and the spans back.
  std::vector<std::int64_t> verdict(check_words);
  CUDA_CHECK(cudaMemcpy(verdict.data(), check.at<void>(0), check_words * sizeof(std::int64_t),
                        cudaMemcpyDeviceToHost));
  const auto first_bad = static_cast<std::uint64_t>(verdict[0]);
  if (first_bad != ~std::uint64_t{0}) {
    throw_bad_entry(matrix, static_cast<std::size_t>(first_bad));
  }
  std::copy(verdict.begin() + 1, verdict.begin() + 1 + panel_count, panel_nnz_.begin());
  decode_panel_spans(reinterpret_cast<const int*>(verdict.data() + 1 + panel_count));
}

void DevicePattern::decode_panel_spans(const int* span_words) {
  for (std::size_t panel = 0; panel < panel_spans_.size(); ++panel) {
    const int first_key = span_words[2 * panel];     // cols - first column, 0 when none
    const int last_key = span_words[2 * panel + 1];  // last column + 1, 0 when none
    panel_spans_[panel] = first_key == 0 ? PanelSpan{} : PanelSpan{cols_ - first_key, last_key - 1};
  }
}

void DevicePattern::compute_max_panel_density() {
  max_panel_density_ = 0.0;
  const int panel_count = static_cast<int>(panel_nnz_.size());
  for (int panel = 0; panel < panel_count; ++panel) {
    const int panel_rows = std::min(kPanelRows, rows_ - panel * kPanelRows);
    const double density = static_cast<double>(panel_nnz_[static_cast<std::size_t>(panel)]) /
                           (static_cast<double>(panel_rows) * static_cast<double>(cols_));
    max_panel_density_ = std::max(max_panel_density_, density);
  }
}

DevicePattern::~DevicePattern() = default;
const int* DevicePattern::row_indices() const {
  return buffers_->storage.at<int>(0);
}
const int* DevicePattern::col_indices() const {
  return buffers_->storage.at<int>(buffers_->cols_offset);
}
const float* DevicePattern::values() const {
  if (!buffers_->values_ordered) {
    // First use: whatever the caller queues next on the default stream waits for the copy.
    CUDA_CHECK(cudaStreamWaitEvent(nullptr, buffers_->values_copied, 0));
    buffers_->values_ordered = true;
  }
  return buffers_->storage.at<float>(buffers_->values_offset);
}

}  // namespace course::step5
