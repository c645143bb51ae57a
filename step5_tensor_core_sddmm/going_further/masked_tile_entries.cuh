/// @file masked_tile_entries.cuh
/// @brief What masked_tile_kernel knows of each tile's entries in S: its arguments and the
/// item's table, the warps' descriptors of a group of steps (loaded a group ahead), a lane's
/// positions and values in a tile, the masked store of a finished tile, and the L2 prefetch
/// of the next group's values.
///
/// Step 5, going further: the masked tiles' entries. Read first: masked_tiles.hpp (the
/// descriptor: a start and a 16-bit mask per tile row), value_prefetch.cuh.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/value_prefetch.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief What masked_tile_kernel reads besides the operands.
struct MaskedTileArgs {
  const int* starts;             ///< 16 per tile
  const std::uint16_t* masks;    ///< 16 per tile
  const int* step_cols;          ///< tile column of each step
  const int* step_super_panels;  ///< super-panel of each step
  const int* step_tiles;         ///< panels per step: the tile, or -1
  const int* item_first_steps;   ///< first step of each item, and the end
  const float* values;           ///< S's values, or nullptr when all are one
  const float* lane_values;      ///< the values in the lanes' order (MaskedTiles), or nullptr
  int stages;                    ///< stages of Bᵀ in the ring (2..4)
  int item_steps;                ///< most steps of an item (the table's room)
  int group_steps;               ///< steps whose tiles of Bᵀ one stage holds (1..4)
  int chunk;                     ///< values of inner one stage holds (a multiple of 16)
};

/// @brief The kernels' arguments for @p tiles, launched with @p shape.
/// @param tiles grouped tiles
/// @param shape the launch shape
/// @param values S's values, or nullptr when every value is one
/// @return the arguments (lane_values: the tiles' values in the lanes' order when S has values
/// and the plan made them, else nullptr)
inline MaskedTileArgs masked_tile_args(const MaskedTiles& tiles, const MaskedTileShape& shape,
                                       const float* values) {
  const bool ordered = values != nullptr && tiles.lane_values.size() > 0;
  return MaskedTileArgs{tiles.starts.data(),
                        tiles.masks.data(),
                        tiles.step_cols.data(),
                        tiles.step_super_panels.data(),
                        tiles.step_tiles.data(),
                        tiles.item_first_steps.data(),
                        values,
                        ordered ? tiles.lane_values.data() : nullptr,
                        shape.stages,
                        tiles.item_steps,
                        shape.group_steps,
                        shape.chunk};
}

/// @brief The most steps one stage holds (masked_tile_kernel's registers of descriptors).
constexpr int kMaxGroupSteps = 4;

/// @brief The item's table of steps in shared memory: each step's tile column and, for each
/// panel, its tile (-1: none).
struct ItemTable {
  int* cols;   ///< tile column of each step
  int* tiles;  ///< kPanels tiles per step
};

/// @brief Lane r < 16's start and mask of row r of the warp's tiles in one group of steps.
struct GroupDescriptors {
  int start[kMaxGroupSteps];      ///< per step of the group
  unsigned mask[kMaxGroupSteps];  ///< per step of the group (0 where the warp has no tile)
};

/// @brief Loads the warp's descriptors of group @p group (lanes 0..15; the rows' masks are 0
/// where the warp's panel has no tile in a step, or past the item's last step).
/// @tparam kPanels panels per block
/// @param args the tiles' tables
/// @param table the item's table
/// @param group the group of steps
/// @param group_steps steps per group
/// @param step_count steps of the item
/// @param warp the warp (its panel)
/// @param lane the lane
/// @return the descriptors
template <int kPanels>
__device__ inline GroupDescriptors load_group_descriptors(const MaskedTileArgs& args,
                                                          const ItemTable& table, int group,
                                                          int group_steps, int step_count, int warp,
                                                          int lane) {
  GroupDescriptors loaded{};
#pragma unroll
  for (int slot = 0; slot < kMaxGroupSteps; ++slot) {
    const int step = group * group_steps + slot;
    const int tile =
        slot < group_steps && step < step_count ? table.tiles[step * kPanels + warp] : -1;
    if (tile >= 0 && lane < kMaskedTileEdge) {
      loaded.start[slot] = args.starts[tile * kMaskedTileEdge + lane];
      loaded.mask[slot] = args.masks[tile * kMaskedTileEdge + lane];
    }
  }
  return loaded;
}

