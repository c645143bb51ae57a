/// @file pattern_upload_csr.cu
/// @brief DevicePattern from CSR: 4 bytes per nonzero plus 4 per row on the bus, the rows
/// rebuilt and S checked by one kernel (csr_pattern_kernel), the values copied on a side
/// stream; a small S is expanded to COO on the host instead.
///
/// Step 5, S on the device (device_pattern/README.md): the CSR upload.
/// Read first: pattern_upload_coo.cu (the COO path that small S takes), csr_pattern_upload.cuh.
#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/device_pattern/csr_pattern_upload.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/device_pattern/pattern_storage.hpp"
#include "step5_tensor_core_sddmm/device_pattern/upload_resources.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step5 {
namespace {

/// Throws when the row offsets of @p matrix are not those of a CSR matrix with
/// matrix.col_indices.size() entries: offset 0 must be 0, the last nnz, none above the next.
/// @p first_bad is the first failing offset (found by the caller, on the host or the GPU).
[[noreturn]] void throw_bad_offset(const course::CsrMatrix& matrix, std::size_t first_bad) {
  throw std::invalid_argument(
      "S's CSR row offset " + std::to_string(first_bad) + " (" +
      std::to_string(matrix.row_offsets[first_bad]) +
      ") is invalid: offsets must start at 0, never decrease and end at nnz = " +
      std::to_string(matrix.col_indices.size()));
}

/// First offset of @p matrix that fails the CSR checks of throw_bad_offset, or its size.
std::size_t first_bad_offset_on_host(const course::CsrMatrix& matrix) {
  const std::vector<int>& offsets = matrix.row_offsets;
  const auto nnz = static_cast<long long>(matrix.col_indices.size());
  for (std::size_t index = 0; index < offsets.size(); ++index) {
    const bool bad = offsets[index] < 0 || offsets[index] > nnz ||
                     (index == 0 && offsets[index] != 0) ||
                     (index + 1 == offsets.size() && offsets[index] != nnz) ||
                     (index + 1 < offsets.size() && offsets[index] > offsets[index + 1]);
    if (bad) {
      return index;
    }
  }
  return offsets.size();
}

/// First entry of @p matrix (valid row offsets) whose column is out of range or below its
/// predecessor's in the same row, or nnz: the error path of the GPU check, which only says
/// that some entry failed.
std::size_t first_bad_csr_entry_on_host(const course::CsrMatrix& matrix) {
  for (int row = 0; row < matrix.rows; ++row) {
    const auto begin = static_cast<std::size_t>(matrix.row_offsets[row]);
    const auto end = static_cast<std::size_t>(matrix.row_offsets[row + 1]);
    for (std::size_t entry = begin; entry < end; ++entry) {
      const int col = matrix.col_indices[entry];
      // The first entry of a row has no predecessor in its row to be compared with.
      const bool bad =
          col < 0 || col >= matrix.cols || (entry > begin && col < matrix.col_indices[entry - 1]);
      if (bad) {
        return entry;
      }
    }
  }
  return matrix.col_indices.size();
}

/// Nonzeros of each 64-row panel of @p matrix (valid row offsets): two offsets per panel.
std::vector<std::int64_t> count_panels(const course::CsrMatrix& matrix) {
  const int panel_count = panels_covering(matrix.rows);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(panel_count));
  for (int panel = 0; panel < panel_count; ++panel) {
    const int end_row = std::min(matrix.rows, (panel + 1) * kPanelRows);
    counts[static_cast<std::size_t>(panel)] =
        matrix.row_offsets[end_row] - matrix.row_offsets[panel * kPanelRows];
  }
  return counts;
}

/// Throws the error that describes entry @p entry of the CSR matrix @p matrix (valid row
/// offsets): a column out of range, or a column before its predecessor in the same row.
[[noreturn]] void throw_bad_csr_entry(const course::CsrMatrix& matrix, std::size_t entry) {
  const auto row_end = std::upper_bound(matrix.row_offsets.begin(), matrix.row_offsets.end(),
                                        static_cast<long long>(entry));
  const auto row = static_cast<int>(row_end - matrix.row_offsets.begin()) - 1;
  const int col = matrix.col_indices[entry];
  if (col < 0 || col >= matrix.cols) {
    throw std::invalid_argument("S entry " + std::to_string(entry) + " (" + std::to_string(row) +
                                ", " + std::to_string(col) + ") is out of range for a " +
                                std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                                " matrix");
  }
  throw std::invalid_argument(
      "S must be sorted row-major (columns increasing within a row); "
      "entry " +
      std::to_string(entry) + " comes before entry " + std::to_string(entry - 1));
}

}  // namespace

