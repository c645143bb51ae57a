/// @file masked_tile_search.cuh
/// @brief The search's kernels: S's row offsets, the candidate rows, and one warp per
/// candidate that reads a tile's 16 rows and writes its descriptor.
///
/// Step 5, going further: the kernels that find the masked tiles and describe them.
/// Read first: masked_tiles.hpp (the descriptor), then masked_tile_search.cu (the order).
///
/// Why candidates: a tile with at least min_entries entries has, in one of its rows, at least
/// min_run = ceil(min_entries / 16) of them. One thread per entry finds the first entry of
/// each row's run inside a tile column with two loads (the entry min_run - 1 places later is
/// in the same row and tile column exactly when the run is long enough, S being sorted), so
/// the uniform masks, whose runs are single entries, cost one pass and no warp at all.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"

#include <cstdint>

namespace course::step5 {

/// @brief Where the search counts.
enum MaskedTileCount : int {
  kCandidateCount = 0,  ///< candidate rows found (those past the capacity are dropped)
  kTileCount = 1,       ///< tiles kept
  kCoveredCount = 2,    ///< entries inside the kept tiles
  kMaskedCountSlots = 3
};

/// @brief A candidate: row @p row holds a run of at least min_run entries in tile column
/// @p tile_col.
struct __align__(8) MaskedCandidate {
  int row;       ///< the row of S
  int tile_col;  ///< the tile column (column / 16)
};

/// @brief One thread per entry: outside[e] = 0 for the entries another kernel computes (in a
/// full tile, or in a dense 64-row panel), 1 for the others.
/// @param row_of row of each entry
/// @param nnz entries of S
/// @param exclusion what to leave out
/// @param outside the flags (written)
__global__ void exclusion_flags_kernel(const int* __restrict__ row_of, std::int64_t nnz,
                                       MaskedExclusion exclusion,
                                       unsigned char* __restrict__ outside) {
  constexpr int kPanelRows = 64;  // the dense panels' height (panel_classification.cuh)
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  const bool covered = exclusion.covered != nullptr && exclusion.covered[entry] != 0;
  const bool dense =
      exclusion.panel_slot != nullptr && exclusion.panel_slot[row_of[entry] / kPanelRows] != 0;
  outside[entry] = covered || dense ? 0 : 1;
}

/// @brief One thread per entry: offsets[r] = first entry of row r (S sorted by row), and
/// offsets[rows] = nnz. Each entry writes the offsets of the rows from the one after its
/// predecessor's row up to its own, so empty rows get the next row's start.
/// Preconditions: nnz >= 1; @p offsets holds rows + 1 ints.
/// @param row_of row of each entry
/// @param nnz entries of S
/// @param rows rows of S
/// @param offsets the CSR row offsets (written)
__global__ void row_offsets_kernel(const int* __restrict__ row_of, std::int64_t nnz, int rows,
                                   int* __restrict__ offsets) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  const int row = row_of[entry];
  const int previous_row = entry == 0 ? -1 : row_of[entry - 1];
  for (int filled = previous_row + 1; filled <= row; ++filled) {
    offsets[filled] = static_cast<int>(entry);
  }
  if (entry == nnz - 1) {  // the last entry closes its row and the empty rows after it
    for (int filled = row + 1; filled <= rows; ++filled) {
      offsets[filled] = static_cast<int>(nnz);
    }
  }
}

/// @brief The first position in [begin, end) whose column is at least @p col (a binary
/// search in one sorted row of S), or end.
/// @param col_of column of each entry
/// @param begin first entry of the row
/// @param end one past its last entry
/// @param col the column sought
/// @return the position
__device__ inline int first_column_at_least(const int* col_of, int begin, int end, int col) {
  while (begin < end) {
    const int middle = begin + (end - begin) / 2;
    if (col_of[middle] < col) {
      begin = middle + 1;
    } else {
      end = middle;
    }
  }
  return begin;
}

