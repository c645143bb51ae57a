/// @file sddmm_masked_tiles.cuh
/// @brief masked_tile_kernel: one block per item, one warp per 16-row panel of its
/// super-panel. The panels' rows of A are copied into shared memory once; the tile columns
/// of the item stream through a ring of stages of Bᵀ (the 16 rows of up to four tile columns,
/// up to 256 values of inner each), copied asynchronously several stages ahead where the GPU
/// has cp.async; every warp whose panel has a tile in a column multiplies it with `ldmatrix`
/// and `mma.sync` m16n8k16, and after the column's last chunk of inner writes the tile's
/// entries of S from its registers, through the tile's starts and masks.
///
/// Why not WMMA (as this kernel was first written): with WMMA's fragments opaque, a finished
/// tile had to go through shared memory (store_matrix_sync) before its lanes could find their
/// entries' places; with mma.sync's documented layout each lane writes its own eight entries
/// straight from the registers, and a 16-deep step is two `ldmatrix.x4` and two `mma.sync`.
/// Measured on an H200 (2026-11-29, lab/results/masked_tiles_mma_h200.md): 0.908 of WMMA's
/// time over 16 pattern cases, 0.985 over their valued twins.
///
/// Step 5, going further: Tensor Cores on the masked 16×16 tiles, results stored straight into
/// S's value order through the tiles' descriptors.
/// Read first: masked_tiles.hpp (descriptors, steps, items), masked_tile_entries.cuh (the
/// tiles' entries: descriptors, values, the masked store), masked_tile_ring.cuh (the ring of
/// stages and its copies), mma_fragments.cuh (ldmatrix, mma.sync and their fragments).
#pragma once

#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tile_entries.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tile_ring.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/mma_fragments.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

/// @brief Where masked_tile_kernel's dynamic shared memory holds what, in this order (the
/// order masked_tile_shared_bytes counts): the panels' rows of A, the ring of stages of Bᵀ,
/// and the item's table (tile column and the panels' tiles of each step).
struct MaskedTileShared {
  __half* a_rows;   ///< the panels' rows of A, a_ld halves each
  __half* ring;     ///< args.stages stages of stage_rows rows of stage_ld halves
  ItemTable table;  ///< the item's table, room for args.item_steps steps
};

/// @brief Divides the block's dynamic shared memory (MaskedTileShared).
/// @tparam kPanels panels per block
/// @param shared the block's dynamic shared memory
/// @param args the tiles' tables (stages, item_steps)
/// @param a_ld halves per row of A
/// @param stage_rows rows of one stage
/// @param stage_ld halves per stage row
/// @return the parts
template <int kPanels>
__device__ __forceinline__ MaskedTileShared divide_masked_tile_shared(unsigned char* shared,
                                                                      const MaskedTileArgs& args,
                                                                      int a_ld, int stage_rows,
                                                                      int stage_ld) {
  __half* a_rows = reinterpret_cast<__half*>(shared);
  __half* ring = a_rows + kPanels * kMaskedTileEdge * a_ld;
  int* table_start = reinterpret_cast<int*>(ring + args.stages * stage_rows * stage_ld);
  return {a_rows, ring, ItemTable{table_start, table_start + args.item_steps}};
}

/// @brief Copies the item's table of steps into shared memory (every thread of the block
/// takes part; the caller waits at a barrier before reading it).
/// @tparam kPanels panels per block
/// @param args the tiles' tables
/// @param table the item's table in shared memory
/// @param first_step the item's first step
/// @param step_count its steps
template <int kPanels>
__device__ inline void load_item_table(const MaskedTileArgs& args, const ItemTable& table,
                                       int first_step, int step_count) {
  constexpr int kThreads = 32 * kPanels;
  for (int step = static_cast<int>(threadIdx.x); step < step_count; step += kThreads) {
    table.cols[step] = args.step_cols[first_step + step];
  }
  for (int slot = static_cast<int>(threadIdx.x); slot < step_count * kPanels; slot += kThreads) {
    table.tiles[slot] = args.step_tiles[first_step * kPanels + slot];
  }
}

