/// @file panel_pattern_upload.cu
/// @brief PanelPattern from CSR: 4 bytes per entry plus 4 per row on the bus, the rows rebuilt,
/// S checked and its panel spans found by one kernel (csr_pattern_kernel), the values copied on
/// a side stream; a small S is checked, uploaded and counted on the host instead. Also
/// panel_statistics(), which measures the panels of any other DevicePattern.
///
/// Step 5, approach 4 (going further, "Preprocessing: S on the device"): the fast upload.
/// Read first: panel_pattern.hpp, then csr_pattern_upload.cuh (the kernel).
#include "common/cuda_check.hpp"
#include "common/launch_math.hpp"
#include "step5_tensor_core_sddmm/device_pattern/pattern_storage.hpp"
#include "step5_tensor_core_sddmm/going_further/csr_pattern_upload.cuh"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/upload_resources.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace course::step5 {
namespace {

/// Entries up to which PanelPattern checks and counts S on the host: a pass over a few
/// thousand entries costs less than a kernel launch plus a read-back.
constexpr std::int64_t kHostCheckLimit = kPackedUploadLimit;

/// Entries of each 64-row panel of @p matrix (valid row offsets): two offsets per panel.
std::vector<std::int64_t> count_panel_entries(const course::CsrMatrix& matrix) {
  const int panel_count = panels_covering(matrix.rows);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(panel_count));
  for (int panel = 0; panel < panel_count; ++panel) {
    const int end_row = std::min(matrix.rows, (panel + 1) * kPanelRows);
    counts[static_cast<std::size_t>(panel)] =
        matrix.row_offsets[end_row] - matrix.row_offsets[panel * kPanelRows];
  }
  return counts;
}

/// The counts and spans of @p matrix (valid), on the host: a sorted row's first and last
/// columns are its extremes.
PanelStatistics count_panels(const course::CsrMatrix& matrix) {
  PanelStatistics panels{count_panel_entries(matrix), {}};
  panels.spans.assign(panels.nnz.size(), PanelSpan{});
  for (int row = 0; row < matrix.rows; ++row) {
    const int begin = matrix.row_offsets[row];
    const int end = matrix.row_offsets[row + 1];
    if (begin == end) {
      continue;  // an empty row widens nothing
    }
    PanelSpan& span = panels.spans[static_cast<std::size_t>(row / kPanelRows)];
    const int first = matrix.col_indices[static_cast<std::size_t>(begin)];
    span.first_col = span.first_col < 0 ? first : std::min(span.first_col, first);
    span.last_col = std::max(span.last_col, matrix.col_indices[static_cast<std::size_t>(end - 1)]);
  }
  return panels;
}

}  // namespace

PanelPattern::PanelPattern(const course::CsrMatrix& matrix, PatternValues values)
    : DevicePattern(matrix.rows, matrix.cols) {
  check_csr_sizes(matrix, values);
  const auto nnz = static_cast<std::int64_t>(matrix.col_indices.size());
  if (nnz <= kHostCheckLimit || matrix.rows == 0) {
    upload_csr_on_host(matrix, values);  // checks S first
    panels_ = count_panels(matrix);
    return;
  }
  upload_csr_on_gpu(matrix, values == PatternValues::all_ones);
}

void PanelPattern::upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones) {
  const std::size_t nnz = matrix.col_indices.size();
  nnz_ = static_cast<std::int64_t>(nnz);
  unit_values_ = ones;
  const int panel_count = panels_covering(rows());
  Buffers& storage = buffers();
  const PatternArrays device = storage.allocate(nnz);
  const course::DeviceBuffer<int> device_offsets(matrix.row_offsets.size(), "the CSR offsets of S",
                                                 course::DeviceMemorySource::stream_pool);
  CUDA_CHECK(cudaMemcpyAsync(device_offsets.data(), matrix.row_offsets.data(),
                             matrix.row_offsets.size() * sizeof(int), cudaMemcpyHostToDevice,
                             nullptr));
  CUDA_CHECK(cudaMemcpyAsync(device.cols, matrix.col_indices.data(), nnz * sizeof(int),
                             cudaMemcpyHostToDevice, nullptr));
  if (!ones) {
    // Nothing before the SDDMM itself reads the values: they travel on a second stream,
    // after the allocation and the index copies above (ordered on the default stream),
    // while the check and the plan run. values() orders the default stream after them.
    side_stream_waits_for_default();
    CUDA_CHECK(cudaMemcpyAsync(device.values, matrix.values.data(), nnz * sizeof(float),
                               cudaMemcpyHostToDevice, side_copy_stream()));
    CUDA_CHECK(cudaEventCreateWithFlags(&storage.values_copied, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(storage.values_copied, side_copy_stream()));
    storage.values_ordered = false;
  }
  // The verdict and the spans come back through mapped host memory: no memset, no copy.
  auto* verdict = static_cast<CsrVerdict*>(
      pinned_scratch(PinnedUse::verdict,
                     sizeof(CsrVerdict) + 2 * sizeof(int) * static_cast<std::size_t>(panel_count)));
  verdict->bad_offset = 0;
  verdict->bad_entry = 0;
  int* spans = reinterpret_cast<int*>(verdict + 1);
  const std::int64_t threads = std::max<std::int64_t>(nnz_, std::int64_t{rows()} + 1);
  csr_pattern_kernel<kThreadsPerBlock><<<blocks_for(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
      device_offsets.data(), device.cols, rows(), cols(), nnz_, ones, device.rows, device.values,
      verdict, spans);
  CUDA_CHECK_LAUNCH(csr_pattern_kernel);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
  if (verdict->bad_offset != 0 || verdict->bad_entry != 0) {
    if (!ones) {
      // The caller may free the matrix once the error is thrown: let the copy finish first.
      CUDA_CHECK(cudaEventSynchronize(storage.values_copied));
    }
    // The host's check names the first bad offset or entry.
    upload_csr_on_host(matrix, ones ? PatternValues::all_ones : PatternValues::upload);
    throw std::logic_error("the GPU check refused S, the host check passed it");
  }
  panels_.nnz = count_panel_entries(matrix);
  panels_.spans.resize(static_cast<std::size_t>(panel_count));
  for (std::size_t panel = 0; panel < panels_.spans.size(); ++panel) {
    panels_.spans[panel] = PanelSpan{spans[2 * panel], spans[2 * panel + 1]};
  }
}

std::unique_ptr<DevicePattern> upload_with_panels(const HostSampling& sampling) {
  return std::make_unique<PanelPattern>(sampling.csr(), sampling.values());
}

const PanelStatistics& panel_statistics(const DevicePattern& pattern, PanelStatistics& measured) {
  if (const auto* uploaded = dynamic_cast<const PanelPattern*>(&pattern)) {
    return uploaded->panels();  // counted in the upload's pass
  }
  // S uploaded by the lesson's DevicePattern: copy its indices back and count them.
  course::CooMatrix host;
  host.rows = pattern.rows();
  host.cols = pattern.cols();
  const auto nnz = static_cast<std::size_t>(pattern.nnz());
  host.row_indices.resize(nnz);
  host.col_indices.resize(nnz);
  host.values.assign(nnz, 1.0f);
  if (nnz > 0) {
    CUDA_CHECK(cudaMemcpy(host.row_indices.data(), pattern.row_indices(), nnz * sizeof(int),
                          cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(host.col_indices.data(), pattern.col_indices(), nnz * sizeof(int),
                          cudaMemcpyDeviceToHost));
  }
  measured = count_panels(course::coo_to_csr(host));
  return measured;
}

}  // namespace course::step5
