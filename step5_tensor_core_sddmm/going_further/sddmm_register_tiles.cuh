/// @file sddmm_register_tiles.cuh
/// @brief register_tile_kernel: the masked 16×16 tiles with no barrier at all. Each warp
/// takes one item (a run of tiles of one 16-row panel, tiles grouped for one panel per
/// super-panel) and loads its operands from global memory straight into the registers that
/// `mma.sync` reads: no stage in shared memory, no `ldmatrix`, no `__syncthreads()`.
///
/// Why: masked_tile_kernel (sddmm_masked_tiles.cuh) shares each copy of 16 rows of Bᵀ among
/// the warps of a super-panel, and pays for it with a barrier per stage: where only one of
/// its four panels has a tile in a column (every mask of 16-blocks), three warps wait while
/// one multiplies, and Nsight Compute found the barrier stall its largest (H200, 2026-11-29,
/// lab/NOTEBOOK.md). Here a warp waits only for its own loads, and the loads of its next tile
/// leave while it multiplies the current one.
///
/// **The order of inner.** A dot product does not care in which order inner is summed, so the
/// kernel chooses one that suits 16-byte loads: lane `lane` (group g = lane / 4, t = lane % 4)
/// loads halves 8t .. 8t + 7 of each 32-value slice of inner, for rows g and g + 8 of the
/// tile's A and of its Bᵀ. Halves 0-1 and 2-3 of that piece are the k = 2t, 2t + 1 and
/// 2t + 8, 2t + 9 of the slice's first m16n8k16 step (mma_fragments.cuh), halves 4-7 the same
/// of its second step. A and Bᵀ are permuted alike, so every product pairs the right values.
///
/// **A, parked.** The panel's slices of A are the same for all of the item's tiles: each lane
/// parks its own pieces in shared memory once (it reads back only what it wrote, so no
/// barrier orders them) and keeps its registers for Bᵀ, whose next pieces it loads while
/// it multiplies.
///
/// **A valued S.** The plan copied S's values into the order the lanes hold the tiles' entries
/// (tile_values_in_lane_order.hpp): each lane copies its eight values of the next tile, 32
/// consecutive bytes, before the current tile's products, and multiplies them in at the store.
///
/// Step 5, going further: Tensor Cores on the masked tiles, one warp per run of tiles.
/// Read first: masked_tiles.hpp (descriptors, steps, items), masked_tile_entries.cuh (the
/// masked store), mma_fragments.cuh (the fragments' layout), sddmm_masked_tiles.cuh (the
/// kernel this one replaces where it is faster).
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tile_entries.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/mma_fragments.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief Eight halves of one row, as the four registers of two m16n8k16 fragments' rows.
struct HalfPiece {
  unsigned word[4];  ///< halves 2w and 2w + 1 in word w
};

/// @brief Loads halves k .. k + 7 of row @p row of a row-major half matrix: zeros past inner
/// and for a row past the matrix (a tile cut by S's edge), so that the products there add
/// nothing and nothing outside the matrix is read.
/// @tparam kVector 16-byte loads allowed (allows_vector_loads of the matrix)
/// @param matrix the matrix
/// @param ld its leading dimension
/// @param row the row
/// @param row_count rows of the matrix
/// @param k the first value, a multiple of 8
/// @param inner values per row
/// @return the piece
template <bool kVector>
__device__ __forceinline__ HalfPiece load_half_piece(const __half* __restrict__ matrix, int ld,
                                                     int row, int row_count, int k, int inner) {
  HalfPiece piece{{0u, 0u, 0u, 0u}};
  if (row >= row_count || k >= inner) {
    return piece;  // a row past the matrix, or values past inner: zeros
  }
  const __half* source = matrix + static_cast<long long>(row) * ld + k;
  if (kVector && k + 8 <= inner) {
    const uint4 loaded = __ldg(reinterpret_cast<const uint4*>(source));
    return HalfPiece{{loaded.x, loaded.y, loaded.z, loaded.w}};
  }
#pragma unroll
  for (int word = 0; word < 4; ++word) {
    // The last piece of a row (or any piece of a matrix without 16-byte loads): half by half.
    const int first = 2 * word;
    const __half low = first < inner - k ? source[first] : __float2half(0.0f);
    const __half high = first + 1 < inner - k ? source[first + 1] : __float2half(0.0f);
    piece.word[word] = static_cast<unsigned>(__half_as_ushort(low)) |
                       (static_cast<unsigned>(__half_as_ushort(high)) << 16);
  }
  return piece;
}