/// @brief Whether row @p row holds at least @p min_run entries in tile column @p tile_col.
/// @param col_of column of each entry
/// @param offsets S's row offsets
/// @param row the row
/// @param tile_col the tile column
/// @param min_run entries needed (>= 1)
/// @return whether the row's run there is that long
__device__ inline bool long_run(const int* col_of, const int* offsets, int row, int tile_col,
                                int min_run) {
  const int end = offsets[row + 1];
  const int first = first_column_at_least(col_of, offsets[row], end, tile_col * kMaskedTileEdge);
  const int last = first + min_run - 1;
  return last < end && col_of[last] < (tile_col + 1) * kMaskedTileEdge;
}

/// @brief One thread per entry: appends a candidate for each entry that starts a run of at
/// least @p min_run entries of one row inside one tile column, unless the row above, in the
/// same tile, has such a run too (then it, or a row above it, is the candidate: one
/// candidate per vertical stretch of long runs, so a block mask's tile has one, not 16).
/// @param row_of row of each entry
/// @param col_of column of each entry
/// @param offsets S's row offsets (row_offsets_kernel, earlier in the stream)
/// @param outside per entry: 0 for an excluded entry (no candidate starts there)
/// @param nnz entries of S
/// @param min_run entries a run needs (>= 1)
/// @param capacity room in @p candidates (at least nnz / min_run: a run owns min_run entries)
/// @param counts the search's counts (MaskedTileCount), zeroed before
/// @param candidates where the candidates go
__global__ void candidate_rows_kernel(
    const int* __restrict__ row_of, const int* __restrict__ col_of, const int* __restrict__ offsets,
    const unsigned char* __restrict__ outside, std::int64_t nnz, int min_run, std::int64_t capacity,
    unsigned long long* counts, MaskedCandidate* __restrict__ candidates) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry >= nnz) {
    return;  // the last block's threads past S's end
  }
  if (outside[entry] == 0) {
    return;  // another kernel computes this entry, and its whole tile
  }
  const int row = row_of[entry];
  const int tile_col = col_of[entry] / kMaskedTileEdge;
  const bool starts_run =
      entry == 0 || row_of[entry - 1] != row || col_of[entry - 1] / kMaskedTileEdge != tile_col;
  const std::int64_t last = entry + min_run - 1;
  // The run reaches min_run entries exactly when its (min_run - 1)-th successor is still in
  // this row and tile column; past S's end it cannot.
  if (!starts_run || last >= nnz || row_of[last] != row ||
      col_of[last] / kMaskedTileEdge != tile_col) {
    return;
  }
  if (row % kMaskedTileEdge != 0 && long_run(col_of, offsets, row - 1, tile_col, min_run)) {
    return;  // the row above starts (or continues) this stretch of long runs
  }
  const unsigned long long slot = atomicAdd(&counts[kCandidateCount], 1ull);
  if (slot < static_cast<unsigned long long>(capacity)) {
    candidates[slot] = MaskedCandidate{row, tile_col};
  }
}

/// @brief What the search writes for each tile it keeps.
struct MaskedTileOutputs {
  int* starts;                 ///< 16 per tile
  std::uint16_t* masks;        ///< 16 per tile
  std::uint64_t* keys;         ///< one per tile
  unsigned char* outside;      ///< per entry of S: set to 0 inside a kept tile
  unsigned long long* counts;  ///< the search's counts (MaskedTileCount)
};

