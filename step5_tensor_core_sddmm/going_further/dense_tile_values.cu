/// @file dense_tile_values.cu
/// @brief order_dense_tile_values(): one warp per row of a block tile copies the row's values
/// into the tile's columns.
///
/// Step 5, going further: S's values in the dense panels' tile order.
/// Read first: dense_tile_values.hpp.
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_tile_values.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_row_entries.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cstdint>

namespace course::step5 {
namespace {

/// Threads per block of the copy: eight tile rows.
constexpr int kOrderThreads = 256;

/// One warp per (tile, row): lane l writes columns l and 32 + l of the row, S's value where the
/// row's mask holds the column (its place in S: the row's first entry plus the bits below it),
/// else 0; a row whose count is not its mask's (a repeated position) is all zeros.
/// Preconditions: blockDim.x a multiple of 32.
__global__ void order_dense_tile_values_kernel(const DenseTile* __restrict__ tiles,
                                               const int* __restrict__ tile_starts,
                                               const unsigned long long* __restrict__ tile_masks,
                                               std::int64_t tile_count,
                                               const float* __restrict__ values,
                                               float* __restrict__ tile_values) {
  const std::int64_t tile_row =
      (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (tile_row >= tile_count * kTileMaskRows) {
    return;  // the last block's spare warps
  }
  const std::int64_t tile_index = tile_row / kTileMaskRows;
  const int row = static_cast<int>(tile_row % kTileMaskRows);
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const TileRowEntries entries =
      tile_row_entries(tiles[tile_index], tile_index, row, tile_starts, tile_masks);
  const bool plain = __popcll(entries.mask) == entries.count;  // no repeated position
  const LaneColumnRanks ranks = lane_column_ranks(entries.mask);
  float* target = tile_values + tile_row * kPanelTileCols;
  target[lane] = plain && ranks.holds_low ? values[entries.begin + ranks.low] : 0.0f;
  target[32 + lane] = plain && ranks.holds_high ? values[entries.begin + ranks.high] : 0.0f;
}

}  // namespace

void order_dense_tile_values(DensePanelTables& tables, const DevicePattern& pattern) {
  tables.tile_values = course::DeviceBuffer<float>();
  if (pattern.unit_values() || tables.tile_count == 0) {
    return;  // a pattern: no value to read
  }
  tables.tile_values =
      course::DeviceBuffer<float>(static_cast<std::size_t>(tables.tile_count) * kDenseTileValues,
                                  "the dense tiles' values in the tiles' order");
  order_dense_tile_values_kernel<<<
      blocks_for(tables.tile_count * kTileMaskRows * 32, kOrderThreads), kOrderThreads>>>(
      tables.storage.at<DenseTile>(tables.tiles_offset),
      tables.storage.at<int>(tables.tile_starts_offset),
      tables.storage.at<unsigned long long>(tables.tile_masks_offset), tables.tile_count,
      pattern.values(), tables.tile_values.data());
  CUDA_CHECK_LAUNCH(order_dense_tile_values_kernel);
}

}  // namespace course::step5