/// @brief A lane's pieces of 16 rows (of A, or of Bᵀ: a tile's 16 columns) for one pass over
/// inner: for each slice, rows g and g + 8 (for Bᵀ, the tile's two 16×8 halves).
template <int kSlices>
using TilePieces = HalfPiece[kSlices][2];

/// @brief A warp's parked pieces of A in shared memory: for each slice and each of the
/// lane's two rows (g, g + 8), one piece per lane.
template <int kSlices>
using ParkedA = HalfPiece[kSlices][2][32];

/// @brief Loads a lane's pieces of 16 rows of a matrix from @p first_row, values @p k0 on
/// (one pass): rows first_row + g and + 8, halves 8t .. 8t + 7 of each slice.
/// @tparam kSlices slices per pass
/// @tparam kVector 16-byte loads allowed
/// @param pieces the lane's pieces
/// @param matrix the matrix
/// @param ld its leading dimension
/// @param first_row the tile's first row (of A) or column (row of Bᵀ)
/// @param row_count rows of the matrix
/// @param k0 the pass's first value of inner
/// @param inner values per row
template <int kSlices, bool kVector>
__device__ __forceinline__ void load_tile_pieces(TilePieces<kSlices>& pieces,
                                                 const __half* __restrict__ matrix, int ld,
                                                 int first_row, int row_count, int k0, int inner) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int k = k0 + (lane % 4) * 8;
#pragma unroll
  for (int slice = 0; slice < kSlices; ++slice) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      pieces[slice][half] =
          load_half_piece<kVector>(matrix, ld, first_row + lane / 4 + half * 8, row_count,
                                   k + slice * kRegisterSliceDepth, inner);
    }
  }
}

/// @brief Parks a lane's pieces of the panel's A for one pass in shared memory (its own
/// slots: only this lane reads them back, so no barrier is needed).
/// @tparam kSlices slices per pass
/// @tparam kVector 16-byte loads allowed
/// @param parked the warp's parking
/// @param operands A
/// @param first_row the panel's first row
/// @param k0 the pass's first value of inner
template <int kSlices, bool kVector>
__device__ inline void park_a_pieces(ParkedA<kSlices>& parked, const DenseOperands& operands,
                                     int first_row, int k0) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  TilePieces<kSlices> pieces;
  load_tile_pieces<kSlices, kVector>(pieces, operands.a, operands.lda, first_row, operands.rows, k0,
                                     operands.inner);
#pragma unroll
  for (int slice = 0; slice < kSlices; ++slice) {
    parked[slice][0][lane] = pieces[slice][0];
    parked[slice][1][lane] = pieces[slice][1];
  }
}

/// @brief Where the next pass's pieces of Bᵀ come from (the same tile's next pass, or the
/// next tile's first), or none.
struct NextPass {
  bool exists;    ///< there is a next pass in the item
  int first_col;  ///< its tile's first column of S (row of Bᵀ)
  int k0;         ///< its first value of inner
};

/// @brief One pass of a tile's product: for each slice, two m16n8k16 steps on both 16×8
/// halves (even and odd steps in separate accumulators, so that two chains of dependent
/// mma.sync run side by side); each slice's registers of Bᵀ are reloaded with the next pass's
/// pieces as soon as its products have read them.
/// Preconditions: every lane of the warp calls it.
/// @tparam kSlices slices per pass
/// @tparam kVector 16-byte loads allowed
/// @param sums the even and odd steps' accumulators
/// @param parked this lane's parked A (park_a_pieces of this pass)
/// @param b this lane's pieces of Bᵀ for this pass; on return, the next pass's
/// @param operands Bᵀ
/// @param next the next pass
template <int kSlices, bool kVector>
__device__ inline void multiply_pass(TileAccumulator (&sums)[2], const ParkedA<kSlices>& parked,
                                     TilePieces<kSlices>& b, const DenseOperands& operands,
                                     const NextPass& next) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int k = next.k0 + (lane % 4) * 8;
