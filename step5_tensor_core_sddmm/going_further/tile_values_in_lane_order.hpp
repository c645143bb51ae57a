/// @file tile_values_in_lane_order.hpp
/// @brief order_tile_values(): a valued S's values copied once, when the plan is made, into the
/// order in which register_tile_kernel's lanes hold the masked tiles' entries.
///
/// Why: in S's order, the values of a lane's eight entries lie in two rows of the tile, at
/// places that only the tile's descriptor tells; the kernel found them with shuffles and copied
/// them four bytes at a time, and a valued S cost up to twice its pattern's time, with DRAM 13 %
/// busy (NVIDIA H200, 2026-11-29, lab/NOTEBOOK.md). In the lanes' order a lane's eight values are
/// 32 consecutive bytes at a place known from the tile's number alone: two 16-byte copies, which
/// leave before the tile's descriptor has arrived.
///
/// The cost: kTileLaneValues floats per tile (1 KiB), where S holds 4 bytes per entry; the tiles
/// the plan keeps hold at least min_entries entries each. The copy belongs to the plan: a
/// DevicePattern's values never change after its upload. The ring (masked_tile_kernel) keeps
/// S's order: read in the lanes' order its valued cases did not gain (NVIDIA H200, 2026-11-30,
/// lab/results/lane_order_values_h200.md).
///
/// Step 5, going further: S's values in the masked tiles' lane order.
/// Read first: masked_tiles.hpp (MaskedTiles::lane_values), masked_tile_entries.cuh (which
/// entries a lane holds), sddmm_register_tiles.cuh (the kernel that reads them).
#pragma once

#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

namespace course::step5 {

/// @brief Fills @p tiles.lane_values from @p pattern's values: for each tile, lane by lane, the
/// value of each of the lane's eight entries, 0 where the tile does not hold the entry. Leaves
/// the buffer empty for a pattern S (unit_values: the kernels read no values) or no tile.
/// Queued on the default stream, after S's values (DevicePattern::values).
/// Throws DeviceMemoryError when the copy does not fit on the device.
/// @param tiles the plan's tiles (descriptors made by find_masked_tiles)
/// @param pattern S on the device
void order_tile_values(MaskedTiles& tiles, const DevicePattern& pattern);

}  // namespace course::step5
