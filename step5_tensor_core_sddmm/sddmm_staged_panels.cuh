// Step 5, approach 4 (lesson Part 2, "Staged panels"): the CUDA-core kernel of the staged panels.
// Read first: sddmm_hybrid.cuh (the lane groups), then sddmm_hybrid_panel_choice.cu (the choice).
/// @file sddmm_staged_panels.cuh
/// @brief Approach 4's staged panels: a sparse 64-row panel whose rows share many columns
/// reads each row of Bᵀ once per column block into shared memory, instead of once per nonzero.
///
/// One block computes a range of column blocks of one panel (StagedRange). It stages the
/// panel's 64 rows of A once, then for each 64-column block it stages the block's 64 rows of
/// Bᵀ and computes every entry of the panel in that block from shared memory: a group of 8
/// lanes per entry, each lane a 16-byte piece of both rows at a time, the group's partial sums
/// added with shuffles as in the lane groups. Warp w takes the entries of the panel's rows
/// 8w..8w+7 in the block, numbered one after the other, so that its groups stay busy however
/// unevenly those rows fill the block. Where to find a row's entries in a block comes from the
/// plan's table of tile starts (tile_starts_kernel), as for the Tensor Core panels; a column
/// block holding no entry of the panel is skipped without staging.
#pragma once

#include "dense_panel_tables.hpp"
#include "panel_classification.cuh"
#include "sddmm_hybrid.cuh"
#include "step5_launchers.hpp"

#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

namespace course::step5 {

/// @brief Lanes per entry in the staged kernel: 8 lanes read 128 consecutive bytes of a staged
/// row, which a quarter warp's 16-byte loads take from all 32 banks without conflict whatever
/// the row; with 4 lanes, two entries' rows would share a quarter warp and often its banks.
constexpr int kStagedGroupLanes = 8;

/// @brief Threads of a block of the staged kernel (8 warps, 8 panel rows each).
constexpr int kStagedThreads = 256;

/// @brief Blocks of the staged kernel an SM should hold at once: at inner = 256 three fill its
/// shared memory (64 KB each), and while one waits at a barrier for its rows of Bᵀ the others
/// compute. Asking for three caps the registers at 85 (ptxas took 100 without the cap).
constexpr int kStagedBlocksPerSm = 3;

/// @brief Copies 64 rows (first_row ..) of a row-major half matrix, halves 0 .. kStageCols - 1
/// of each, into @p stage (kStageCols / 8 pieces of 16 bytes per row), with zeros past the
/// matrix's last row and past inner. Every load of a thread is issued before its first store,
/// so that a block has all of its pieces in flight at once.
/// @tparam kStageCols halves staged per row (a multiple of 8, at least inner)
/// @param stage shared memory, 64 · kStageCols halves
/// @param matrix device matrix, row-major
/// @param ld its leading dimension
/// @param row_count its number of rows (rows for A, cols for Bᵀ)
/// @param inner its number of valid columns
/// @param first_row first row to stage
/// @param vector_loads allows_vector_loads(matrix, ld)
template <int kStageCols>
__device__ inline void stage_panel_rows(uint4* stage, const __half* matrix, int ld, int row_count,
                                        int inner, int first_row, bool vector_loads) {
  constexpr int kPiecesPerRow = kStageCols / 8;
  constexpr int kPiecesPerThread = kPanelRows * kPiecesPerRow / kStagedThreads;
  static_assert(kStageCols % 8 == 0 && kPanelRows * kPiecesPerRow % kStagedThreads == 0,
                "every thread copies the same number of whole 16-byte pieces");
  uint4 pieces[kPiecesPerThread];
#pragma unroll
  for (int step = 0; step < kPiecesPerThread; ++step) {
    const int piece = static_cast<int>(threadIdx.x) + step * kStagedThreads;
    const int row = first_row + piece / kPiecesPerRow;
    const int k = (piece % kPiecesPerRow) * 8;
    const __half* source = matrix + static_cast<std::int64_t>(row) * ld + k;
    if (vector_loads && row < row_count && k + 8 <= inner) {
      pieces[step] = __ldg(reinterpret_cast<const uint4*>(source));
    } else {
      __half halves[8];
#pragma unroll
      for (int offset = 0; offset < 8; ++offset) {
        // Guards the rows past the matrix's last (a panel or block cut by the edge) and the
        // halves past inner (inner below kStageCols, or not a multiple of 8).
        const bool inside = row < row_count && k + offset < inner;
        halves[offset] = inside ? source[offset] : __float2half(0.0f);
      }
      std::memcpy(&pieces[step], halves, sizeof(halves));
    }
  }
#pragma unroll
  for (int step = 0; step < kPiecesPerThread; ++step) {
    stage[static_cast<int>(threadIdx.x) + step * kStagedThreads] = pieces[step];
  }
}

/// @brief Where the entries of a warp's 8 rows in one column block are: lane r < 8 holds row
/// r's first entry and count; numbering them one after the other gives the warp's entries 0 ..
/// total - 1 (the same numbering as the Tensor Core panels' copy-out).
struct WarpBlockEntries {
  int row_ends[8];  ///< numbers past each row's last entry (row r: row_ends[r - 1] .. row_ends[r])
  int base = 0;     ///< lane r < 8: row r's first entry minus the numbers before row r
  int total = 0;    ///< the warp's entries in the block