/// @brief One warp's products of one stage: for each step of the stage's group where the
/// warp's panel has a tile, the tile's chunk of inner with `ldmatrix` and `mma.sync`
/// (mma_fragments.cuh), and after the last chunk its entries stored (store_masked_tile).
/// @tparam kPanels panels per block
/// @tparam kValues S has values
/// @param args the tiles' tables
/// @param table the item's table
/// @param at the stage
/// @param chunks chunks per group
/// @param step_count steps of the item
/// @param stage_b the stage's rows of Bᵀ
/// @param stage_ld halves per stage row
/// @param a_warp the warp's 16 rows of A in shared memory (a_ld halves each)
/// @param a_ld halves per row of A
/// @param inner16 inner rounded up to 16
/// @param current the warp's descriptors of the group
/// @param accumulator the warp's tile, carried from chunk to chunk
/// @param output one float per entry of S
template <int kPanels, bool kValues>
__device__ inline void multiply_stage(const MaskedTileArgs& args, const ItemTable& table,
                                      const RingPosition& at, int chunks, int step_count,
                                      const __half* stage_b, int stage_ld, const __half* a_warp,
                                      int a_ld, int inner16, const GroupDescriptors& current,
                                      TileAccumulator& accumulator, float* __restrict__ output) {
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int k0 = at.chunk * args.chunk;
  const int depth_steps = min(args.chunk, inner16 - k0) / 16;
  // ldmatrix.x4 on A: lanes 0-15 give rows 0-15 at k, lanes 16-31 the same rows at k + 8: the
  // blocks arrive as a[0..3] of mma_fragments.cuh.
  const __half* a_rows = a_warp + (lane % 16) * a_ld + (lane / 16) * 8 + k0;
  // ldmatrix.x4 on a tile's 16 rows of Bᵀ: lanes 0-7 give columns 0-7 at k, lanes 8-15 the
  // same at k + 8, lanes 16-31 the same for columns 8-15: b[0], b[1] of the two 16×8 halves.
  const int b_offset = (lane % 8 + (lane / 16) * 8) * stage_ld + ((lane / 8) % 2) * 8;
#pragma unroll
  for (int slot = 0; slot < kMaxGroupSteps; ++slot) {
    const int step = at.group * args.group_steps + slot;
    if (slot >= args.group_steps || step >= step_count || table.tiles[step * kPanels + warp] < 0) {
      continue;  // no tile of this warp's panel in the step (the same for the whole warp)
    }
    if (at.chunk == 0) {
#pragma unroll
      for (int half = 0; half < 2; ++half) {
#pragma unroll
        for (int index = 0; index < 4; ++index) {
          accumulator[half][index] = 0.0f;
        }
      }
    }
    TileValues found{};
    if constexpr (kValues) {
      if (at.chunk == chunks - 1) {
        // The values' loads leave before the products: these run while they arrive.
        found = load_tile_values(current.start[slot], current.mask[slot], args.values);
      }
    }
    const __half* tile_b = stage_b + slot * kMaskedTileEdge * stage_ld + b_offset;
#pragma unroll 4
    for (int depth = 0; depth < depth_steps; ++depth) {
      unsigned a[4];
      unsigned blocks[4];
      load_matrix_x4(a, a_rows + depth * 16);
      load_matrix_x4(blocks, tile_b + depth * 16);
      const unsigned left[2] = {blocks[0], blocks[1]};
      const unsigned right[2] = {blocks[2], blocks[3]};
      mma_16x8x16(accumulator[0], a, left);
      mma_16x8x16(accumulator[1], a, right);
    }
    if (at.chunk == chunks - 1) {
      store_masked_tile<kValues>(accumulator, current.start[slot], current.mask[slot], found,
                                 output);
    }
  }
}