/// @brief Entries of a tile that one lane holds in a warp's m16n8k16 accumulators: rows
/// lane / 4 and + 8, columns 2·(lane % 4), +1, + 8 and + 9 (mma_fragments.cuh).
constexpr int kTileEntriesPerLane = 8;

/// @brief The accumulators of a warp's 16×16 tile: the two 16×8 halves of mma_16x8x16.
using TileAccumulator = float[2][4];

/// @brief A lane's entry @p entry of the tile in the accumulators. A lane's eight entries are
/// numbered 4·(second row) + 2·(second half) + (second column of the pair): 0 and 1 are
/// columns 2·(lane % 4) and +1 of row lane / 4, 2 and 3 the same eight columns on, 4 to 7 the
/// same eight rows down (tile_entry_row, tile_entry_col).
/// @param accumulator the tile's two 16×8 halves
/// @param entry 0..kTileEntriesPerLane - 1
/// @return the product there
__device__ __forceinline__ float tile_entry(const TileAccumulator& accumulator, int entry) {
  return accumulator[(entry / 2) % 2][(entry / 4) * 2 + entry % 2];
}

/// @brief Row of the tile that lane @p lane holds as its entry @p entry.
/// @param lane the lane
/// @param entry 0..kTileEntriesPerLane - 1
/// @return the row, 0..15
__device__ __forceinline__ int tile_entry_row(int lane, int entry) {
  return lane / 4 + (entry / 4) * 8;
}

/// @brief Column of the tile that lane @p lane holds as its entry @p entry.
/// @param lane the lane
/// @param entry 0..kTileEntriesPerLane - 1
/// @return the column, 0..15
__device__ __forceinline__ int tile_entry_col(int lane, int entry) {
  return ((entry / 2) % 2) * 8 + (lane % 4) * 2 + entry % 2;
}

/// @brief A lane's share of one tile's entries: the positions in S of the entries it holds in
/// the accumulators (tile_entry_row, tile_entry_col), -1 where the row's mask does not hold
/// the column, and their values (valued S only).
struct TileValues {
  int positions[kTileEntriesPerLane];  ///< position in S, or -1
  float scales[kTileEntriesPerLane];   ///< S's value there (valued S only)
};

/// @brief Finds where in S the entries a lane holds lie, from the tile's descriptor: entry
/// (r, c), when bit c of row r's mask is set, at start + (entries of the row before c).
/// Preconditions: every lane of the warp calls it (it shuffles with the full mask).
/// @param tile_start lane r < 16: row r's first position in S
/// @param tile_mask lane r < 16: row r's columns
/// @param positions the lane's positions in S, -1 where none
__device__ inline void find_tile_positions(int tile_start, unsigned tile_mask,
                                           int (&positions)[kTileEntriesPerLane]) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  // The lane's two rows (entries 0-3 and 4-7): lane r < 16 holds row r's start and mask.
  const int rows[2] = {tile_entry_row(lane, 0), tile_entry_row(lane, 4)};
  unsigned row_masks[2];
  int row_starts[2];
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    row_masks[half] = __shfl_sync(kAllLanes, tile_mask, rows[half]);
    row_starts[half] = __shfl_sync(kAllLanes, tile_start, rows[half]);
  }
#pragma unroll
  for (int entry = 0; entry < kTileEntriesPerLane; ++entry) {
    const unsigned row_mask = row_masks[entry / 4];
    const int col = tile_entry_col(lane, entry);
    const bool held = ((row_mask >> col) & 1u) != 0;
    positions[entry] = held ? row_starts[entry / 4] + __popc(row_mask & ((1u << col) - 1u)) : -1;
  }
}

