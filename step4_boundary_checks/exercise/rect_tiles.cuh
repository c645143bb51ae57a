/// @file rect_tiles.cuh
/// @brief Rectangular tiles: the tile height, width and depth are independent, and each
/// thread computes several C elements. The same three boundary checks as tiled_checked.cuh.
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

/// @brief C = A·B for any rows, inner, cols >= 1 with rectangular tiles.
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
  // BEGIN EXERCISE rect_tiles_kernel
  // TODO(step 4): the rectangular-tile product, right for every shape.
  // What to achieve: block (by, bx) computes the Tiling::kTileRows × Tiling::kTileCols tile of
  // C whose first element is (by·kTileRows, bx·kTileCols), with an A tile of kTileRows ×
  // kTileDepth and a B tile of kTileDepth × kTileCols in shared memory per phase. The block
  // has fewer threads than the tiles have elements: each thread loads kALoadsPerThread
  // elements of the A tile and kBLoadsPerThread of the B tile per phase (consecutive threads
  // loading consecutive elements of a tile row, so that the reads from global memory
  // coalesce), and computes kRowsPerThread × kColsPerThread elements of C in registers, at
  // the rows and columns the comment above the kernel gives (kBlockRows and kBlockCols
  // apart). RectTiling's static_asserts guarantee that these counts and strides cover the
  // tiles exactly. The boundary rules are those of tiled_checked.cuh: every element of C
  // written once and nothing outside C, nothing read outside A and B, every __syncthreads()
  // reached by every thread.
  // Checked on the GPU by the same tests as tiled_checked.cuh (their kernel "rect tiles"):
  //   scripts/try_exercise.sh step4
  // and the memcheck command of step4_boundary_checks/exercise/README.md. Hints: HINTS.md.
  // END EXERCISE rect_tiles_kernel
}

}  // namespace course::step4
