/// @file pattern_upload.cu
/// @brief DevicePattern from COO and from CSR: every entry checked on the host, then S's three
/// arrays copied to the device; and the accessors.
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/device_pattern/pattern_storage.hpp"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {

namespace {

/// Throws the error that describes entry @p entry of a rows×cols S at (@p row, @p col): an
/// index out of range, or else an entry before its predecessor.
[[noreturn]] void throw_bad_entry(int rows, int cols, std::size_t entry, int row, int col) {
  if (row < 0 || row >= rows || col < 0 || col >= cols) {
    throw std::invalid_argument("S entry " + std::to_string(entry) + " (" + std::to_string(row) +
                                ", " + std::to_string(col) + ") is out of range for a " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " matrix");
  }
  throw std::invalid_argument("S must be sorted row-major (course::sort_row_major); entry " +
                              std::to_string(entry) + " comes before entry " +
                              std::to_string(entry - 1));
}

/// Checks every entry of @p matrix: indices in range, not before its predecessor.
void check_entries(const course::CooMatrix& matrix) {
  for (std::size_t entry = 0; entry < matrix.row_indices.size(); ++entry) {
    const int row = matrix.row_indices[entry];
    const int col = matrix.col_indices[entry];
    const bool in_range = row >= 0 && row < matrix.rows && col >= 0 && col < matrix.cols;
    // Entry 0 has no predecessor to be compared with.
    const bool in_order =
        entry == 0 || row > matrix.row_indices[entry - 1] ||
        (row == matrix.row_indices[entry - 1] && col >= matrix.col_indices[entry - 1]);
    if (!in_range || !in_order) {
      throw_bad_entry(matrix.rows, matrix.cols, entry, row, col);
    }
  }
}

/// Throws when the row offsets of @p matrix are not those of a CSR matrix with
/// matrix.col_indices.size() entries: offset 0 must be 0, the last nnz, none above the next.
void check_row_offsets(const course::CsrMatrix& matrix) {
  const std::vector<int>& offsets = matrix.row_offsets;
  const auto nnz = static_cast<long long>(matrix.col_indices.size());
  for (std::size_t index = 0; index < offsets.size(); ++index) {
    const bool bad = offsets[index] < 0 || offsets[index] > nnz ||
                     (index == 0 && offsets[index] != 0) ||
                     (index + 1 == offsets.size() && offsets[index] != nnz) ||
                     (index + 1 < offsets.size() && offsets[index] > offsets[index + 1]);
    if (bad) {
      throw std::invalid_argument(
          "S's CSR row offset " + std::to_string(index) + " (" + std::to_string(offsets[index]) +
          ") is invalid: offsets must start at 0, never decrease and end at nnz = " +
          std::to_string(nnz));
    }
  }
}

/// Checks the columns of @p matrix (valid row offsets): each in range and, within its row, not
/// before its predecessor; throws the error that COO's check gives for the same entry.
void check_csr_columns(const course::CsrMatrix& matrix) {
  for (int row = 0; row < matrix.rows; ++row) {
    for (int entry = matrix.row_offsets[row]; entry < matrix.row_offsets[row + 1]; ++entry) {
      const int col = matrix.col_indices[static_cast<std::size_t>(entry)];
      // The row's first entry has no predecessor in the row (rows are ordered by CSR itself).
      const bool in_order =
          entry == matrix.row_offsets[row] || col >= matrix.col_indices[entry - 1];
      if (col < 0 || col >= matrix.cols || !in_order) {
        throw_bad_entry(matrix.rows, matrix.cols, static_cast<std::size_t>(entry), row, col);
      }
    }
  }
}

}  // namespace

DevicePattern::DevicePattern(int rows, int cols)
    : rows_(rows), cols_(cols), buffers_(std::make_unique<Buffers>()) {}

DevicePattern::DevicePattern(const course::CooMatrix& matrix)
    : DevicePattern(matrix.rows, matrix.cols) {
  upload_coo(matrix);
}

