/// @file panel_statistics.hpp
/// @brief What approach 4 decides from before any search: the entries of each 64-row panel of
/// S and the columns they span (PanelStatistics), measured while S is uploaded
/// (panel_pattern.hpp) or, for S uploaded by the lesson's DevicePattern, afterwards
/// (measure_panels).
///
/// Step 5, approach 4 (going further): S counted by 64-row panel.
/// Read first: panel_classification.cuh (why 64-row panels), then panel_pattern.hpp.
#pragma once

#include "common/launch_math.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief Rows per panel: approach 4 cuts S into panels of 64 rows, the height of its block
/// tiles (panel_classification.cuh says why 64).
constexpr int kPanelRows = 64;

/// @brief Panels of kPanelRows rows that cover @p rows, counted in 64 bits (rows may be
/// INT_MAX, where rows + 63 would overflow an int).
/// @param rows rows of S (>= 0)
/// @return ceil(rows / kPanelRows)
inline int panels_covering(int rows) {
  return static_cast<int>(course::ceil_div<std::int64_t>(rows, kPanelRows));
}

/// @brief The columns that the entries of one 64-row panel of S span.
struct PanelSpan {
  int first_col = -1;  ///< smallest column of the panel's entries (-1: no entry)
  int last_col = -1;   ///< largest column of the panel's entries (-1: no entry)
};

/// @brief S's entries and column span per 64-row panel.
struct PanelStatistics {
  std::vector<std::int64_t> nnz;  ///< entries of each panel
  std::vector<PanelSpan> spans;   ///< columns spanned by each panel's entries
};

/// @brief The statistics of @p pattern: those its upload measured when it is a PanelPattern
/// (the programs' and the benchmark's path), else measured now (S copied back to the host and
/// counted: one more pass, for S uploaded by the lesson's DevicePattern, as the tests do).
/// @param pattern S on the device
/// @param measured where a measurement is kept (the result may point into it)
/// @return the statistics, valid while @p pattern and @p measured live
const PanelStatistics& panel_statistics(const DevicePattern& pattern, PanelStatistics& measured);

}  // namespace course::step5