#pragma unroll
  for (int slice = 0; slice < kSlices; ++slice) {
    const HalfPiece top = parked[slice][0][lane];
    const HalfPiece bottom = parked[slice][1][lane];
#pragma unroll
    for (int step = 0; step < 2; ++step) {
      const unsigned a[4] = {top.word[2 * step], bottom.word[2 * step], top.word[2 * step + 1],
                             bottom.word[2 * step + 1]};
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const unsigned fragment[2] = {b[slice][half].word[2 * step],
                                      b[slice][half].word[2 * step + 1]};
        mma_16x8x16(sums[step][half], a, fragment);
      }
    }
    if (next.exists) {  // the same for the whole warp
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        b[slice][half] = load_half_piece<kVector>(
            operands.b_transposed, operands.ldb, next.first_col + lane / 4 + half * 8,
            operands.cols, k + slice * kRegisterSliceDepth, operands.inner);
      }
    }
  }
}

/// @brief Adds the odd steps' accumulators into the even steps' (multiply_pass keeps them apart
/// for two chains of mma.sync): sums[0] is then the tile's product.
/// @param sums the even and odd steps' accumulators
__device__ __forceinline__ void fold_step_sums(TileAccumulator (&sums)[2]) {
#pragma unroll
  for (int half = 0; half < 2; ++half) {
#pragma unroll
    for (int index = 0; index < 4; ++index) {
      sums[0][half][index] += sums[1][half][index];
    }
  }
}

/// @brief An item's steps as the warp holds them: lane l has steps l and l + 32's tile column
/// and tile (items hold at most kMaxItemSteps = 64 steps), read by shuffles.
struct ItemSteps {
  int cols[2];   ///< tile columns of steps lane and lane + 32
  int tiles[2];  ///< tiles of steps lane and lane + 32

  /// @brief Loads the item's steps (every lane).
  /// @param args the tiles' tables
  /// @param first_step the item's first step
  /// @param step_count its steps (at most 64)
  /// @return the steps
  __device__ static ItemSteps load(const MaskedTileArgs& args, int first_step, int step_count) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    ItemSteps steps{{0, 0}, {0, 0}};
#pragma unroll
    for (int round = 0; round < 2; ++round) {
      const int step = lane + 32 * round;
      if (step < step_count) {  // an item's last lanes may have no step
        steps.cols[round] = args.step_cols[first_step + step];
        steps.tiles[round] = args.step_tiles[first_step + step];
      }
    }
    return steps;
  }
  /// @brief Tile column of step @p step (every lane calls it with the same step).
  /// @param step the step within the item
  /// @return its tile column
  __device__ int col(int step) const {
    return __shfl_sync(kAllLanes, step < 32 ? cols[0] : cols[1], step % 32);
  }
  /// @brief Tile of step @p step (every lane calls it with the same step).
  /// @param step the step within the item
  /// @return its tile
  __device__ int tile(int step) const {
    return __shfl_sync(kAllLanes, step < 32 ? tiles[0] : tiles[1], step % 32);
  }
};

/// @brief Lane r < 16's start and mask of row r of one tile (lane r + 16 holds the same row;
/// only lanes 0-15 are read, by the shuffles of find_tile_positions).
struct TileRowDescriptor {
  int start;      ///< position in S of the row's first entry in the tile
  unsigned mask;  ///< the row's columns
};

/// @brief Loads row lane % 16 of tile @p tile's descriptor. Every lane loads, with no branch
/// and nothing merged into a register the loads did not write, so that nothing waits for them
/// until their first use: the kernel loads the next tile's row before the current tile's
/// products and reads it after them. (With the upper lanes' rows left at zero, the compiler
/// merged each load into its result right away, and the warp waited for it there: the largest
/// stall of the whole kernel, 16 to 20 % of its samples on an H200, 2026-11-29,
/// lab/NOTEBOOK.md.)
/// @param args the tiles' tables
/// @param tile the tile
/// @return the row's start and mask
__device__ inline TileRowDescriptor load_tile_row(const MaskedTileArgs& args, int tile) {
  const int row = static_cast<int>(threadIdx.x) % kMaskedTileEdge;
  return TileRowDescriptor{args.starts[tile * kMaskedTileEdge + row],
                           args.masks[tile * kMaskedTileEdge + row]};
}

/// @brief A warp's parked tile descriptors, one per lane (CurrentRow<true>).
using ParkedRows = TileRowDescriptor[32];

