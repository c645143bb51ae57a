// Step 5, approach 4 (lesson Part 2, "Row windows"): the choice and the table.
// Read first: row_windows.hpp.
/// @file row_windows.cu
/// @brief Approach 4's row windows: row_window_reuse, choose_row_windows and the table's
/// kernel (a binary search per row and window).
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "launch_config.hpp"
#include "row_windows.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace course::step5 {
namespace {

/// Each thread finds one entry of the table: the first entry of S at or after (row, col),
/// with col the window's first column (cols for the row's end), by binary search over S's
/// entries sorted by row then column.
__global__ void window_starts_kernel(const int* __restrict__ row_indices,
                                     const int* __restrict__ col_indices, int nnz, int rows,
                                     int cols, int windows, int* __restrict__ starts) {
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t table_size = static_cast<std::int64_t>(rows) * (windows + 1);
  if (index >= table_size) {
    return;  // the last block's threads past the table
  }
  const int row = static_cast<int>(index / (windows + 1));
  const int window = static_cast<int>(index % (windows + 1));
  const int col = static_cast<int>(static_cast<std::int64_t>(window) * cols / windows);
  int low = 0;
  int high = nnz;
  while (low < high) {
    const int middle = low + (high - low) / 2;
    const int middle_row = row_indices[middle];
    const bool before = middle_row < row || (middle_row == row && col_indices[middle] < col);
    if (before) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  starts[index] = low;
}

int sm_count() {
  int device = 0;
  int count = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

/// Whether the fullest 64-row panel holds more than 8 times the mean panel's nonzeros.
bool uneven_panels(const DevicePattern& pattern) {
  const std::vector<std::int64_t>& counts = pattern.panel_nnz();
  if (counts.empty()) {
    return false;
  }
  const std::int64_t fullest = *std::max_element(counts.begin(), counts.end());
  const double mean = static_cast<double>(pattern.nnz()) / static_cast<double>(counts.size());
  return static_cast<double>(fullest) > 8.0 * mean;
}

}  // namespace

double row_window_reuse(double density, int rows) {
  if (density <= 0.0 || rows <= 1) {
    return 0.0;
  }
  const double uses = density * rows;                        // nonzeros per column
  const double loads = 1.0 - std::pow(1.0 - density, rows);  // columns loaded at all
  return std::max(0.0, 1.0 - loads / uses);
}

int choose_row_windows(const DevicePattern& pattern, int inner, const Options& options) {
  const bool inner_compiled = inner == 32 || inner == 64 || inner == 128 || inner == 256;
  if (!options.row_windows || !inner_compiled ||
      (options.group_lanes != 0 && options.group_lanes != kRowWindowLanes) || pattern.nnz() == 0 ||
      pattern.nnz() > INT_MAX) {
    return 0;
  }
  const double density =
      static_cast<double>(pattern.nnz()) / (static_cast<double>(pattern.rows()) * pattern.cols());
  if (row_window_reuse(density, kRowWindowRows) < options.row_window_min_reuse ||
      uneven_panels(pattern)) {
    return 0;
  }
  // Two full waves: an SM holds 2048 threads, 2048 / (32 · rows) blocks of this kernel.
  const std::int64_t row_groups = (pattern.rows() + kRowWindowRows - 1) / kRowWindowRows;
  const std::int64_t target_blocks =
      static_cast<std::int64_t>(sm_count()) * (2048 / (32 * kRowWindowRows)) * 2;
  const std::int64_t wanted = (target_blocks + row_groups - 1) / row_groups;
  const std::int64_t most = std::max<std::int64_t>(1, pattern.nnz() / pattern.rows() / 16);
  const std::int64_t windows =
      std::clamp<std::int64_t>(wanted, 1, std::min<std::int64_t>(most, pattern.cols()));
  if (row_groups * windows > INT_MAX ||
      static_cast<std::int64_t>(pattern.rows()) * (windows + 1) > INT_MAX) {
    return 0;  // the grid or the table would outgrow int
  }
  return static_cast<int>(windows);
}

RowWindows build_row_windows(const DevicePattern& pattern, int windows) {
  RowWindows table;
  table.windows = windows;
  const std::int64_t size = static_cast<std::int64_t>(pattern.rows()) * (windows + 1);
  table.starts =
      course::DeviceBuffer<int>(static_cast<std::size_t>(size), "approach 4's row-window starts",
                                course::DeviceMemorySource::stream_pool);
  window_starts_kernel<<<blocks_for(size, kThreadsPerBlock), kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), static_cast<int>(pattern.nnz()), pattern.rows(),
      pattern.cols(), windows, table.starts.data());
  CUDA_CHECK_LAUNCH(window_starts_kernel);
  return table;
}

}  // namespace course::step5
