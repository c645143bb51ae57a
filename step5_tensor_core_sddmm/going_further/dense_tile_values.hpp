/// @file dense_tile_values.hpp
/// @brief order_dense_tile_values(): a valued S's values on the dense panels copied once, when
/// the plan is made, into each 64×64 block tile's own rows and columns.
///
/// Why: the dense-panel kernel stages each row's values before its copy-out. From S's order it
/// had to wait for the row's first entry in the tile (the tables), then copy one 4-byte value
/// per entry, and with values the kernel ran 7.14 M instructions against 3.87 M as a pattern, 19.9
/// µs against 14.5 (the 8192² window, inner 64; NVIDIA H200, 2026-11-30, lab/NOTEBOOK.md). In the
/// tile's order the block's 16 KiB of values lie at a place its number alone gives: 16-byte copies
/// that leave with the product's first stages.
///
/// The cost: kDenseTileValues floats per tile (16 KiB), zeros where S holds no entry; a dense
/// panel is one where S is dense enough for Tensor Cores. A row where S holds a position twice
/// keeps zeros here: the copy-out reads its values from S. The copy belongs to the plan: a
/// DevicePattern's values never change after its upload.
///
/// Step 5, going further: S's values in the dense panels' tile order.
/// Read first: dense_panel_tables.hpp (the tiles and their tables), sddmm_dense_panels.cuh (the
/// kernel that reads them).
#pragma once

#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

namespace course::step5 {

/// @brief Fills @p tables.tile_values from @p pattern's values: for each block tile, row by row,
/// S's value at each column, 0 where S holds none (or where the row holds a position twice).
/// Leaves the buffer empty for a pattern S (unit_values: the kernels read no values) or no
/// tile. Queued on the default stream, after the tables (upload_dense_panels) and S's values.
/// Throws DeviceMemoryError when the copy does not fit on the device.
/// @param tables the dense panels' tables
/// @param pattern S on the device
void order_dense_tile_values(DensePanelTables& tables, const DevicePattern& pattern);

}  // namespace course::step5