/// @brief Where a lane keeps the descriptor of the tile it multiplies until the tile's store:
/// a register (this one), or its slot of ParkedRows (CurrentRow<true>).
/// @tparam kParked whether the descriptor waits in shared memory
template <bool kParked>
struct CurrentRow {
  /// @brief Keeps the descriptor in a register; @p slot is not used.
  __device__ explicit CurrentRow(TileRowDescriptor* /*slot*/) {}
  /// @brief The descriptor.
  __device__ TileRowDescriptor get() const { return row; }
  /// @brief Keeps @p next.
  __device__ void set(const TileRowDescriptor& next) { row = next; }
  TileRowDescriptor row{};  ///< the descriptor
};

/// @brief The descriptor parked in shared memory through the products: at 8 slices the launch
/// bounds leave 168 registers, the compiler spilled the descriptor to local memory, and its
/// reload, evicted from L1 by the stream of Bᵀ, made the store wait for L2 (13.6 % of the
/// stall samples of the valued kernel, NVIDIA H200, 2026-11-30, lab/NOTEBOOK.md). Each lane reads
/// only the slot it writes, so no barrier orders them.
template <>
struct CurrentRow<true> {
  /// @brief Keeps the descriptor in @p slot (this lane's slot of its warp's ParkedRows).
  __device__ explicit CurrentRow(TileRowDescriptor* slot) : parked(slot) {}
  /// @brief The descriptor, read back from shared memory.
  __device__ TileRowDescriptor get() const { return *parked; }
  /// @brief Parks @p next (its load was issued before the products, so the store rarely waits).
  __device__ void set(const TileRowDescriptor& next) { *parked = next; }
  TileRowDescriptor* parked;  ///< this lane's slot
};

/// @brief A warp's slots for the values of two tiles (the current one and the next): each
/// lane's eight values side by side, so that two 16-byte copies fill them. Each lane copies
/// its own values into its own slots and reads back only those, so no barrier orders them.
using ValueSlots = float[2][32][kTileEntriesPerLane];

/// @brief Copies a lane's eight values of tile @p tile from S's values in the lanes' order
/// (MaskedTiles::lane_values: 32 consecutive bytes whose place the tile's number alone gives,
/// so the copy leaves without waiting for the tile's descriptor) into its slots (cp.async where
/// the GPU has it, a plain load and store before sm_80), then closes the lane's group of copies
/// (commit_pieces), one group per tile, empty where there is no tile (@p exists false), so that
/// wait_pieces' count stays exact.
/// Preconditions: every lane of the warp calls it with the same @p exists.
/// @param slots this tile's slots (one of ValueSlots' two)
/// @param tile the tile
/// @param exists whether there is such a tile
/// @param lane_values S's values in the lanes' order
__device__ inline void stage_tile_values(float (&slots)[32][kTileEntriesPerLane], int tile,
                                         bool exists, const float* __restrict__ lane_values) {
  if (exists) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const float* source =
        lane_values + static_cast<long long>(tile) * kTileLaneValues + lane * kTileEntriesPerLane;
    copy_float4(&slots[lane][0], source);
    copy_float4(&slots[lane][4], source + 4);
  }
  commit_pieces();
}

/// @brief A lane's positions and values in the current tile, its values' copies waited for
/// (all but the last group: the next tile's copies may still be in flight).
/// Preconditions: every lane of the warp calls it; the tile's values were staged one tile
/// earlier and the next tile's (or an empty group) since.
/// @param slots the current tile's slots
/// @param row the tile's descriptor row of this lane
/// @return the positions and values
__device__ inline TileValues staged_tile_values(const float (&slots)[32][kTileEntriesPerLane],
                                                const TileRowDescriptor& row) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  TileValues found;
  find_tile_positions(row.start, row.mask, found.positions);
  wait_pieces(1);  // this lane's copies of the current tile have landed
#pragma unroll
  for (int entry = 0; entry < kTileEntriesPerLane; ++entry) {
    found.scales[entry] = slots[lane][entry];
  }
  return found;
}