DevicePattern::DevicePattern(const course::CsrMatrix& matrix, PatternValues values)
    : rows_(matrix.rows), cols_(matrix.cols), buffers_(std::make_unique<Buffers>()) {
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
  const bool ones = values == PatternValues::all_ones;
  unit_values_ = ones;
  if (!ones && matrix.values.size() != nnz) {
    throw std::invalid_argument("S has " + std::to_string(nnz) + " column indices but " +
                                std::to_string(matrix.values.size()) + " values");
  }
  if (nnz > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("S in CSR with int offsets holds at most " +
                                std::to_string(INT_MAX) + " entries, got " + std::to_string(nnz));
  }
  if (static_cast<std::int64_t>(nnz) <= kHostCheckLimit || matrix.rows == 0) {
    // Small S: check the offsets, expand to COO on the host and take the COO path.
    const std::size_t bad = first_bad_offset_on_host(matrix);
    if (bad < matrix.row_offsets.size()) {
      throw_bad_offset(matrix, bad);
    }
    course::CooMatrix coo;
    coo.rows = matrix.rows;
    coo.cols = matrix.cols;
    coo.col_indices = matrix.col_indices;
    coo.values = ones ? std::vector<float>(nnz, 1.0f) : matrix.values;
    coo.row_indices.resize(nnz);
    for (int row = 0; row < matrix.rows; ++row) {
      for (int entry = matrix.row_offsets[row]; entry < matrix.row_offsets[row + 1]; ++entry) {
        coo.row_indices[static_cast<std::size_t>(entry)] = row;
      }
    }
    upload_coo(coo);  // its errors name the same entries as the CSR ones
    return;
  }
  upload_csr_on_gpu(matrix, ones);
}

void DevicePattern::upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones) {
  const std::size_t nnz = matrix.col_indices.size();
  nnz_ = static_cast<std::int64_t>(nnz);
  const int panel_count = panels_covering(rows_);
  const PatternArrays device = buffers_->allocate(nnz);
  const std::size_t offsets_bytes = matrix.row_offsets.size() * sizeof(int);
  const course::DeviceBuffer<int> device_offsets(matrix.row_offsets.size(), "the CSR offsets of S",
                                                 course::DeviceMemorySource::stream_pool);
  CUDA_CHECK(cudaMemcpyAsync(device_offsets.data(), matrix.row_offsets.data(), offsets_bytes,
                             cudaMemcpyHostToDevice, nullptr));
  CUDA_CHECK(cudaMemcpyAsync(device.cols, matrix.col_indices.data(), nnz * sizeof(int),
                             cudaMemcpyHostToDevice, nullptr));
  if (!ones) {
    // Nothing before the SDDMM itself reads the values: they travel on a second stream,
    // after the allocation and the index copies above (ordered on the default stream),
    // while the check and the plan run. values() orders the default stream after them.
    side_stream_waits_for_default();
    CUDA_CHECK(cudaMemcpyAsync(device.values, matrix.values.data(), nnz * sizeof(float),
                               cudaMemcpyHostToDevice, side_copy_stream()));
    CUDA_CHECK(cudaEventCreateWithFlags(&buffers_->values_copied, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(buffers_->values_copied, side_copy_stream()));
    buffers_->values_ordered = false;
  }
  // The verdict and the spans come back through mapped host memory: no memset, no copy.
  auto* verdict = static_cast<CsrVerdict*>(
      pinned_scratch(PinnedUse::verdict,
                     sizeof(CsrVerdict) + 2 * sizeof(int) * static_cast<std::size_t>(panel_count)));
  verdict->bad_offset = 0;
  verdict->bad_entry = 0;
  int* spans = reinterpret_cast<int*>(verdict + 1);
  const std::int64_t threads = std::max<std::int64_t>(nnz_, std::int64_t{rows_} + 1);
  csr_pattern_kernel<kThreadsPerBlock><<<blocks_for(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
      device_offsets.data(), device.cols, rows_, cols_, nnz_, ones, device.rows, device.values,
      verdict, spans);
  CUDA_CHECK_LAUNCH(csr_pattern_kernel);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
  if (!ones && (verdict->bad_offset != 0 || verdict->bad_entry != 0)) {
    // The caller may free the matrix once the error is thrown: let the copy finish first.
    CUDA_CHECK(cudaEventSynchronize(buffers_->values_copied));
  }
  if (verdict->bad_offset != 0) {
    throw_bad_offset(matrix, first_bad_offset_on_host(matrix));
  }
  if (verdict->bad_entry != 0) {
    throw_bad_csr_entry(matrix, first_bad_csr_entry_on_host(matrix));
  }
  panel_nnz_ = count_panels(matrix);
  panel_spans_.resize(static_cast<std::size_t>(panel_count));
  for (std::size_t panel = 0; panel < panel_spans_.size(); ++panel) {
    panel_spans_[panel] = PanelSpan{spans[2 * panel], spans[2 * panel + 1]};
  }
  compute_max_panel_density();
}

}  // namespace course::step5
