// Step 5, approach 4 (lesson Part 2, "Row windows"): when the rows walk side by side, and the
// table of where each row enters each window.
// Read first: sddmm_row_windows.cuh (the kernel), then row_windows.cu.
/// @file row_windows.hpp
/// @brief Approach 4's row windows: the choice (from S's density and shape) and the table of
/// each row's first nonzero in each column window, built on the GPU by the plan.
#pragma once

#include "common/matrix.hpp"
#include "step5_launchers.hpp"

namespace course::step5 {

/// @brief Rows (warps) per block of row_window_kernel: 16 rows of 32 threads.
constexpr int kRowWindowRows = 16;

/// @brief Lanes per nonzero of row_window_kernel: those of the lane groups up to inner = 256.
constexpr int kRowWindowLanes = 4;

/// @brief The plan's row windows, as the launch takes them.
struct RowWindows {
  course::DeviceBuffer<int> starts;  ///< rows × (windows + 1) entry indices (row_window_kernel)
  int windows = 0;                   ///< column windows per row; 0: the path is not used
};

/// @brief The share of the loads of rows of Bᵀ that another row of the same block has already
/// brought into L1, for @p rows rows side by side in a uniform mask of @p density: each
/// column of the window is used by rows·density nonzeros and loaded once if any,
/// 1 - (1 - density)^rows of the time.
/// @param density nonzeros / (rows · cols) of S
/// @param rows rows side by side
/// @return the share of loads saved, in [0, 1)
double row_window_reuse(double density, int rows);

/// @brief How many column windows approach 4 gives each row, or 0 to keep the lane groups
/// in S's order: 0 when Options::row_windows is off, when @p inner is not compiled in for
/// row_window_kernel (32, 64, 128 or 256) or the lanes per nonzero are forced, when S has
/// more than INT_MAX entries, when row_window_reuse at S's density stays below
/// Options::row_window_min_reuse, or when S's 64-row panels are so uneven that one row's warp
/// would hold its block long after the others (the fullest panel over 8 times the mean).
/// Otherwise enough windows that the grid fills every SM twice over, but no fewer than 16
/// nonzeros per row and window on average (two passes of a warp).
/// @param pattern S on the device
/// @param inner the inner size
/// @param options the switch and the threshold
/// @return the number of windows, or 0
int choose_row_windows(const DevicePattern& pattern, int inner, const Options& options);

/// @brief Builds the table of row_window_kernel on the GPU: for each row and each window w,
/// the first entry of the row whose column is at least w·cols / windows, then the row's end
/// (one thread per table entry, a binary search over S's sorted entries).
/// @param pattern S on the device (at most INT_MAX entries)
/// @param windows column windows per row (>= 1)
/// @return the table
RowWindows build_row_windows(const DevicePattern& pattern, int windows);

}  // namespace course::step5
