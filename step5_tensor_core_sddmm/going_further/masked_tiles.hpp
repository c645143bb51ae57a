/// @file masked_tiles.hpp
/// @brief The masked tiles of S: 16×16 tiles holding enough of S's entries that a Tensor
/// Core product of the whole tile costs less than the lane groups' work on those entries
/// (tile_cost_model.hpp says how many), each described without a per-entry index.
///
/// Step 5, going further: Tensor Core tiles chosen one 16×16 tile at a time.
/// Read first: ../tile_grouping.hpp (approach 3's tiles), then this file, then
/// masked_tile_search.cu (how the tiles are found) and sddmm_masked_tiles.cuh (the kernel).
///
/// **The descriptor.** S is sorted row-major, so the entries of one row of a tile are
/// consecutive in S. A tile is then described by, for each of its 16 rows, the position in
/// S of the row's first entry in the tile (`start`) and a 16-bit mask of the columns it
/// holds: entry (r, c) of the tile, when bit c of mask[r] is set, sits at
/// `start[r] + popc(mask[r] & ((1 << c) - 1))`. A full tile has masks 0xFFFF; a causal
/// diagonal tile has 0x0001, 0x0003, ...; a row without entries has mask 0.
///
/// **Steps and items.** The kernel's blocks take 1, 2 or 4 neighbouring 16-row panels (a
/// "super-panel"), one warp per panel. A step is one tile column of a super-panel: the
/// block copies those 16 rows of Bᵀ into shared memory once, and each warp whose panel has
/// a tile there multiplies it. An item is one block's work: up to item_steps consecutive
/// steps of one super-panel, so that a long panel is shared among several blocks.
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace course::step5 {

/// @brief Rows and columns of a masked tile (two mma.sync m16n8k16 products side by side).
constexpr int kMaskedTileEdge = 16;
/// @brief The most values of the inner dimension one stage of Bᵀ holds.
constexpr int kMaskedMaxChunk = 256;
/// @brief Halves added to each row in shared memory, so that the 8 rows a fragment load
/// reads at once fall into different banks.
constexpr int kMaskedTilePad = 8;

/// @brief Warps per block of register_tile_kernel (each on its own item).
constexpr int kRegisterTileWarps = 4;
/// @brief Blocks of register_tile_kernel per SM that its launch bounds ask for, by the slices
/// of a pass: 4 blocks of 128 threads (at most 128 registers a thread on a 64K-register SM)
/// up to 4 slices; 3 (at most 168) for 8 slices, whose 64 registers of Bᵀ alone would make
/// 128 spill.
/// @param slices slices per pass
/// @return blocks per SM
__host__ __device__ constexpr int register_tile_blocks_per_sm(int slices) {
  return slices > 4 ? 3 : 4;
}
/// @brief Whether register_tile_kernel parks each lane's tile descriptor in shared memory
/// through the products (sddmm_register_tiles.cuh, CurrentRow): where its launch bounds leave
/// fewer registers than four blocks an SM would (8 slices).
/// @param slices slices per pass
/// @return whether the descriptors are parked
__host__ __device__ constexpr bool register_tile_parks_rows(int slices) {
  return register_tile_blocks_per_sm(slices) < 4;
}
/// @brief Values of inner one slice of register_tile_kernel holds: four lanes' 8-half pieces
/// of one row.
constexpr int kRegisterSliceDepth = 32;
/// @brief The most slices one pass of register_tile_kernel holds (256 values of inner).
constexpr int kMaxRegisterSlices = 8;

/// @brief Floats per tile of MaskedTiles::lane_values: every position of the 16×16 tile, in the
/// order register_tile_kernel's lanes hold them in their accumulators (lane by lane, each lane's
/// eight entries in a row: masked_tile_entries.cuh, tile_entry_row and tile_entry_col).
constexpr int kTileLaneValues = kMaskedTileEdge * kMaskedTileEdge;

/// @brief S's masked tiles and how the kernel walks them.
struct MaskedTiles {
  std::int64_t tile_count = 0;       ///< tiles on Tensor Cores
  std::int64_t covered = 0;          ///< entries of S inside them
  std::int64_t step_count = 0;       ///< tile columns of super-panels (group_masked_tiles)
  std::int64_t item_count = 0;       ///< blocks to launch (group_masked_tiles)
  int panels = 0;                    ///< panels per super-panel the steps were grouped for
  int item_steps = 0;                ///< most steps per item (group_masked_tiles)
  course::DeviceBuffer<int> starts;  ///< 16 per tile: S's position of each row's first entry
  course::DeviceBuffer<std::uint16_t> masks;    ///< 16 per tile: the columns each row holds
  course::DeviceBuffer<std::uint64_t> keys;     ///< per tile: (super-panel, tile column, panel)
  course::DeviceBuffer<unsigned char> outside;  ///< per entry of S: 1 when in no masked tile
  course::DeviceBuffer<int> step_cols;          ///< per step: its tile column
  course::DeviceBuffer<int> step_super_panels;  ///< per step: its super-panel
  course::DeviceBuffer<int> step_tiles;         ///< per step: `panels` tiles, -1 where none
  course::DeviceBuffer<int> item_first_steps;   ///< item_count + 1: each item's first step
  /// kTileLaneValues per tile, for a valued S on register_tile_kernel (order_tile_values): S's
  /// value of each entry where the lane that holds it reads it, 0 where the tile has none.
  course::DeviceBuffer<float> lane_values;

  /// @brief Device bytes held.
  /// @return bytes
  std::size_t bytes() const;
};

/// @brief Entries of S that other Tensor Core kernels already compute, left out of the
/// search (each covers whole 16×16 tiles: 64×64 full tiles and dense 64-row panels).
struct MaskedExclusion {
  const unsigned char* covered = nullptr;  ///< per entry: 1 inside a full tile (or nullptr)
  const int* panel_slot = nullptr;         ///< per 64-row panel: nonzero when dense (or nullptr)
};

/// @brief Finds S's masked tiles on the GPU (three kernels and two read-backs): the row
/// offsets of S, the candidate rows (a run of at least threshold.min_run entries in one tile
/// row), and one warp per candidate that reads the tile's 16 rows, keeps the tile when it
/// holds at least threshold.min_entries entries, writes its descriptor and marks its entries.
/// A tile with a repeated entry is left to the lane groups (its rows are then not one entry
/// per column). Finds nothing (and allocates only the flags) when S is empty.
/// @param pattern S on the device (sorted row-major, as DevicePattern guarantees)
/// @param threshold when a tile goes to Tensor Cores
/// @param panels panels per super-panel, for the tiles' keys (1, 2 or 4)
/// @param exclusion entries to leave out: no tile holds them, and their `outside` flag is 0
/// @return the tiles (not yet grouped into steps); its `outside` flags mark the entries in
/// no tile and not excluded
MaskedTiles find_masked_tiles(const DevicePattern& pattern, const TileThreshold& threshold,
                              int panels, const MaskedExclusion& exclusion = {});

/// @brief Groups the tiles into steps and items on the GPU (a radix sort of the keys, a
/// run-length encoding, scans): fills the step and item arrays of @p tiles and frees its
/// keys.
/// @param tiles from find_masked_tiles, with at least one tile
/// @param rows rows of S
/// @param cols columns of S
/// @param item_steps_for the most steps per item (1..kMaxItemSteps) given the number of
/// steps (choose_item_steps), called once the steps are counted
void group_masked_tiles(MaskedTiles& tiles, int rows, int cols,
                        const std::function<int(std::int64_t steps)>& item_steps_for);

/// @brief The entries of S in no masked tile and not excluded, in S's order (what the lane
/// groups compute).
/// @param tiles from find_masked_tiles
/// @param nnz entries of S
/// @param count their number (the entries not excluded, less tiles.covered)
/// @return their positions in S
course::DeviceBuffer<int> list_entries_outside(const MaskedTiles& tiles, std::int64_t nnz,
                                               std::int64_t count);

/// @brief Launches the masked tiles' kernel of @p shape: the ring (one block per item, the
/// shape's panels and stages) or register_tile_kernel (launch_register_tiles).
/// @param tiles grouped tiles (for a valued S on register_tile_kernel, with lane_values)
/// @param shape the launch shape (choose_masked_tile_shape; panels = tiles.panels)
/// @param operands A and Bᵀ
/// @param values S's values, or nullptr when every value is one
/// @param output one float per entry of S
/// @param stream stream to launch on (default stream when nullptr)
void launch_masked_tiles(const MaskedTiles& tiles, const MaskedTileShape& shape,
                         const DenseOperands& operands, const float* values, float* output,
                         cudaStream_t stream = nullptr);

/// @brief Launches register_tile_kernel: one warp per item, kRegisterTileWarps a block, the
/// pass depth of register_tile_slices (launch_masked_tiles calls it for a shape of that kernel).
/// Throws std::invalid_argument when S has values and @p tiles has no lane_values for them.
/// @param tiles tiles grouped for one panel per super-panel; for a valued S, with lane_values
/// (order_tile_values)
/// @param shape the launch shape (choose_register_tile_shape)
/// @param operands A and Bᵀ
/// @param values S's values, or nullptr when every value is one (the kernel reads the tiles'
/// lane_values in their place)
/// @param output one float per entry of S
/// @param stream stream to launch on (default stream when nullptr)
void launch_register_tiles(const MaskedTiles& tiles, const MaskedTileShape& shape,
                           const DenseOperands& operands, const float* values, float* output,
                           cudaStream_t stream = nullptr);

/// @brief Whether the masked-tile kernel loaded on the current device was compiled with
/// cp.async (its PTX is sm_80 or newer): a compute_75 build that the driver compiles for an
/// H100 has none, and then two stages suffice.
/// @return whether the copies are asynchronous
bool masked_tiles_compiled_with_async_copy();

}  // namespace course::step5