/// @brief One warp per candidate: lane r < 16 finds the entries of the tile's row r (a binary
/// search for the tile's first column, then up to 17 consecutive entries) and their mask.
/// The candidate of the tile's lowest row with a long enough run owns the tile (the others
/// leave); it keeps the tile when the 16 rows hold at least @p min_entries entries and no
/// row repeats an entry, writes the descriptor and the key, and marks the entries.
/// Preconditions: blockDim.x a multiple of 32; @p offsets from row_offsets_kernel.
/// @param candidates the candidates
/// @param candidate_count their number
/// @param col_of column of each entry
/// @param offsets S's row offsets (rows + 1)
/// @param rows rows of S
/// @param tile_cols tile columns of S, ceil(cols / 16)
/// @param min_run entries a candidate's run has (as candidate_rows_kernel used)
/// @param min_entries entries a kept tile holds at least
/// @param panels panels per super-panel (for the key)
/// @param out where the kept tiles go
__global__ void tile_descriptor_kernel(const MaskedCandidate* __restrict__ candidates,
                                       std::int64_t candidate_count, const int* __restrict__ col_of,
                                       const int* __restrict__ offsets, int rows, int tile_cols,
                                       int min_run, int min_entries, int panels,
                                       MaskedTileOutputs out) {
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  if (warp >= candidate_count) {
    return;  // whole warps past the last candidate
  }
  const MaskedCandidate candidate = candidates[warp];
  const int tile_row = candidate.row / kMaskedTileEdge;
  const int first_col = candidate.tile_col * kMaskedTileEdge;
  const int row = tile_row * kMaskedTileEdge + lane;
  unsigned mask = 0;
  int start = 0;
  bool repeated = false;
  if (lane < kMaskedTileEdge && row < rows) {  // lanes 16..31 and rows past the edge: empty
    const int end = offsets[row + 1];
    start = first_column_at_least(col_of, offsets[row], end, first_col);
    // 16 distinct columns at most: a 17th entry in the tile column is a repeat.
    for (int position = start; position < end && position <= start + kMaskedTileEdge; ++position) {
      const int col = col_of[position];
      if (col >= first_col + kMaskedTileEdge) {
        break;  // the row's next tile column
      }
      const unsigned bit = 1u << (col - first_col);
      repeated = repeated || (mask & bit) != 0;
      mask |= bit;
    }
  }
  const int run = __popc(mask);
  const unsigned long_runs = __ballot_sync(kAllLanes, run >= min_run);
  // The owner is the lowest row with a long run; the other candidates of the tile leave.
  // Both values are the same in every lane, so whole warps leave.
  if (__ffs(long_runs) - 1 != candidate.row % kMaskedTileEdge || __any_sync(kAllLanes, repeated)) {
    return;
  }
  int total = run;
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    total += __shfl_xor_sync(kAllLanes, total, offset);
  }
  if (total < min_entries) {
    return;  // too sparse for Tensor Cores: the lane groups keep these entries
  }
  unsigned long long slot = 0;
  if (lane == 0) {
    slot = atomicAdd(&out.counts[kTileCount], 1ull);
    atomicAdd(&out.counts[kCoveredCount], static_cast<unsigned long long>(total));
    const std::uint64_t super_panel = static_cast<std::uint64_t>(tile_row / panels);
    out.keys[slot] =
        (super_panel * static_cast<std::uint64_t>(tile_cols) + candidate.tile_col) * panels +
        tile_row % panels;
  }
  slot = __shfl_sync(kAllLanes, slot, 0);
  if (lane < kMaskedTileEdge) {
    out.starts[slot * kMaskedTileEdge + lane] = start;
    out.masks[slot * kMaskedTileEdge + lane] = static_cast<std::uint16_t>(mask);
    for (int taken = 0; taken < run; ++taken) {
      out.outside[start + taken] = 0;
    }
  }
}

/// @brief ids[t] = t for every tile: the values the sort by key carries along.
/// @param count tiles
/// @param ids written
__global__ void tile_ids_kernel(std::int64_t count, int* __restrict__ ids) {
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tile < count) {  // the last block's threads past the last tile write nothing
    ids[tile] = static_cast<int>(tile);
  }
}

/// @brief One thread per sorted tile: the key of its step (super-panel and tile column).
/// @param sorted_keys the tiles' keys, sorted
/// @param count tiles
/// @param panels panels per super-panel
/// @param step_keys the steps' keys (written)
__global__ void step_keys_kernel(const std::uint64_t* __restrict__ sorted_keys, std::int64_t count,
                                 int panels, std::uint64_t* __restrict__ step_keys) {
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (tile < count) {  // the last block's threads past the last tile write nothing
    step_keys[tile] = sorted_keys[tile] / static_cast<std::uint64_t>(panels);
  }
}

