/// @file tile_values_in_lane_order.cu
/// @brief order_tile_values(): one warp per masked tile finds its lanes' entries in S and copies
/// their values into the lanes' order.
///
/// Step 5, going further: S's values in the masked tiles' lane order.
/// Read first: tile_values_in_lane_order.hpp.
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tile_entries.cuh"
#include "step5_tensor_core_sddmm/going_further/tile_values_in_lane_order.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cstdint>

namespace course::step5 {
namespace {

static_assert(32 * kTileEntriesPerLane == kTileLaneValues, "a tile's values are its lanes' eight");

/// Threads per block of the copy: eight tiles.
constexpr int kOrderThreads = 256;

/// One warp per tile: lane l writes its eight entries' values (0 where the tile lacks the entry)
/// to lane_values[tile · kTileLaneValues + 8 · l ..]. Preconditions: blockDim.x a multiple of 32.
__global__ void order_tile_values_kernel(const int* __restrict__ starts,
                                         const std::uint16_t* __restrict__ masks,
                                         std::int64_t tile_count, const float* __restrict__ values,
                                         float* __restrict__ lane_values) {
  const std::int64_t tile = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (tile >= tile_count) {
    return;  // the last block's spare warps (whole warps: find_tile_positions shuffles)
  }
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int row = lane % kMaskedTileEdge;  // lane r < 16 holds row r's descriptor
  int positions[kTileEntriesPerLane];
  find_tile_positions(starts[tile * kMaskedTileEdge + row], masks[tile * kMaskedTileEdge + row],
                      positions);
  float ordered[kTileEntriesPerLane];
#pragma unroll
  for (int entry = 0; entry < kTileEntriesPerLane; ++entry) {
    ordered[entry] = positions[entry] >= 0 ? values[positions[entry]] : 0.0f;
  }
  float* target = lane_values + tile * kTileLaneValues + lane * kTileEntriesPerLane;
  reinterpret_cast<float4*>(target)[0] =
      make_float4(ordered[0], ordered[1], ordered[2], ordered[3]);
  reinterpret_cast<float4*>(target)[1] =
      make_float4(ordered[4], ordered[5], ordered[6], ordered[7]);
}

}  // namespace

void order_tile_values(MaskedTiles& tiles, const DevicePattern& pattern) {
  tiles.lane_values = course::DeviceBuffer<float>();
  if (pattern.unit_values() || tiles.tile_count == 0) {
    return;  // a pattern: no value to read
  }
  tiles.lane_values =
      course::DeviceBuffer<float>(static_cast<std::size_t>(tiles.tile_count) * kTileLaneValues,
                                  "the masked tiles' values in the lanes' order");
  order_tile_values_kernel<<<blocks_for(tiles.tile_count * 32, kOrderThreads), kOrderThreads>>>(
      tiles.starts.data(), tiles.masks.data(), tiles.tile_count, pattern.values(),
      tiles.lane_values.data());
  CUDA_CHECK_LAUNCH(order_tile_values_kernel);
}

}  // namespace course::step5