/// @brief Finds a lane's positions in a tile (find_tile_positions) and loads their values
/// (load_value_in_order): called before the tile's products, so that the loads, which
/// prefetch_tile_values has asked L2 for a group earlier, arrive while the products run.
/// Preconditions: every lane of the warp calls it.
/// @param tile_start lane r < 16: row r's first position in S
/// @param tile_mask lane r < 16: row r's columns
/// @param values S's values
/// @return the lane's positions and values
__device__ inline TileValues load_tile_values(int tile_start, unsigned tile_mask,
                                              const float* __restrict__ values) {
  TileValues found;
  find_tile_positions(tile_start, tile_mask, found.positions);
#pragma unroll
  for (int entry = 0; entry < kTileEntriesPerLane; ++entry) {
    // A column the row does not hold loads values[0], unused.
    found.scales[entry] = load_value_in_order(values + max(found.positions[entry], 0));
  }
  return found;
}

/// @brief Writes a lane's two neighbouring entries (columns c and c + 1 of one row): as one
/// 8-byte store when the row holds both (then the second follows the first in S) and the first's
/// address is 8-byte aligned, else each one the row holds on its own.
/// @param first_position the first entry's position in S, or -1
/// @param second_position the second's, or -1
/// @param first the first's product (times its value for a valued S)
/// @param second the second's
/// @param output one float per entry of S
__device__ __forceinline__ void store_entry_pair(int first_position, int second_position,
                                                 float first, float second,
                                                 float* __restrict__ output) {
  if (first_position >= 0 && second_position >= 0 &&
      reinterpret_cast<std::uintptr_t>(output + first_position) % 8 == 0) {
    *reinterpret_cast<float2*>(output + first_position) = make_float2(first, second);
    return;
  }
  if (first_position >= 0) {
    output[first_position] = first;
  }
  if (second_position >= 0) {
    output[second_position] = second;
  }
}

/// @brief Writes a finished tile's entries of S straight from the accumulators: each lane its
/// own eight, where the rows' masks hold them, in pairs of neighbouring columns
/// (store_entry_pair). A row's entries are consecutive in S, so a full row's four lanes write
/// 32 consecutive bytes with one instruction. A valued S found its positions and loaded its
/// values before the products (load_tile_values): the stores then multiply and wait for
/// nothing; a pattern finds its positions here.
/// Preconditions: every lane of the warp calls it.
/// @tparam kValues S has values (@p found), else a pattern
/// @param accumulator the tile's product
/// @param tile_start lane r < 16: the row's first position in S
/// @param tile_mask lane r < 16: the row's columns
/// @param found kValues: the lane's positions and values (load_tile_values)
/// @param output one float per entry of S
template <bool kValues>
__device__ inline void store_masked_tile(const TileAccumulator& accumulator, int tile_start,
                                         unsigned tile_mask, const TileValues& found,
                                         float* __restrict__ output) {
  int positions[kTileEntriesPerLane];
  if constexpr (kValues) {
#pragma unroll
    for (int entry = 0; entry < kTileEntriesPerLane; ++entry) {
      positions[entry] = found.positions[entry];
    }
  } else {
    find_tile_positions(tile_start, tile_mask, positions);
  }
#pragma unroll
  for (int entry = 0; entry < kTileEntriesPerLane; entry += 2) {
    float first = tile_entry(accumulator, entry);
    float second = tile_entry(accumulator, entry + 1);
    if constexpr (kValues) {
      first *= found.scales[entry];
      second *= found.scales[entry + 1];
    }
    store_entry_pair(positions[entry], positions[entry + 1], first, second, output);
  }
}

/// @brief Asks L2 for the values of the warp's tiles in one group of steps: lane r < 16 the
/// run of row r of each tile (its start and the popcount of its mask). The kernel asks for
/// the next group's at the end of a group, a whole group before load_tile_values reads them.
/// @param values S's values
/// @param group the warp's descriptors of the group (masks 0 where it has no tile)
__device__ inline void prefetch_tile_values(const float* values, const GroupDescriptors& group) {
#pragma unroll
  for (int slot = 0; slot < kMaxGroupSteps; ++slot) {
    prefetch_value_run(values + group.start[slot], __popc(group.mask[slot]));
  }
}

}  // namespace course::step5