  /// @brief Numbers the entries (every lane of the warp calls it: it shuffles).
  /// @param begin lane r < 8: row r's first entry in the block
  /// @param count lane r < 8: its entries in the block (other lanes: 0)
  __device__ WarpBlockEntries(int begin, int count) {
    const int lane = static_cast<int>(threadIdx.x) % 32;
    int rows_end = count;  // becomes: entries of rows 0..lane
#pragma unroll
    for (int offset = 1; offset < 8; offset <<= 1) {
      const int before = __shfl_up_sync(0xFFFFFFFFu, rows_end, offset);
      rows_end += lane >= offset ? before : 0;
    }
    base = begin - (rows_end - count);
#pragma unroll
    for (int row = 0; row < 8; ++row) {
      row_ends[row] = __shfl_sync(0xFFFFFFFFu, rows_end, row);
    }
    total = row_ends[7];
  }

  /// @brief The warp row (0..7) of entry number @p number (< total).
  __device__ int row_of(int number) const {
    int row = 0;
#pragma unroll
    for (int before = 0; before < 7; ++before) {
      row += number >= row_ends[before] ? 1 : 0;
    }
    return row;
  }
};

/// @brief One range of column blocks of one staged panel per block, CUDA cores, A and Bᵀ from
/// shared memory.
///
/// Preconditions: S sorted row-major, at most 2³¹ - 1 nonzeros; blockDim.x = kStagedThreads;
/// one block per range (blockIdx.x); inner <= kStageCols; @p tile_starts from
/// tile_starts_kernel; dynamic shared memory of 2 · 64 · kStageCols halves.
/// @tparam kStageCols halves staged per row: 64, 128 or 256
/// @param operands A and Bᵀ
/// @param ranges the staged panels' ranges of column blocks
/// @param tile_starts first entry of each (row, column block) of the staged panels
/// @param col_indices columns of the nonzeros
/// @param values values of the nonzeros, or nullptr when every value is one
/// @param vector_a A allows 16-byte loads
/// @param vector_b b_transposed allows 16-byte loads
/// @param output one float per nonzero
template <int kStageCols>
__global__ void __launch_bounds__(kStagedThreads, kStagedBlocksPerSm)
    staged_panel_kernel(DenseOperands operands, const StagedRange* __restrict__ ranges,
                        const int* __restrict__ tile_starts, const int* __restrict__ col_indices,
                        const float* __restrict__ values, bool vector_a, bool vector_b,
                        float* __restrict__ output) {
  constexpr int kPiecesPerRow = kStageCols / 8;
  constexpr int kPiecesPerLane = kPiecesPerRow / kStagedGroupLanes;
  constexpr int kGroups = 32 / kStagedGroupLanes;
  constexpr int kRowsPerWarp = kPanelRows / (kStagedThreads / 32);
  static_assert(kPiecesPerRow % kStagedGroupLanes == 0, "the same pieces in every lane");
  static_assert(kRowsPerWarp == 8, "WarpBlockEntries numbers 8 rows per warp");
  extern __shared__ uint4 staged_rows[];
  uint4* a_rows = staged_rows;                               // the panel's 64 rows of A
  uint4* b_rows = staged_rows + kPanelRows * kPiecesPerRow;  // a block's 64 rows of Bᵀ

  const StagedRange range = ranges[blockIdx.x];
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const int lane_in_group = lane % kStagedGroupLanes;
  const int warp_row = static_cast<int>(threadIdx.x) / 32 * kRowsPerWarp;  // in the panel
  // Lane r < 8 reads the starts of the warp's row r; rows past the matrix's last hold zeros.
  const int* row_starts =
      tile_starts + range.starts + static_cast<std::int64_t>(warp_row + lane) * range.stride;
  const bool start_lane = lane < kRowsPerWarp;
  int begin = start_lane ? row_starts[0] : 0;
  int count = start_lane ? row_starts[1] - begin : 0;

  stage_panel_rows<kStageCols>(a_rows, operands.a, operands.lda, operands.rows, operands.inner,
                               range.first_row, vector_a);
  for (int block = 0; block < range.blocks; ++block) {
    // The next block's starts now: their latency hides behind this block.
    const bool next = start_lane && block + 1 < range.blocks;
    const int next_begin = next ? row_starts[block + 1] : 0;
    const int next_count = next ? row_starts[block + 2] - next_begin : 0;
    // Barrier: A is staged (first block) and every warp is done reading the previous block's
    // rows of Bᵀ; and whether any row of the panel has entries in this block (else skip it).
    if (__syncthreads_or(count > 0) != 0) {
      const int first_col = range.first_col + block * kPanelTileCols;
      const WarpBlockEntries entries(begin, count);
      // The columns of the warp's first 32 entries, loaded before the staging waits.
      const int first_number = lane < entries.total ? lane : 0;
      const int first_entry =
          __shfl_sync(0xFFFFFFFFu, entries.base, entries.row_of(first_number)) + first_number;
      const int prefetched_col = lane < entries.total ? __ldg(col_indices + first_entry) : 0;
      stage_panel_rows<kStageCols>(b_rows, operands.b_transposed, operands.ldb, operands.cols,
                                   operands.inner, first_col, vector_b);
      __syncthreads();  // the block's rows of Bᵀ are staged before any warp reads them
      // The trip count is the same in every lane: all of them take part in the shuffles.
      for (int first = 0; first < entries.total; first += kGroups) {
        const int number = first + lane / kStagedGroupLanes;
        const int row = entries.row_of(number);
        const int entry = __shfl_sync(0xFFFFFFFFu, entries.base, row) + number;
        const int early_col = __shfl_sync(0xFFFFFFFFu, prefetched_col, number % 32);
        float partial = 0.0f;
        if (number < entries.total) {  // the last round's groups past the warp's last entry
          const int col = number < 32 ? early_col : __ldg(col_indices + entry);
          const uint4* a_row = a_rows + (warp_row + row) * kPiecesPerRow;
          const uint4* b_row = b_rows + (col - first_col) * kPiecesPerRow;
          uint4 a_pieces[kPiecesPerLane];
          uint4 b_pieces[kPiecesPerLane];
#pragma unroll
          for (int step = 0; step < kPiecesPerLane; ++step) {
            a_pieces[step] = a_row[lane_in_group + step * kStagedGroupLanes];
            b_pieces[step] = b_row[lane_in_group + step * kStagedGroupLanes];
          }
#pragma unroll
          for (int step = 0; step < kPiecesPerLane; ++step) {
            partial = dot8(a_pieces[step], b_pieces[step], partial);
          }
        }
#pragma unroll
        for (int offset = kStagedGroupLanes / 2; offset > 0; offset >>= 1) {
          partial += __shfl_xor_sync(0xFFFFFFFFu, partial, offset);
        }
        if (number < entries.total && lane_in_group == 0) {
          output[entry] = values == nullptr ? partial : __ldg(values + entry) * partial;
        }
      }
    }
    begin = next_begin;
    count = next_count;
  }
}

}  // namespace course::step5
