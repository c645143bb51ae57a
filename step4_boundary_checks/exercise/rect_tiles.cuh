/// @cond COURSE_EXERCISE
// Exercise version of step4_boundary_checks/rect_tiles.cuh, approach 3 (kept out of the
// course book). Build and test it as described in exercise/tiled_checked.cuh; the launcher
// (given) runs DefaultRectTiling with blockDim = (kBlockCols, kBlockRows) and gridDim =
// (ceil(cols / kTileCols), ceil(rows / kTileRows)).
//
// Rectangular tiles: the tile height, width and depth are independent, and each
// thread computes several C elements. The same three boundary checks as tiled_checked.cuh.
#pragma once

namespace course::step4 {

/// @brief Compile-time description of a rectangular tiling and the relations it must obey.
/// @tparam TILE_ROWS rows of C per block (height of the A tile)
/// @tparam TILE_COLS columns of C per block (width of the B tile)
/// @tparam TILE_DEPTH columns of the A tile = rows of the B tile (one phase's share of inner)
/// @tparam BLOCK_ROWS threads along y
/// @tparam BLOCK_COLS threads along x
template <int TILE_ROWS, int TILE_COLS, int TILE_DEPTH, int BLOCK_ROWS, int BLOCK_COLS>
struct RectTiling {
  static constexpr int kTileRows = TILE_ROWS;                    ///< rows of C per block
  static constexpr int kTileCols = TILE_COLS;                    ///< columns of C per block
  static constexpr int kTileDepth = TILE_DEPTH;                  ///< inner covered by one phase
  static constexpr int kBlockRows = BLOCK_ROWS;                  ///< blockDim.y
  static constexpr int kBlockCols = BLOCK_COLS;                  ///< blockDim.x
  static constexpr int kThreads = BLOCK_ROWS * BLOCK_COLS;       ///< threads per block
  static constexpr int kRowsPerThread = TILE_ROWS / BLOCK_ROWS;  ///< C rows per thread
  static constexpr int kColsPerThread = TILE_COLS / BLOCK_COLS;  ///< C columns per thread
  static constexpr int kALoadsPerThread = TILE_ROWS * TILE_DEPTH / kThreads;  ///< A loads
  static constexpr int kBLoadsPerThread = TILE_DEPTH * TILE_COLS / kThreads;  ///< B loads

  static_assert(kThreads >= 32 && kThreads <= 1024, "a block holds 32 to 1024 threads");
  static_assert(TILE_ROWS % BLOCK_ROWS == 0, "each thread must own whole rows of the C tile");
  static_assert(TILE_COLS % BLOCK_COLS == 0, "each thread must own whole columns of the C tile");
  static_assert(TILE_ROWS * TILE_DEPTH % kThreads == 0,
                "the A tile must split evenly over the block's threads");
  static_assert(TILE_DEPTH * TILE_COLS % kThreads == 0,
                "the B tile must split evenly over the block's threads");
  static_assert((TILE_ROWS * TILE_DEPTH + TILE_DEPTH * TILE_COLS) * 4 <= 48 * 1024,
                "both tiles must fit the 48 KiB of static shared memory");
};

/// @brief The tiling step 4 uses: a 64×16 A tile by a 16×64 B tile, 16×16 threads, each
/// computing 4×4 C elements.
using DefaultRectTiling = RectTiling<64, 64, 16, 16, 16>;

/// @brief C = A·B for any rows, inner, cols >= 1 with rectangular tiles (TODO below).
///
/// Preconditions: blockDim = (Tiling::kBlockCols, Tiling::kBlockRows); gridDim =
/// (ceil(cols / kTileCols), ceil(rows / kTileRows)); rows·inner, inner·cols, rows·cols fit in int.
/// Thread (ty, tx) computes C rows ty + i·kBlockRows and columns tx + j·kBlockCols of its block's
/// tile, so neighbouring threads touch neighbouring columns (coalesced stores, no bank conflicts).
/// @tparam Tiling a RectTiling
/// @param a A, rows×inner row-major
/// @param b B, inner×cols row-major
/// @param c C, rows×cols row-major (written)
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
template <typename Tiling>
__global__ void __launch_bounds__(Tiling::kThreads)
    rect_tiles_kernel(const float* a, const float* b, float* c, int rows, int inner, int cols) {
  // TODO(step 4): the rectangular-tile product; the same three checks as
  // tiled_checked_kernel, but each thread loads several tile elements and computes
  // Tiling::kRowsPerThread × Tiling::kColsPerThread C elements.
  //  - __shared__ float a_tile[Tiling::kTileRows][Tiling::kTileDepth] and
  //    b_tile[Tiling::kTileDepth][Tiling::kTileCols].
  //  - The block's C tile starts at (blockIdx.y·kTileRows, blockIdx.x·kTileCols). Number
  //    the threads thread_id = threadIdx.y·kBlockCols + threadIdx.x (0 .. kThreads-1).
  //  - A register array float sums[kRowsPerThread][kColsPerThread] = {} holds the thread's
  //    outputs.
  //  - Phases of kTileDepth along inner (ceil(inner / kTileDepth) of them). In each:
  //      * load the A tile: for load = 0 .. kALoadsPerThread-1, the thread's element is
  //        e = thread_id + load·kThreads, at tile position (e / kTileDepth, e % kTileDepth).
  //        Check 1: its A row < rows and its A column < inner, else store 0.0f.
  //      * load the B tile the same way with kBLoadsPerThread, tile position
  //        (e / kTileCols, e % kTileCols). Check 2: B row < inner and B column < cols.
  //        (Consecutive threads take consecutive columns: coalesced global reads.)
  //      * __syncthreads(): the tiles must be complete before anyone reads them.
  //      * for each depth, add a_tile[ty + i·kBlockRows][depth] · b_tile[depth][tx +
  //        j·kBlockCols] to sums[i][j]. The outputs of a thread are kBlockRows rows and
  //        kBlockCols columns apart (NOT adjacent): neighbouring threads then touch
  //        neighbouring columns, which keeps the stores coalesced and the shared-memory
  //        reads free of bank conflicts. The static_asserts of RectTiling guarantee that
  //        these strides cover the tile exactly.
  //      * __syncthreads(): everyone must be done reading before the next phase's loads.
  //  - Check 3: store sums[i][j] at C(block row0 + ty + i·kBlockRows, block col0 + tx +
  //    j·kBlockCols) only where that row < rows and that column < cols.
}

}  // namespace course::step4
/// @endcond