/// @brief What fill_steps_kernel reads and writes.
struct StepTables {
  const std::uint64_t* unique_keys;  ///< each step's key (run-length encoded)
  const int* offsets;                ///< each step's first sorted tile
  const int* lengths;                ///< each step's tiles
  const std::uint64_t* sorted_keys;  ///< the tiles' keys, sorted
  const int* order;                  ///< the tiles in sorted order
  int* step_cols;                    ///< written: tile column of each step
  int* step_super_panels;            ///< written: super-panel of each step
  int* step_tiles;                   ///< written: `panels` tiles per step, -1 where none
  int* segment_heads;                ///< written: the step where its super-panel starts, or 0
};

/// @brief One thread per step: its tile column, super-panel and tiles, and whether it is the
/// first step of its super-panel.
/// @param tables the arrays
/// @param steps steps
/// @param panels panels per super-panel
/// @param tile_cols tile columns of S
__global__ void fill_steps_kernel(StepTables tables, std::int64_t steps, int panels,
                                  int tile_cols) {
  const std::int64_t step = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (step >= steps) {
    return;  // the last block's threads past the last step
  }
  const std::uint64_t key = tables.unique_keys[step];
  const auto super_panel = static_cast<int>(key / static_cast<std::uint64_t>(tile_cols));
  tables.step_cols[step] = static_cast<int>(key % static_cast<std::uint64_t>(tile_cols));
  tables.step_super_panels[step] = super_panel;
  for (int panel = 0; panel < panels; ++panel) {
    tables.step_tiles[step * panels + panel] = -1;
  }
  const int first = tables.offsets[step];
  for (int sorted = first; sorted < first + tables.lengths[step]; ++sorted) {
    const auto panel = static_cast<int>(tables.sorted_keys[sorted] % panels);
    tables.step_tiles[step * panels + panel] = tables.order[sorted];
  }
  const bool head =
      step == 0 || tables.unique_keys[step - 1] / static_cast<std::uint64_t>(tile_cols) !=
                       static_cast<std::uint64_t>(super_panel);
  tables.segment_heads[step] = head ? static_cast<int>(step) : 0;
}

/// @brief One thread per step (and one past the last): 1 where an item starts, at every
/// item_steps-th step of a super-panel counted from its first; 0 past the last step.
/// @param segment_starts each step's super-panel's first step (a max-scan of the heads)
/// @param steps steps
/// @param item_steps most steps per item
/// @param flags written: steps + 1 of them
__global__ void item_flags_kernel(const int* __restrict__ segment_starts, std::int64_t steps,
                                  int item_steps, int* __restrict__ flags) {
  const std::int64_t step = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (step > steps) {
    return;  // the last block's threads past the sentinel
  }
  flags[step] = step < steps && (step - segment_starts[step]) % item_steps == 0 ? 1 : 0;
}

/// @brief One thread per step: an item's first step goes to its slot; the thread of the
/// sentinel writes item_first_steps[items] = steps.
/// @param flags from item_flags_kernel
/// @param item_index exclusive sums of the flags (steps + 1)
/// @param steps steps
/// @param item_first_steps written: items + 1
__global__ void item_starts_kernel(const int* __restrict__ flags,
                                   const int* __restrict__ item_index, std::int64_t steps,
                                   int* __restrict__ item_first_steps) {
  const std::int64_t step = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (step > steps) {
    return;  // the last block's threads past the sentinel
  }
  if (step == steps) {
    item_first_steps[item_index[step]] = static_cast<int>(steps);
  } else if (flags[step] != 0) {
    item_first_steps[item_index[step]] = static_cast<int>(step);
  }
}

}  // namespace course::step5
