/// @file dense_strips.cpp
/// @brief dense_strip_rows() and plan_dense_strips(): the dense path's strips from S's panel
/// statistics, on the host.
///
/// Step 5, going further. Read first: dense_strips.hpp.
#include "step5_tensor_core_sddmm/going_further/dense_strips.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

/// Columns a strip's GEMM rounds to: 8 floats or halves make its rows 16-byte aligned.
constexpr int kColumnAlignment = 8;

/// Half of the L2 holds a strip's product (dense_strips.hpp says why).
long long product_share(long long l2_bytes) {
  return l2_bytes / 2;
}

}  // namespace

int dense_strip_rows(long long l2_bytes, int rows, int cols) {
  const long long row_bytes = static_cast<long long>(std::max(cols, 1)) * sizeof(float);
  const long long fitting = product_share(l2_bytes) / row_bytes / kPanelRows * kPanelRows;
  const long long strip = std::max<long long>(fitting, kMinDenseStripRows);
  return strip >= rows ? std::max(rows, 1) : static_cast<int>(strip);
}

DenseStrips plan_dense_strips(const PanelStatistics& panels, int rows, int cols, int strip_rows,
                              long long l2_bytes) {
  if (strip_rows <= 0 || (strip_rows % kPanelRows != 0 && strip_rows < rows)) {
    throw std::invalid_argument("the dense path's strips must be a positive multiple of " +
                                std::to_string(kPanelRows) + " rows (or all rows), got " +
                                std::to_string(strip_rows));
  }
  const int panel_count = panels_covering(rows);
  if (static_cast<int>(panels.nnz.size()) != panel_count ||
      static_cast<int>(panels.spans.size()) != panel_count) {
    throw std::invalid_argument("the panel statistics cover " + std::to_string(panels.nnz.size()) +
                                " panels, S has " + std::to_string(panel_count));
  }
  DenseStrips plan;
  plan.strip_rows = std::min(strip_rows, std::max(rows, 1));
  plan.cols = cols;
  plan.in_l2 =
      plan.buffer_floats() * static_cast<long long>(sizeof(float)) <= product_share(l2_bytes);
  std::int64_t entry = 0;
  for (int first_row = 0; first_row < rows; first_row += plan.strip_rows) {
    DenseStrip strip;
    strip.first_row = first_row;
    strip.rows = std::min(plan.strip_rows, rows - first_row);
    strip.begin = entry;
    int first_col = cols;
    int last_col = -1;
    const int first_panel = first_row / kPanelRows;
    const int end_panel = panels_covering(first_row + strip.rows);
    for (int panel = first_panel; panel < end_panel; ++panel) {
      entry += panels.nnz[panel];
      if (panels.nnz[panel] > 0) {  // an empty panel spans no column (-1, -1)
        first_col = std::min(first_col, panels.spans[panel].first_col);
        last_col = std::max(last_col, panels.spans[panel].last_col);
      }
    }
    strip.end = entry;
    if (strip.end == strip.begin) {
      continue;  // no entry in these rows: no GEMM, no gather
    }
    strip.first_col = first_col / kColumnAlignment * kColumnAlignment;
    const std::int64_t end_col = std::min<std::int64_t>(
        cols, (static_cast<std::int64_t>(last_col) / kColumnAlignment + 1) * kColumnAlignment);
    strip.cols = static_cast<int>(end_col - strip.first_col);
    plan.strips.push_back(strip);
  }
  return plan;
}

}  // namespace course::step5
