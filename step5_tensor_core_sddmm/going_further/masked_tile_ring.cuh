/// @file masked_tile_ring.cuh
/// @brief The masked-tile kernel's ring of stages of Bᵀ: where a stage lies (RingPosition:
/// its group of steps, its chunk of inner, its slot) and which pieces of it each thread copies
/// (StageCopier), asynchronously where the GPU has cp.async.
///
/// Step 5, going further: the copies behind masked_tile_kernel's products.
/// Read first: masked_tiles.hpp (steps and items), async_piece_copy.cuh (one piece's copy),
/// then sddmm_masked_tiles.cuh (the kernel that walks the ring).
#pragma once

#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tile_entries.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief Where a stage lies: its group of steps, its chunk of inner and its slot in the ring.
/// The copies run args.stages - 1 stages ahead of the products, and both walk the stages in
/// this one order.
struct RingPosition {
  int group = 0;  ///< group of steps
  int chunk = 0;  ///< chunk of inner within the group
  int slot = 0;   ///< slot of the ring

  /// @brief Moves to the next stage: the next chunk, or the next group's first.
  /// @param chunks chunks per group
  /// @param stages slots of the ring
  __device__ void advance(int chunks, int stages) {
    slot = slot + 1 == stages ? 0 : slot + 1;
    if (++chunk == chunks) {
      chunk = 0;
      ++group;
    }
  }
};

/// @brief One thread's share of the copies of Bᵀ into the ring, fixed for the launch: thread
/// t copies piece t % pieces_per_row (8 halves) of rows t / pieces_per_row, + rows_per_pass,
/// ... of every stage, so that no division is left in the loop (a stage row is row % 16 of
/// step row / 16 of the group).
struct StageCopier {
  DenseOperands operands;  ///< A and Bᵀ
  const int* table_cols;   ///< the item's table: tile column of each step
  __half* ring;            ///< the ring of stages in shared memory
  int stage_rows;          ///< rows of one stage (16 per step of a group)
  int stage_ld;            ///< halves per stage row
  int group_steps;         ///< steps per group
  int chunk;               ///< values of inner per stage
  int inner16;             ///< inner rounded up to 16
  int step_count;          ///< steps of the item
  int first_row;           ///< this thread's first stage row
  int rows_per_pass;       ///< stage rows the block's threads cover at once
  int col;                 ///< this thread's first half in the row

  /// @brief This thread's share of the copies of the item's stages (the division of the
  /// threads among a stage's pieces, done once).
  /// @tparam kPanels panels per block
  /// @param operands A and Bᵀ
  /// @param args the tiles' tables (group_steps, chunk)
  /// @param table_cols the item's table: tile column of each step
  /// @param ring the ring of stages in shared memory
  /// @param stage_rows rows of one stage
  /// @param stage_ld halves per stage row
  /// @param inner16 inner rounded up to 16
  /// @param step_count steps of the item
  /// @return the copier
  template <int kPanels>
  __device__ __forceinline__ static StageCopier for_thread(const DenseOperands& operands,
                                                           const MaskedTileArgs& args,
                                                           const int* table_cols, __half* ring,
                                                           int stage_rows, int stage_ld,
                                                           int inner16, int step_count) {
    const int thread = static_cast<int>(threadIdx.x);
    const int pieces_per_row = args.chunk / 8;  // at most 32, so every row gets threads
    const int my_first_row = thread / pieces_per_row;
    return {operands,
            table_cols,
            ring,
            stage_rows,
            stage_ld,
            args.group_steps,
            args.chunk,
            inner16,
            step_count,
            my_first_row,
            32 * kPanels / pieces_per_row,
            (thread - my_first_row * pieces_per_row) * 8};
  }

  /// @brief Queues this thread's copies of the stage at @p at (asynchronous where cp.async
  /// exists; copy_piece).
  /// @tparam kVector 16-byte copies
  /// @param at the stage
  template <bool kVector>
  __device__ void copy(const RingPosition& at) const {
    const int k0 = at.chunk * chunk;
    if (first_row >= rows_per_pass || col >= min(chunk, inner16 - k0)) {
      return;  // spare threads, and pieces past inner rounded to 16 (never read)
    }
    const int k = k0 + col;
    __half* target = ring + at.slot * stage_rows * stage_ld + col;
    for (int row = first_row; row < stage_rows; row += rows_per_pass) {
      const int step = at.group * group_steps + row / kMaskedTileEdge;
      if (step >= step_count) {
        break;  // the item's last group may be short: its missing steps are never read
      }
      const int b_row = table_cols[step] * kMaskedTileEdge + row % kMaskedTileEdge;
      // Rows past the last column of S (a tile cut by the edge) and values past inner copy
      // nothing and read as zeros.
      const int valid = b_row < operands.cols ? max(0, min(8, operands.inner - k)) : 0;
      const __half* source =
          valid > 0 ? operands.b_transposed + static_cast<long long>(b_row) * operands.ldb + k
                    : operands.b_transposed;
      copy_piece<kVector>(target + row * stage_ld, source, valid);
    }
  }

  /// @brief Queues this thread's copies of the stage at @p at and moves @p at on to the next
  /// stage when @p exists, then closes the thread's group of copies: one group per stage,
  /// empty past the last, so that wait_pieces' count of groups stays exact.
  /// @tparam kVector 16-byte copies
  /// @param at the next stage to copy
  /// @param exists whether that stage is one of the item's
  /// @param chunks chunks per group
  /// @param stages slots of the ring
  template <bool kVector>
  __device__ __forceinline__ void queue(RingPosition& at, bool exists, int chunks,
                                        int stages) const {
    if (exists) {
      copy<kVector>(at);
      at.advance(chunks, stages);
    }
    commit_pieces();
  }
};

}  // namespace course::step5