/// @brief Tensor Cores on the masked tiles, one warp per item, without barriers.
///
/// Preconditions: blockDim.x = 32 · kRegisterTileWarps; the tables of group_masked_tiles
/// grouped for one panel per super-panel (so a step is one tile) with at most kMaxItemSteps
/// steps per item; with @p kVector, allows_vector_loads for A and Bᵀ; with @p kValues,
/// args.lane_values made by order_tile_values for these tiles; inner >= 1.
/// @tparam kSlices 32-value slices of inner per pass (inner rounded up to 32, at most
/// kMaxRegisterSlices; a larger inner takes several passes, each parking its A again)
/// @tparam kVector 16-byte loads (else one half at a time: odd leading dimensions)
/// @tparam kValues S has values (args.lane_values, in the lanes' order), copied into shared
/// memory one tile ahead (stage_tile_values); false: a pattern
/// @param operands A and Bᵀ
/// @param args the tiles' tables (stages, group_steps and chunk unused)
/// @param item_count items (warps with work)
/// @param output one float per entry of S
template <int kSlices, bool kVector, bool kValues>
__global__ void __launch_bounds__(32 * kRegisterTileWarps, register_tile_blocks_per_sm(kSlices))
    register_tile_kernel(DenseOperands operands, MaskedTileArgs args, int item_count,
                         float* __restrict__ output) {
  static_assert(kSlices >= 1 && kSlices <= kMaxRegisterSlices, "1 to 8 slices a pass");
  __shared__ ParkedA<kSlices> parking[kRegisterTileWarps];
  __shared__ __align__(16) ValueSlots value_slots[kValues ? kRegisterTileWarps : 1];
  constexpr bool kParkRows = register_tile_parks_rows(kSlices);
  __shared__ ParkedRows parked_rows[kParkRows ? kRegisterTileWarps : 1];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int item = static_cast<int>(blockIdx.x) * kRegisterTileWarps + warp;
  if (item >= item_count) {
    return;  // the last block's spare warps (whole warps: no shuffle is left half-done)
  }
  ParkedA<kSlices>& parked = parking[warp];
  const int first_step = args.item_first_steps[item];
  const int step_count = args.item_first_steps[item + 1] - first_step;
  const int first_row = args.step_super_panels[first_step] * kMaskedTileEdge;
  constexpr int kPassDepth = kSlices * kRegisterSliceDepth;
  const int passes = (operands.inner + kPassDepth - 1) / kPassDepth;
  const ItemSteps steps = ItemSteps::load(args, first_step, step_count);

  TilePieces<kSlices> b;
  load_tile_pieces<kSlices, kVector>(b, operands.b_transposed, operands.ldb,
                                     steps.col(0) * kMaskedTileEdge, operands.cols, 0,
                                     operands.inner);
  CurrentRow<kParkRows> current_row(&parked_rows[kParkRows ? warp : 0][lane]);
  current_row.set(load_tile_row(args, steps.tile(0)));
  if constexpr (kValues) {
    stage_tile_values(value_slots[warp][0], steps.tile(0), true, args.lane_values);
  }
  for (int step = 0; step < step_count; ++step) {
    const bool last_step = step + 1 == step_count;
    if constexpr (kValues) {
      // The next tile's values leave now, before this tile's products: they land meanwhile.
      stage_tile_values(value_slots[warp][(step + 1) % 2], steps.tile(last_step ? step : step + 1),
                        !last_step, args.lane_values);
    }
    // The next tile's descriptor leaves now; it is read after this tile's products. The last
    // step loads its own tile's again (unused), so that no select waits for the load.
    const TileRowDescriptor next = load_tile_row(args, steps.tile(last_step ? step : step + 1));
    const int next_col = last_step ? 0 : steps.col(step + 1) * kMaskedTileEdge;
    TileAccumulator sums[2] = {};
    for (int pass = 0; pass < passes; ++pass) {
      if (passes > 1 || step == 0) {
        park_a_pieces<kSlices, kVector>(parked, operands, first_row, pass * kPassDepth);
      }
      const bool last_pass = pass + 1 == passes;
      const NextPass following{!(last_pass && last_step),
                               last_pass ? next_col : steps.col(step) * kMaskedTileEdge,
                               last_pass ? 0 : (pass + 1) * kPassDepth};
      multiply_pass<kSlices, kVector>(sums, parked, b, operands, following);
    }
    const TileRowDescriptor current = current_row.get();
    TileValues found{};
    if constexpr (kValues) {
      found = staged_tile_values(value_slots[warp][step % 2], current);
    }
    fold_step_sums(sums);
    store_masked_tile<kValues>(sums[0], current.start, current.mask, found, output);
    current_row.set(next);
  }
}

}  // namespace course::step5
