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

#include <mma.h>

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
  int stages;                    ///< stages of Bᵀ in the ring (2..4)
  int item_steps;                ///< most steps of an item (the table's room)
  int group_steps;               ///< steps whose tiles of Bᵀ one stage holds (1..4)
  int chunk;                     ///< values of inner one stage holds (a multiple of 16)
};

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

/// @brief A lane's share of one tile's entries: the positions in S of its 8 (rows lane / 16,
/// + 2, ...; column lane % 16), -1 where the row's mask does not hold the column, and their
/// values (valued S only).
struct TileValues {
  int positions[kMaskedTileEdge / 2];  ///< position in S, or -1
  float scales[kMaskedTileEdge / 2];   ///< S's value there (0 where none)
};

/// @brief Finds a lane's positions in a tile from its descriptor and loads their values
/// (load_value_in_order): called before the tile's products, so that the loads, which
/// prefetch_tile_values has asked L2 for a group earlier, arrive while the products run.
/// Preconditions: every lane of the warp calls it (it shuffles with the full mask).
/// @param tile_start lane r < 16: row r's first position in S
/// @param tile_mask lane r < 16: row r's columns
/// @param values S's values
/// @return the lane's positions and values
__device__ inline TileValues load_tile_values(int tile_start, unsigned tile_mask,
                                              const float* __restrict__ values) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int col = lane % kMaskedTileEdge;
  TileValues found;
#pragma unroll
  for (int index = 0; index < kMaskedTileEdge / 2; ++index) {
    const int row = lane / kMaskedTileEdge + 2 * index;
    const unsigned row_mask = __shfl_sync(kAllLanes, tile_mask, row);
    const int row_start = __shfl_sync(kAllLanes, tile_start, row);
    const bool held = ((row_mask >> col) & 1u) != 0;
    found.positions[index] = held ? row_start + __popc(row_mask & ((1u << col) - 1u)) : -1;
  }
#pragma unroll
  for (int index = 0; index < kMaskedTileEdge / 2; ++index) {
    // A column the row does not hold loads values[0], unused.
    found.scales[index] = load_value_in_order(values + max(found.positions[index], 0));
  }
  return found;
}

/// @brief Writes a finished tile's entries of S: the accumulator goes to the warp's 16×16
/// floats in shared memory, then half-warps take the rows two at a time, lane c of a half
/// writing column c when the row's mask holds it, at start + (entries of the row before c).
/// A row's entries are consecutive in S, so each half-warp's stores are one run. A valued S
/// found its positions and loaded its values before the products (load_tile_values): the
/// stores then multiply and wait for nothing.
/// @tparam kValues S has values (@p found), else a pattern
/// @param accumulator the tile's product
/// @param result the warp's 16×16 floats in shared memory (32-byte aligned)
/// @param tile_start lane r < 16: the row's first position in S
/// @param tile_mask lane r < 16: the row's columns
/// @param found kValues: the lane's positions and values (load_tile_values)
/// @param output one float per entry of S
template <bool kValues>
__device__ inline void store_masked_tile(
    const nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float>& accumulator,
    float* result, int tile_start, unsigned tile_mask, const TileValues& found,
    float* __restrict__ output) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int col = lane % kMaskedTileEdge;
  const int first_row = lane / kMaskedTileEdge;
  nvcuda::wmma::store_matrix_sync(result, accumulator, kMaskedTileEdge,
                                  nvcuda::wmma::mem_row_major);
  __syncwarp();  // the whole tile is in shared memory before lanes read other lanes' values
  if constexpr (kValues) {
#pragma unroll
    for (int index = 0; index < kMaskedTileEdge / 2; ++index) {
      if (found.positions[index] >= 0) {
        const int row = first_row + 2 * index;
        output[found.positions[index]] = found.scales[index] * result[row * kMaskedTileEdge + col];
      }
    }
  } else {
    // Both half-warps make 8 passes, so every lane joins every shuffle.
    for (int row = first_row; row < kMaskedTileEdge; row += 2) {
      const unsigned row_mask = __shfl_sync(kAllLanes, tile_mask, row);
      const int row_start = __shfl_sync(kAllLanes, tile_start, row);
      if ((row_mask >> col) & 1u) {
        const int position = row_start + __popc(row_mask & ((1u << col) - 1u));
        output[position] = result[row * kMaskedTileEdge + col];
      }
    }
  }
  __syncwarp();  // every lane has read the tile before the warp's next tile overwrites it
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