DevicePattern::DevicePattern(const course::CsrMatrix& matrix, PatternValues values)
    : DevicePattern(matrix.rows, matrix.cols) {
  check_csr_sizes(matrix, values);
  upload_csr_on_host(matrix, values);
}

void DevicePattern::check_csr_sizes(const course::CsrMatrix& matrix, PatternValues values) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("S has negative size " + std::to_string(matrix.rows) + " x " +
                                std::to_string(matrix.cols));
  }
  const std::size_t nnz = matrix.col_indices.size();
  if (matrix.row_offsets.size() != static_cast<std::size_t>(matrix.rows) + 1) {
    throw std::invalid_argument("S has " + std::to_string(matrix.row_offsets.size()) +
                                " CSR row offsets for " + std::to_string(matrix.rows) +
                                " rows; it needs rows + 1");
  }
  if (values == PatternValues::upload && matrix.values.size() != nnz) {
    throw std::invalid_argument("S has " + std::to_string(nnz) + " column indices but " +
                                std::to_string(matrix.values.size()) + " values");
  }
  if (nnz > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("S in CSR with int offsets holds at most " +
                                std::to_string(INT_MAX) + " entries, got " + std::to_string(nnz));
  }
}

void DevicePattern::upload_csr_on_host(const course::CsrMatrix& matrix, PatternValues values) {
  check_row_offsets(matrix);
  check_csr_columns(matrix);  // before anything touches the device
  const bool ones = values == PatternValues::all_ones;
  unit_values_ = ones;
  const std::size_t nnz = matrix.col_indices.size();
  nnz_ = static_cast<std::int64_t>(nnz);
  if (nnz == 0) {
    return;
  }
  // The row of every entry, which COO stores and CSR's offsets imply; the columns and values
  // are copied as they are.
  std::vector<int> rows(nnz);
  for (int row = 0; row < matrix.rows; ++row) {
    for (int entry = matrix.row_offsets[row]; entry < matrix.row_offsets[row + 1]; ++entry) {
      rows[static_cast<std::size_t>(entry)] = row;
    }
  }
  const std::vector<float> unit = ones ? std::vector<float>(nnz, 1.0f) : std::vector<float>{};
  copy_arrays(rows.data(), matrix.col_indices.data(), ones ? unit.data() : matrix.values.data(),
              nnz);
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
  check_entries(matrix);  // before anything touches the device
  nnz_ = static_cast<std::int64_t>(nnz);
  if (nnz == 0) {
    return;
  }
  copy_arrays(matrix.row_indices.data(), matrix.col_indices.data(), matrix.values.data(), nnz);
}

void DevicePattern::copy_arrays(const int* rows, const int* cols, const float* values,
                                std::size_t nnz) {
  const PatternArrays device = buffers_->allocate(nnz);
  if (nnz_ > kPackedUploadLimit) {
    CUDA_CHECK(
        cudaMemcpyAsync(device.rows, rows, nnz * sizeof(int), cudaMemcpyHostToDevice, nullptr));
    CUDA_CHECK(
        cudaMemcpyAsync(device.cols, cols, nnz * sizeof(int), cudaMemcpyHostToDevice, nullptr));
    CUDA_CHECK(cudaMemcpyAsync(device.values, values, nnz * sizeof(float), cudaMemcpyHostToDevice,
                               nullptr));
    return;
  }
  // A small S: one copy of the three arrays, packed as they lie on the device.
  std::vector<unsigned char> staging(buffers_->storage.bytes());
  std::memcpy(staging.data(), rows, nnz * sizeof(int));
  std::memcpy(staging.data() + buffers_->cols_offset, cols, nnz * sizeof(int));
  std::memcpy(staging.data() + buffers_->values_offset, values, nnz * sizeof(float));
  CUDA_CHECK(cudaMemcpyAsync(device.rows, staging.data(), staging.size(), cudaMemcpyHostToDevice,
                             nullptr));
}

std::unique_ptr<DevicePattern> upload_pattern(const HostSampling& sampling) {
  return std::make_unique<DevicePattern>(sampling.csr(), sampling.values());
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
