// Step 5, approach 4 (lesson Part 2): the launches of its two kernels.
// Read first: sddmm_hybrid.cuh and sddmm_dense_panels.cuh (the kernels), dense_panel_tables.hpp.
/// @file sddmm_hybrid_launch.cu
/// @brief Approach 4's launches: the Tensor Core block tiles of the dense panels, then the
/// lane groups (lanes per nonzero, runs of nonzeros per block, inner compiled in where it matches).
#include "approach_launches.hpp"
#include "common/cuda_check.hpp"
#include "launch_config.hpp"
#include "sddmm_dense_panels.cuh"
#include "sddmm_hybrid.cuh"
#include "wmma_tile_product.cuh"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

constexpr int kPanelThreads = 256;  // dense_panel_kernel's 8 warps

/// Runs of nonzeros per block of the lane-group kernel when the options leave it open: as
/// many as keep at least kMinWaves full waves of blocks (counted as 8 blocks of 256 threads
/// per SM, the most an SM holds; the inner = 256 kernel's 40 registers let 6 in),
/// so that the last, partly filled wave stays a small part of the time; at most 8.
int automatic_lane_iterations(std::int64_t blocks_for_one_run) {
  constexpr int kResidentBlocks = 8;
  constexpr int kMinWaves = 4;
  constexpr int kMostIterations = 8;
  static const int sm_count = [] {
    int device = 0;
    int count = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const std::int64_t iterations =
      blocks_for_one_run / (static_cast<std::int64_t>(sm_count) * kResidentBlocks * kMinWaves);
  return static_cast<int>(std::clamp<std::int64_t>(iterations, 1, kMostIterations));
}

/// S's values as approach 4's kernels take them: nullptr when they are all one, and then
/// the kernels read none.
const float* approach4_values(const DevicePattern& pattern) {
  return pattern.unit_values() ? nullptr : pattern.values();
}

/// The arguments of one lane-group launch (approach 4's CUDA-core part).
struct LaneLaunch {
  unsigned blocks;
  const DenseOperands& operands;
  const DevicePattern& pattern;
  const int* panel_is_dense;
  int iterations;
  float* output;

  /// Launches one instantiation of lane_group_kernel with these arguments.
  template <typename Kernel>
  void operator()(Kernel kernel) const {
    kernel<<<blocks, kThreadsPerBlock>>>(operands, pattern.nnz(), pattern.row_indices(),
                                         pattern.col_indices(), approach4_values(pattern),
                                         panel_is_dense, iterations, output);
  }
};

/// Launches lane_group_kernel<kGroupLanes, true, skip, kFixedChunks> when inner = 8·kFixedChunks
/// and the rows allow 16-byte loads, and says whether it did.
template <int kGroupLanes, int kFixedChunks>
bool launch_fixed_inner(const LaneLaunch& launch, bool vector) {
  if (!vector || launch.operands.inner != 8 * kFixedChunks) {
    return false;
  }
  if (launch.panel_is_dense != nullptr) {
    launch(lane_group_kernel<kGroupLanes, true, true, kFixedChunks>);
  } else {
    launch(lane_group_kernel<kGroupLanes, true, false, kFixedChunks>);
  }
  return true;
}

/// Launches the lane-group kernel for any inner: a compiled-in inner (kFixedChunks... = inner / 8)
/// when one matches, else the runtime-inner kernel.
template <int kGroupLanes, int... kFixedChunks>
void launch_lane_groups_with(const DenseOperands& operands, const DevicePattern& pattern,
                             const int* panel_is_dense, int iterations, float* output) {
  const bool vector = allows_vector_loads(operands.a, operands.lda) &&
                      allows_vector_loads(operands.b_transposed, operands.ldb);
  const bool skip = panel_is_dense != nullptr;
  const std::int64_t blocks_for_one_run = blocks_for(pattern.nnz() * kGroupLanes, kThreadsPerBlock);
  if (iterations == 0) {
    iterations = automatic_lane_iterations(blocks_for_one_run);
  }
  const LaneLaunch launch{blocks_for(blocks_for_one_run, iterations),
                          operands,
                          pattern,
                          panel_is_dense,
                          iterations,
                          output};
  if ((launch_fixed_inner<kGroupLanes, kFixedChunks>(launch, vector) || ...)) {
    // launched with a compiled-in inner
  } else if (vector && skip) {
    launch(lane_group_kernel<kGroupLanes, true, true>);
  } else if (vector) {
    launch(lane_group_kernel<kGroupLanes, true, false>);
  } else if (skip) {
    launch(lane_group_kernel<kGroupLanes, false, true>);
  } else {
    launch(lane_group_kernel<kGroupLanes, false, false>);
  }
  CUDA_CHECK_LAUNCH(lane_group_kernel);
}

/// Lanes per nonzero when the options leave it open: 4 up to inner = 256 (each lane reads up to
/// 8 chunks of 8 halves of each row), doubling with inner, within the built sizes 4..32.
int automatic_group_lanes(int inner) {
  int lanes = 4;
  while (lanes < 32 && lanes * 64 < inner) {
    lanes *= 2;
  }
  return lanes;
}

void launch_lane_groups(int group_lanes, int iterations, const DenseOperands& operands,
                        const DevicePattern& pattern, const int* panel_is_dense, float* output) {
  // Compiled-in inner (as inner / 8): the inner of the automatic lane count (32..256 with 4 lanes,
  // 512 with 8, 1024 with 16) and inner = 256 for every lane count (the benchmark's lane
  // experiment).
  switch (group_lanes == 0 ? automatic_group_lanes(operands.inner) : group_lanes) {
    case 4:
      launch_lane_groups_with<4, 4, 8, 16, 32>(operands, pattern, panel_is_dense, iterations,
                                               output);
      break;
    case 8:
      launch_lane_groups_with<8, 32, 64>(operands, pattern, panel_is_dense, iterations, output);
      break;
    case 16:
      launch_lane_groups_with<16, 32, 128>(operands, pattern, panel_is_dense, iterations, output);
      break;
    case 32:
      launch_lane_groups_with<32, 32>(operands, pattern, panel_is_dense, iterations, output);
      break;
    default:
      throw std::invalid_argument("approach 4 groups of " + std::to_string(group_lanes) +
                                  " lanes are not built; choose 4, 8, 16 or 32");
  }
}

}  // namespace

void launch_hybrid(const DensePanelTables& tables, bool dense_panels, const Options& options,
                   const DenseOperands& operands, const DevicePattern& pattern, float* output) {
  const int* panel_slots = dense_panels ? tables.storage.at<int>(0) : nullptr;
  if (tables.tile_count > 0) {
    const bool vector_a = allows_vector_loads(operands.a, operands.lda);
    const bool vector_b = allows_vector_loads(operands.b_transposed, operands.ldb);
    dense_panel_kernel<<<blocks_for(tables.tile_count, 1), kPanelThreads>>>(
        operands, tables.storage.at<DenseTile>(tables.tiles_offset),
        tables.storage.at<int>(tables.tile_starts_offset), pattern.col_indices(),
        approach4_values(pattern), vector_a, vector_b, output);
    CUDA_CHECK_LAUNCH(dense_panel_kernel);
  }
  if (tables.sparse_rows) {
    launch_lane_groups(options.group_lanes, options.lane_iterations, operands, pattern, panel_slots,
                       output);
  }
}

}  // namespace course::step5
