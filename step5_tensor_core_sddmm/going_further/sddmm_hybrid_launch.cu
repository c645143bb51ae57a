/// @file sddmm_hybrid_launch.cu
/// @brief Approach 4's launches: the Tensor Core block tiles of the dense panels and of the
/// full tiles, then the lane groups (lanes per nonzero, runs of nonzeros per block, inner compiled
/// in where it matches), each kernel on its own stream of a ParallelLaunches, side by side.
///
/// Step 5, approach 4 (going further): the launches of its kernels.
/// Read first: sddmm_lane_groups.cuh and sddmm_dense_panels.cuh (the kernels),
/// dense_panel_tables.hpp, parallel_launches.hpp (the streams).
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "common/cuda_check.hpp"
#include "common/gpu_description.hpp"
#include "step5_tensor_core_sddmm/going_further/parallel_launches.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/going_further/sddmm_dense_panels.cuh"
#include "step5_tensor_core_sddmm/going_further/sddmm_full_tiles.cuh"
#include "step5_tensor_core_sddmm/going_further/sddmm_lane_groups.cuh"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace course::step5 {
namespace {

constexpr int kBlockTileThreads = 256;  // the full-tile kernel's 8 warps

/// Runs of nonzeros per block of the lane-group kernel when the options leave it open: as
/// many as keep at least kMinWaves full waves of blocks (counted as 8 blocks of 256 threads
/// per SM, the most an SM holds; the inner = 256 kernel's 40 registers let 6 in),
/// so that the last, partly filled wave stays a small part of the time; at most 8.
int automatic_lane_iterations(std::int64_t blocks_for_one_run) {
  constexpr int kResidentBlocks = 8;
  constexpr int kMinWaves = 4;
  constexpr int kMostIterations = 8;
  static const int sm_count = course::describe_current_gpu().sm_count;  // read once: runs call this
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
  LaneSelection selection;
  std::int64_t count;  // nonzeros to compute: S's, or the list's
  const int* panel_is_dense;
  const int* listed;
  int iterations;
  float* output;
  cudaStream_t stream;

  /// Launches one instantiation of sddmm_lane_groups_kernel with these arguments.
  template <typename Kernel>
  void operator()(Kernel kernel) const {
    kernel<<<blocks, kThreadsPerBlock, 0, stream>>>(
        operands, count, pattern.row_indices(), pattern.col_indices(), approach4_values(pattern),
        panel_is_dense, listed, iterations, output);
  }
};

/// Launches sddmm_lane_groups_kernel<kGroupLanes, kVector, selection, kFixedChunks> for the
/// launch's selection.
template <int kGroupLanes, bool kVector, int kFixedChunks = 0>
void launch_selected(const LaneLaunch& launch) {
  switch (launch.selection) {
    case LaneSelection::every:
      launch(sddmm_lane_groups_kernel<kGroupLanes, kVector, LaneSelection::every, kFixedChunks>);
      break;
    case LaneSelection::skip_dense_panels:
      launch(sddmm_lane_groups_kernel<kGroupLanes, kVector, LaneSelection::skip_dense_panels,
                                      kFixedChunks>);
      break;
    case LaneSelection::listed:
      launch(sddmm_lane_groups_kernel<kGroupLanes, kVector, LaneSelection::listed, kFixedChunks>);
      break;
  }
}

/// Launches the kernel with a compiled-in inner = 8·kFixedChunks when it matches and the rows
/// allow 16-byte loads, and says whether it did.
template <int kGroupLanes, int kFixedChunks>
bool launch_fixed_inner(const LaneLaunch& launch, bool vector) {
  if (!vector || launch.operands.inner != 8 * kFixedChunks) {
    return false;
  }
  launch_selected<kGroupLanes, true, kFixedChunks>(launch);
  return true;
}

/// Launches the lane-group kernel for any inner: a compiled-in inner (kFixedChunks... =
/// inner / 8) when one matches, else the runtime-inner kernel.
template <int kGroupLanes, int... kFixedChunks>
void launch_lane_groups_with(LaneLaunch launch) {
  const bool vector = allows_vector_loads(launch.operands.a, launch.operands.lda) &&
                      allows_vector_loads(launch.operands.b_transposed, launch.operands.ldb);
  const std::int64_t blocks_for_one_run = blocks_for(launch.count * kGroupLanes, kThreadsPerBlock);
  if (launch.iterations == 0) {
    launch.iterations = automatic_lane_iterations(blocks_for_one_run);
  }
  launch.blocks = blocks_for(blocks_for_one_run, launch.iterations);
  if ((launch_fixed_inner<kGroupLanes, kFixedChunks>(launch, vector) || ...)) {
    // launched with a compiled-in inner
  } else if (vector) {
    launch_selected<kGroupLanes, true>(launch);
  } else {
    launch_selected<kGroupLanes, false>(launch);
  }
  CUDA_CHECK_LAUNCH(sddmm_lane_groups_kernel);
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

void launch_lane_groups(int group_lanes, const LaneLaunch& launch) {
  // Compiled-in inner (as inner / 8): the inner of the automatic lane count (32..256 with 4
  // lanes, 512 with 8, 1024 with 16) and inner = 256 for every lane count (the benchmark's
  // lane experiment).
  switch (group_lanes == 0 ? automatic_group_lanes(launch.operands.inner) : group_lanes) {
    case 4:
      launch_lane_groups_with<4, 4, 8, 16, 32>(launch);
      break;
    case 8:
      launch_lane_groups_with<8, 32, 64>(launch);
      break;
    case 16:
      launch_lane_groups_with<16, 32, 128>(launch);
      break;
    case 32:
      launch_lane_groups_with<32, 32>(launch);
      break;
    default:
      throw std::invalid_argument("approach 4 groups of " + std::to_string(group_lanes) +
                                  " lanes are not built; choose 4, 8, 16 or 32");
  }
}

/// Calls @p launch with std::integral_constant<int, 64> or <int, 128>: the chunk of the
/// full-tile kernel that suits @p inner (block_tile_chunk).
template <typename Launch>
void with_block_tile_chunk(int inner, Launch launch) {
  if (block_tile_chunk(inner) == 64) {
    launch(std::integral_constant<int, 64>{});
  } else {
    launch(std::integral_constant<int, 128>{});
  }
}

/// The kernels of launch_hybrid, each on the next stream of @p launches.
void queue_hybrid(const DensePanelTables& tables, bool dense_panels, const FullTileWork& full,
                  const HybridOptions& options, const DenseOperands& operands,
                  const DevicePattern& pattern, float* output,
                  const std::function<void(ParallelLaunches&)>& between,
                  ParallelLaunches& launches) {
  const int* panel_slots = dense_panels ? tables.storage.at<int>(0) : nullptr;
  const bool vector_a = allows_vector_loads(operands.a, operands.lda);
  const bool vector_b = allows_vector_loads(operands.b_transposed, operands.ldb);
  const float* values = approach4_values(pattern);
  if (tables.tile_count > 0) {
    if (values != nullptr && tables.tile_values.size() !=
                                 static_cast<std::size_t>(tables.tile_count) * kDenseTileValues) {
      throw std::invalid_argument(
          "the dense panels of a valued S read its values in the tiles' order: " +
          std::to_string(tables.tile_count * kDenseTileValues) + " values expected for " +
          std::to_string(tables.tile_count) + " tiles, " +
          std::to_string(tables.tile_values.size()) + " made (order_dense_tile_values)");
    }
    const cudaStream_t stream = launches.next();
    const auto launch_dense_panels = [&](auto values_kind) {
      using Product = MmaBlockTileProduct<kDensePanelStages>;
      sddmm_dense_panels_kernel<kDensePanelStages, decltype(values_kind)::value>
          <<<blocks_for(tables.tile_count, 1), Product::kThreads, 0, stream>>>(
              operands, tables.storage.at<DenseTile>(tables.tiles_offset),
              tables.storage.at<int>(tables.tile_starts_offset),
              tables.storage.at<unsigned long long>(tables.tile_masks_offset),
              pattern.col_indices(), values,
              values != nullptr ? tables.tile_values.data() : nullptr, vector_a, vector_b, output);
      CUDA_CHECK_LAUNCH(sddmm_dense_panels_kernel);
    };
    if (values != nullptr) {
      launch_dense_panels(std::true_type{});
    } else {
      launch_dense_panels(std::false_type{});
    }
  }
  LaneLaunch lanes{0,
                   operands,
                   pattern,
                   LaneSelection::every,
                   pattern.nnz(),
                   panel_slots,
                   nullptr,
                   options.lane_iterations,
                   output,
                   nullptr};
  if (full.tile_count > 0) {
    // A valued S takes the kernel that prefetches its values (value_prefetch.cuh).
    const cudaStream_t stream = launches.next();
    with_block_tile_chunk(operands.inner, [&](auto chunk) {
      constexpr int kChunk = decltype(chunk)::value;
      const unsigned blocks = blocks_for(full.tile_count, 1);
      if (values != nullptr) {
        sddmm_full_tiles_valued_kernel<kChunk><<<blocks, kBlockTileThreads, 0, stream>>>(
            operands, full.tiles, full.row_starts, panel_slots, vector_a, vector_b, values, output);
      } else {
        sddmm_full_tiles_kernel<kChunk><<<blocks, kBlockTileThreads, 0, stream>>>(
            operands, full.tiles, full.row_starts, panel_slots, vector_a, vector_b, output);
      }
    });
    CUDA_CHECK_LAUNCH(sddmm_full_tiles_kernel);
  }
  if (between) {
    between(launches);
  }
  if (full.tile_count > 0 || full.list_always) {
    if (full.listed_count == 0) {
      return;  // the full tiles, the dense panels (and the masked tiles) hold every nonzero
    }
    lanes.selection = LaneSelection::listed;
    lanes.count = full.listed_count;
    lanes.listed = full.listed;
  } else if (!tables.sparse_rows) {
    return;  // the dense panels hold every nonzero
  } else if (panel_slots != nullptr) {
    lanes.selection = LaneSelection::skip_dense_panels;
  }
  lanes.stream = launches.next();
  launch_lane_groups(options.group_lanes, lanes);
}

}  // namespace

void launch_hybrid(const DensePanelTables& tables, bool dense_panels, const FullTileWork& full,
                   const HybridOptions& options, const DenseOperands& operands,
                   const DevicePattern& pattern, float* output,
                   const std::function<void(ParallelLaunches&)>& between, cudaStream_t stream) {
  ParallelLaunches launches(stream);
  queue_hybrid(tables, dense_panels, full, options, operands, pattern, output, between, launches);
  launches.join();
}

void launch_listed_lane_groups(const HybridOptions& options, const DenseOperands& operands,
                               const DevicePattern& pattern, const int* listed,
                               std::int64_t listed_count, float* output, cudaStream_t stream) {
  LaneLaunch lanes{0,
                   operands,
                   pattern,
                   listed == nullptr ? LaneSelection::every : LaneSelection::listed,
                   listed == nullptr ? pattern.nnz() : listed_count,
                   nullptr,
                   listed,
                   options.lane_iterations,
                   output,
                   stream};
  if (lanes.count > 0) {
    launch_lane_groups(options.group_lanes, lanes);
  }
}

}  // namespace course::step5
