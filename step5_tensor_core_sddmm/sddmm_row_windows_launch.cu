// Step 5, approach 4 (lesson Part 2, "Row windows"): the launch of row_window_kernel.
// Read first: sddmm_row_windows.cuh (the kernel), row_windows.hpp (the plan's table).
/// @file sddmm_row_windows_launch.cu
/// @brief Approach 4's row-window launch: one block per 16 rows and column window, inner
/// compiled in.
#include "approach_launches.hpp"
#include "common/cuda_check.hpp"
#include "launch_config.hpp"
#include "row_windows.hpp"
#include "sddmm_row_windows.cuh"
#include "wmma_tile_product.cuh"

#include <cstdint>

namespace course::step5 {
namespace {

/// Launches row_window_kernel with inner = 8·kFixedChunks.
template <int kFixedChunks>
void launch_with_inner(const RowWindowWork& work, const DenseOperands& operands,
                       const DevicePattern& pattern, const float* values, float* output) {
  const std::int64_t row_groups = (operands.rows + kRowWindowRows - 1) / kRowWindowRows;
  row_window_kernel<kRowWindowLanes, kRowWindowRows, kFixedChunks>
      <<<blocks_for(row_groups * work.windows, 1), 32 * kRowWindowRows>>>(
          operands, pattern.col_indices(), values, work.starts, work.windows, output);
  CUDA_CHECK_LAUNCH(row_window_kernel);
}

}  // namespace

bool launch_row_windows(const RowWindowWork& work, const DenseOperands& operands,
                        const DevicePattern& pattern, const float* values, float* output) {
  if (work.windows == 0 || !allows_vector_loads(operands.a, operands.lda) ||
      !allows_vector_loads(operands.b_transposed, operands.ldb)) {
    return false;  // no table, or rows that 16-byte loads cannot read: the lane groups
  }
  switch (operands.inner) {
    case 32:
      launch_with_inner<4>(work, operands, pattern, values, output);
      return true;
    case 64:
      launch_with_inner<8>(work, operands, pattern, values, output);
      return true;
    case 128:
      launch_with_inner<16>(work, operands, pattern, values, output);
      return true;
    case 256:
      launch_with_inner<32>(work, operands, pattern, values, output);
      return true;
    default:
      return false;  // choose_row_windows builds no table for another inner
  }
}

}  // namespace course::step5
