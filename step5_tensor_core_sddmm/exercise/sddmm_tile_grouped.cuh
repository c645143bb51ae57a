/// @file sddmm_tile_grouped.cuh
/// @brief Approach 3, the note's COO version: Tensor Cores on the non-empty 16×16 tiles only.
///
/// After group_by_tile, warp w owns tile w: it computes the tile's 16×16 block of A·B with
/// WMMA and writes the values at the tile's nonzeros, positions tile_offsets[w] ..
/// tile_offsets[w+1] (the note's version 2; its version 1 scanned all nnz in every warp).
/// Each result is written by the lane whose fragment register holds it, found with the
/// lane-to-element map of fragment_map.cuh, straight into S's order through the
/// permutation. No dense rows×cols storage exists anywhere.
#pragma once

#include "step5_tensor_core_sddmm/fragment_map.cuh"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <cstdint>

namespace course::step5 {

/// @brief frag.x[index] for a run-time index without dynamic register indexing (which would
/// move the fragment to local memory): compare against each constant index.
/// @param accumulator the fragment
/// @param index 0..7
/// @return the element
__device__ inline float fragment_value(const AccumulatorFragment& accumulator, int index) {
  float value = 0.0f;
#pragma unroll
  for (int candidate = 0; candidate < kAccumulatorElementsPerLane; ++candidate) {
    value = candidate == index ? accumulator.x[candidate] : value;
  }
  return value;
}

/// @brief One warp per non-empty tile; blockDim.x = 32 · kWarpsPerBlock.
///
/// Preconditions: the tile arrays come from group_by_tile for the same S and cols; the GPU is
/// sm_80 or newer for the lane map (older GPUs take a layout-free path through shared
/// memory, chosen at compile time).
/// @tparam kWarpsPerBlock warps per block
/// @tparam kTileRanges true: loop over the tile's own range (version 2); false: every warp
///         scans all nnz and keeps those in its tile (the note's version 1, for the lesson)
/// @param operands A and Bᵀ
/// @param tile_count number of non-empty tiles
/// @param tile_cols tiles per tile row
/// @param tile_keys key of each tile (tile_row · tile_cols + tile_col)
/// @param tile_offsets range of each tile in the sorted arrays
/// @param nnz number of nonzeros
/// @param sorted_rows rows in tile order
/// @param sorted_cols columns in tile order
/// @param sorted_values values in tile order
/// @param permutation tile order -> S's order
/// @param vector_a A allows 16-byte loads
/// @param vector_b Bᵀ allows 16-byte loads
/// @param output one float per nonzero, S's order
template <int kWarpsPerBlock, bool kTileRanges>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    sddmm_tile_grouped_kernel(DenseOperands operands, std::int64_t tile_count, int tile_cols,
                              const std::uint64_t* tile_keys, const int* tile_offsets, int nnz,
                              const int* sorted_rows, const int* sorted_cols,
                              const float* sorted_values, const int* permutation, bool vector_a,
                              bool vector_b, float* output) {
  static_assert(kWarpsPerBlock >= 1 && kWarpsPerBlock <= 32, "1..32 warps per block");
  __shared__ WarpStage stages[kWarpsPerBlock];
  const int warp_in_block = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + warp_in_block;
  if (tile >= tile_count) {
    return;  // warps of the last block past the last tile; whole warps leave together
  }
  const int tile_row = static_cast<int>(tile_keys[tile] / static_cast<std::uint64_t>(tile_cols));
  const int tile_col = static_cast<int>(tile_keys[tile] % static_cast<std::uint64_t>(tile_cols));
  AccumulatorFragment accumulator;
  warp_tile_product(accumulator, operands, tile_row, tile_col, stages[warp_in_block], lane,
                    vector_a, vector_b);
  const int begin = kTileRanges ? tile_offsets[tile] : 0;
  const int end = kTileRanges ? tile_offsets[tile + 1] : nnz;
#if __CUDA_ARCH__ >= 800
  // BEGIN EXERCISE write_back
  // TODO(step 5, approach 3): write the tile's results.
  // What to achieve: for every position p in [begin, end) whose nonzero (sorted_rows[p],
  // sorted_cols[p]) lies in this warp's tile (tile_row, tile_col), output[permutation[p]] =
  // sorted_values[p] · (A·B)(sorted_rows[p], sorted_cols[p]), written exactly once. With
  // version 2 (kTileRanges) every position of the range is in the tile; with version 1 the
  // range is all nnz, and most positions belong to other tiles. The warp holds the tile's
  // 16×16 block of A·B in `accumulator`, spread over its 32 lanes, 8 elements each: a lane
  // can read only its own. fragment_map.cuh says which lane holds an element and in which of
  // its 8 registers; fragment_value reads a register chosen at run time. No shared memory
  // and no shuffles: the older GPUs' path below does it through shared memory instead.
  // Checked on the GPU (sm_80 or newer; approach 3 in each) by the "all approaches" tests and
  // "approach 3 version 1 scanning all nonzeros gives the same result":
  //   scripts/try_exercise.sh step5
  // (see step5_tensor_core_sddmm/exercise/README.md). Hints: exercise/HINTS.md.
  static_cast<void>(begin);  // (remove these two lines once your loop uses begin and end)
  static_cast<void>(end);
  // END EXERCISE write_back
#else
  // Volta/Turing hold the accumulator in another layout: go through shared memory instead.
  float* tile_values = reinterpret_cast<float*>(&stages[warp_in_block]);  // 256 floats = 1 KiB
  nvcuda::wmma::store_matrix_sync(tile_values, accumulator, kTile, nvcuda::wmma::mem_row_major);
  __syncwarp();  // the stored tile is visible to every lane
  for (int position = begin + lane; position < end; position += 32) {
    const int row_in_tile = sorted_rows[position] - tile_row * kTile;
    const int col_in_tile = sorted_cols[position] - tile_col * kTile;
    if (row_in_tile >= 0 && row_in_tile < kTile && col_in_tile >= 0 && col_in_tile < kTile) {
      output[permutation[position]] =
          sorted_values[position] * tile_values[row_in_tile * kTile + col_in_tile];
    }
  }
#endif
}

}  // namespace course::step5
