/// @file sddmm_masked_tiles.cuh
/// @brief masked_tile_kernel: one block per item, one warp per 16-row panel of its
/// super-panel. The panels' rows of A are copied into shared memory once; the tile columns
/// of the item stream through a ring of stages of Bᵀ (the 16 rows of up to four tile columns,
/// up to 256 values of inner each), copied asynchronously several stages ahead where the GPU
/// has cp.async; every warp whose panel has a tile in a column multiplies it with WMMA
/// 16×16×16, and after the column's last chunk of inner writes the tile's entries of S, row by
/// row, through its starts and masks.
///
/// Step 5, going further: Tensor Cores on the masked 16×16 tiles, results stored straight into
/// S's value order through the tiles' descriptors.
/// Read first: masked_tiles.hpp (descriptors, steps, items), async_piece_copy.cuh (the copies),
/// ../wmma_tile_product.cuh (one warp, one WMMA tile).
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/value_prefetch.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cuda_fp16.h>
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

/// @brief Tensor Cores on the masked tiles: one block per item (blockIdx.x).
///
/// The item's steps are taken args.group_steps at a time, and inner args.chunk values at a
/// time: one stage holds the 16 rows of Bᵀ of each step of a group for one chunk of inner.
/// Groups of more than one step are used only when one chunk covers inner (then every tile
/// is finished within its stage); with several chunks a group is one step and the warp's
/// accumulator carries the tile from chunk to chunk. A stage is 8 KiB or so either way, so
/// that each barrier moves enough bytes (2 KiB stages, one per 64 values of inner, measured
/// 3–4× slower on the H100, 2026-11-25: a barrier and a wait per 2 KiB).
///
/// Preconditions: blockDim.x = 32 · kPanels; dynamic shared memory of
/// masked_tile_shared_bytes for this launch's panels, stages, inner, item_steps,
/// group_steps and chunk; the tables of group_masked_tiles grouped for kPanels panels and
/// at most args.item_steps steps per item; with @p kVector, allows_vector_loads for A and
/// Bᵀ; 2 <= args.stages <= 4; 1 <= args.group_steps <= kMaxGroupSteps, and 1 unless
/// args.chunk >= inner rounded up to 16.
/// @tparam kPanels 16-row panels per block, one warp each (1, 2 or 4)
/// @tparam kVector 16-byte copies (else one half at a time: odd leading dimensions)
/// @tparam kValues S has values (args.values), read through value_prefetch.cuh; false: a
/// pattern, args.values ignored
/// @param operands A and Bᵀ
/// @param args the tiles' tables
/// @param output one float per entry of S
template <int kPanels, bool kVector, bool kValues>
__global__ void __launch_bounds__(32 * kPanels)
    masked_tile_kernel(DenseOperands operands, MaskedTileArgs args, float* __restrict__ output) {
  static_assert(kPanels == 1 || kPanels == 2 || kPanels == 4, "1, 2 or 4 panels per block");
  using namespace nvcuda;
  constexpr int kThreads = 32 * kPanels;
  constexpr int kEdge = kMaskedTileEdge;
  extern __shared__ __align__(128) unsigned char shared[];
  const int thread = static_cast<int>(threadIdx.x);
  const int warp = thread / 32;
  const int lane = thread % 32;

  const int first_step = args.item_first_steps[blockIdx.x];
  const int step_count = args.item_first_steps[blockIdx.x + 1] - first_step;
  const int first_row = args.step_super_panels[first_step] * kPanels * kEdge;
  const int inner16 = wmma_padded(operands.inner);  // zeros past inner
  const int a_ld = inner16 + kMaskedTilePad;
  const int stage_ld = args.chunk + kMaskedTilePad;
  const int stage_rows = kEdge * args.group_steps;
  const int chunks = (inner16 + args.chunk - 1) / args.chunk;
  const int groups = (step_count + args.group_steps - 1) / args.group_steps;
  // Shared memory: each warp's 16×16 floats, the panels' rows of A, the ring of stages of
  // Bᵀ, and the item's table (tile column and the panels' tiles of each step).
  float* results = reinterpret_cast<float*>(shared);
  __half* a_rows = reinterpret_cast<__half*>(results + kPanels * kEdge * kEdge);
  __half* ring = a_rows + kPanels * kEdge * a_ld;
  const ItemTable table{
      reinterpret_cast<int*>(ring + args.stages * stage_rows * stage_ld),
      reinterpret_cast<int*>(ring + args.stages * stage_rows * stage_ld) + args.item_steps};

  for (int step = thread; step < step_count; step += kThreads) {
    table.cols[step] = args.step_cols[first_step + step];
  }
  for (int slot = thread; slot < step_count * kPanels; slot += kThreads) {
    table.tiles[slot] = args.step_tiles[first_step * kPanels + slot];
  }
  __syncthreads();  // the table is whole before threads copy the stages other threads listed

  // The panels' rows of A join the first group of copies: the first wait covers them.
  copy_slice<kVector>(a_rows, a_ld, operands.a, operands.lda, operands.rows, operands.inner,
                      first_row, kPanels * kEdge, 0, inner16, thread, kThreads);
  const int total = groups * chunks;  // stages: each group's chunks of inner
  // The stage copies' work, fixed for the launch: thread t copies piece t % pieces_per_row
  // (8 halves) of rows t / pieces_per_row, + rows_per_pass, ... of every stage, so that no
  // division is left in the loop (a stage row is row % 16 of step row / 16 of the group).
  const int pieces_per_row = args.chunk / 8;  // at most 32, so every row gets threads
  const int rows_per_pass = kThreads / pieces_per_row;
  const int my_first_row = thread / pieces_per_row;
  const int my_col = (thread - my_first_row * pieces_per_row) * 8;
  // Stage (group, chunk) holds, for each step of the group, its 16 rows of Bᵀ for the chunk.
  const auto copy_stage = [&](int group, int chunk, int slot) {
    const int k0 = chunk * args.chunk;
    if (my_first_row >= rows_per_pass || my_col >= min(args.chunk, inner16 - k0)) {
      return;  // spare threads, and pieces past inner rounded to 16 (never read)
    }
    const int k = k0 + my_col;
    __half* target = ring + slot * stage_rows * stage_ld + my_col;
    for (int row = my_first_row; row < stage_rows; row += rows_per_pass) {
      const int step = group * args.group_steps + row / kEdge;
      if (step >= step_count) {
        break;  // the item's last group may be short: its missing steps are never read
      }
      const int b_row = table.cols[step] * kEdge + row % kEdge;
      // Rows past the last column of S (a tile cut by the edge) and values past inner copy
      // nothing and read as zeros.
      const int valid = b_row < operands.cols ? max(0, min(8, operands.inner - k)) : 0;
      const __half* source =
          valid > 0 ? operands.b_transposed + static_cast<long long>(b_row) * operands.ldb + k
                    : operands.b_transposed;
      copy_piece<kVector>(target + row * stage_ld, source, valid);
    }
  };
  // Where the next stage to copy lies: its group, its chunk and its slot in the ring.
  int copy_group = 0;
  int copy_chunk = 0;
  int copy_slot = 0;
  const auto advance_copy = [&] {
    copy_slot = copy_slot + 1 == args.stages ? 0 : copy_slot + 1;
    if (++copy_chunk == chunks) {
      copy_chunk = 0;
      ++copy_group;
    }
  };
  for (int stage = 0; stage < args.stages - 1; ++stage) {
    if (stage < total) {
      copy_stage(copy_group, copy_chunk, copy_slot);
      advance_copy();
    }
    commit_pieces();  // one group per stage, empty past the last, so the count stays exact
  }

  // The warp's descriptors of the current group, and of the next one loaded a group ahead
  // so that their latency hides behind the group's stages.
  GroupDescriptors next =
      load_group_descriptors<kPanels>(args, table, 0, args.group_steps, step_count, warp, lane);
  GroupDescriptors current{};
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> accumulator;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_part;
  // Bᵀ row-major is B column-major: B(k, n) of the stage sits at stage[n * ld + k].
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_part;
  const __half* a_warp = a_rows + warp * kEdge * a_ld;
  int group = 0;
  int chunk = 0;
  int slot_in_ring = 0;
  for (int stage = 0; stage < total; ++stage) {
    wait_pieces(args.stages - 2);  // this thread's copies of `stage` (and of A) have landed
    __syncthreads();  // every thread's copies of `stage` are visible, and every warp is done
                      // with stage - 1, whose buffer the next copy overwrites
    if (stage + args.stages - 1 < total) {
      copy_stage(copy_group, copy_chunk, copy_slot);
      advance_copy();
    }
    commit_pieces();
    if (chunk == 0) {
      current = next;
      next = load_group_descriptors<kPanels>(args, table, group + 1, args.group_steps, step_count,
                                             warp, lane);
      if constexpr (kValues) {
        if (group == 0) {
          prefetch_tile_values(args.values, current);  // later groups were asked for earlier
        }
      }
    }
    const int k0 = chunk * args.chunk;
    const int depth_steps = min(args.chunk, inner16 - k0) / 16;
    const __half* stage_b = ring + slot_in_ring * stage_rows * stage_ld;
#pragma unroll
    for (int slot = 0; slot < kMaxGroupSteps; ++slot) {
      const int step = group * args.group_steps + slot;
      if (slot >= args.group_steps || step >= step_count ||
          table.tiles[step * kPanels + warp] < 0) {
        continue;  // no tile of this warp's panel in the step (the same for the whole warp)
      }
      if (chunk == 0) {
        wmma::fill_fragment(accumulator, 0.0f);
      }
      TileValues found{};
      if constexpr (kValues) {
        if (chunk == chunks - 1) {
          // The values' loads leave before the products: these run while they arrive.
          found = load_tile_values(current.start[slot], current.mask[slot], args.values);
        }
      }
      const __half* tile_b = stage_b + slot * kEdge * stage_ld;
#pragma unroll 4
      for (int depth = 0; depth < depth_steps; ++depth) {
        wmma::load_matrix_sync(a_part, a_warp + k0 + depth * 16, a_ld);
        wmma::load_matrix_sync(b_part, tile_b + depth * 16, stage_ld);
        wmma::mma_sync(accumulator, a_part, b_part, accumulator);
      }
      if (chunk == chunks - 1) {
        store_masked_tile<kValues>(accumulator, results + warp * kEdge * kEdge, current.start[slot],
                                   current.mask[slot], found, output);
      }
    }
    if constexpr (kValues) {
      if (chunk == chunks - 1) {
        // The next group's descriptors were loaded at this group's start: L2 can fetch its
        // values while this block waits at the next barrier and copies the next stage.
        prefetch_tile_values(args.values, next);
      }
    }
    slot_in_ring = slot_in_ring + 1 == args.stages ? 0 : slot_in_ring + 1;
    if (++chunk == chunks) {
      chunk = 0;
      ++group;
    }
  }
  wait_pieces(0);  // no copy may still be in flight when the block's shared memory is freed
}

}  // namespace course::step5