/// @brief At the first stage of group @p group: loads the warp's descriptors of the group after
/// it (their latency hides behind this group's stages) and, at the item's first group, asks L2
/// for the values of @p current (later groups' were asked for at the end of the group before).
/// @tparam kPanels panels per block
/// @tparam kValues S has values
/// @param args the tiles' tables
/// @param table the item's table
/// @param group the group that starts
/// @param step_count steps of the item
/// @param warp the warp (its panel)
/// @param lane the lane
/// @param current the warp's descriptors of @p group
/// @return the warp's descriptors of group @p group + 1
template <int kPanels, bool kValues>
__device__ __forceinline__ GroupDescriptors load_next_group(const MaskedTileArgs& args,
                                                            const ItemTable& table, int group,
                                                            int step_count, int warp, int lane,
                                                            const GroupDescriptors& current) {
  const GroupDescriptors next = load_group_descriptors<kPanels>(
      args, table, group + 1, args.group_steps, step_count, warp, lane);
  if constexpr (kValues) {
    if (group == 0) {
      prefetch_tile_values(args.values, current);  // later groups were asked for earlier
    }
  }
  return next;
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
  const MaskedTileShared parts =
      divide_masked_tile_shared<kPanels>(shared, args, a_ld, stage_rows, stage_ld);
  const ItemTable& table = parts.table;
  load_item_table<kPanels>(args, table, first_step, step_count);
  __syncthreads();  // the table is whole before threads copy the stages other threads listed

  // The panels' rows of A join the first group of copies: the first wait covers them.
  copy_slice<kVector>(parts.a_rows, a_ld, operands.a, operands.lda, operands.rows, operands.inner,
                      first_row, kPanels * kEdge, 0, inner16, thread, kThreads);
  const int total = groups * chunks;  // stages: each group's chunks of inner
  const StageCopier copier = StageCopier::for_thread<kPanels>(
      operands, args, table.cols, parts.ring, stage_rows, stage_ld, inner16, step_count);
  RingPosition copied;  // the next stage to copy
  for (int stage = 0; stage < args.stages - 1; ++stage) {
    copier.queue<kVector>(copied, stage < total, chunks, args.stages);
  }

  // The warp's descriptors of the current group, and of the next one loaded a group ahead
  // so that their latency hides behind the group's stages.
  GroupDescriptors next =
      load_group_descriptors<kPanels>(args, table, 0, args.group_steps, step_count, warp, lane);
  GroupDescriptors current{};
  TileAccumulator accumulator;
  const __half* a_warp = parts.a_rows + warp * kEdge * a_ld;
  RingPosition computed;  // the stage the warps multiply
  for (int stage = 0; stage < total; ++stage) {
    wait_pieces(args.stages - 2);  // this thread's copies of `stage` (and of A) have landed
    __syncthreads();  // every thread's copies of `stage` are visible, and every warp is done
                      // with stage - 1, whose buffer the next copy overwrites
    copier.queue<kVector>(copied, stage + args.stages - 1 < total, chunks, args.stages);
    if (computed.chunk == 0) {
      current = next;
      next = load_next_group<kPanels, kValues>(args, table, computed.group, step_count, warp, lane,
                                               current);
    }
    multiply_stage<kPanels, kValues>(args, table, computed, chunks, step_count,
                                     parts.ring + computed.slot * stage_rows * stage_ld, stage_ld,
                                     a_warp, a_ld, inner16, current, accumulator, output);
    if constexpr (kValues) {
      if (computed.chunk == chunks - 1) {
        // The next group's descriptors were loaded at this group's start: L2 can fetch its
        // values while this block waits at the next barrier and copies the next stage.
        prefetch_tile_values(args.values, next);
      }
    }
    computed.advance(chunks, args.stages);
  }
  wait_pieces(0);  // no copy may still be in flight when the block's shared memory is freed
}

}  // namespace course::step5
