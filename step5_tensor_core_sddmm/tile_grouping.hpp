/// @file tile_grouping.hpp
/// @brief Preprocessing of approach 3 on the GPU: group the nonzeros of S by 16×16 tile.
///
/// This is the step the note calls "other" and did on the host, where it took seconds
/// against a sub-millisecond kernel. Here it is a radix sort of one 64-bit key per nonzero
/// (tile row · tile columns + tile column) carrying the nonzero's index, a run-length
/// encoding of the sorted keys (one run per non-empty tile) and a prefix sum of the run
/// lengths: the note's `matrixTileIndex`, here `tile_offsets`.
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cstdint>
#include <cstddef>

namespace course::step5 {

/// @brief The nonzeros of S grouped by 16×16 tile, tiles in row-major order.
struct TileGroups {
  std::int64_t tile_count = 0;                    ///< number of non-empty tiles
  int tile_cols = 0;                              ///< tiles per tile row, ceil(cols / 16)
  course::DeviceBuffer<std::uint64_t> tile_keys;  ///< key of each non-empty tile
  course::DeviceBuffer<int> tile_offsets;         ///< tile t owns sorted positions [t], [t+1]
  course::DeviceBuffer<int> permutation;          ///< sorted position -> index in S
  course::DeviceBuffer<int> sorted_rows;          ///< row of each nonzero, tile order
  course::DeviceBuffer<int> sorted_cols;          ///< column of each nonzero, tile order
  course::DeviceBuffer<float> sorted_values;      ///< value of each nonzero, tile order

  /// @brief Device bytes held.
  std::size_t bytes() const;
};

/// @brief Groups @p pattern's nonzeros by tile on the GPU and waits for the result.
/// @param pattern S on the device
/// @return the groups
TileGroups group_by_tile(const DevicePattern& pattern);

}  // namespace course::step5
