/// @file tile_cursor.cuh
/// @brief Going further: how a thread of the fast kernel loads its share of the A and B tiles
/// as they slide along the inner dimension, with as few instructions per tile as the checks
/// allow. Read fast_gemm.cuh's kernel first; this file supplies its loads.
///
/// Two observations make the loads cheap:
/// - Of the three boundary checks, only the one along the inner dimension has to zero
///   anything. A row of A past the last row of C (or a column of B past the last column) only
///   feeds outputs that are never stored, so the thread reads the last row (column) instead:
///   an address fixed once, before the loop, and never checked again.
/// - Along the inner dimension, every tile but the last ragged one lies wholly inside A and B.
///   Those tiles are loaded with no check at all (FULL = true); the kernel keeps the checked
///   load for the tile that crosses the end of the inner dimension.
/// The cursor keeps one pointer per group and moves it by a whole tile each time, so a load
/// costs one instruction per group instead of a fresh row·length + column per element.
#pragma once

namespace course::step4 {

/// @brief How the threads of a block share a TILE_ROWS×TILE_COLS tile of a row-major matrix:
/// in groups of 4 consecutive columns of one row, group g of thread t being the tile's group
/// t + g·THREADS in row-major order (so a warp's groups are consecutive in memory). Used by
/// TileCursor and by async_copy_gemm.cuh's copy_tile_async.
/// @tparam TILE_ROWS rows of the tile
/// @tparam TILE_COLS columns of the tile (a multiple of 4)
/// @tparam THREADS threads of the block sharing the tile
template <int TILE_ROWS, int TILE_COLS, int THREADS>
struct TileGroups {
  static_assert(TILE_COLS % 4 == 0, "groups of 4 columns");
  static_assert((TILE_ROWS * TILE_COLS) % (4 * THREADS) == 0, "whole groups per thread");
  static constexpr int kPerRow = TILE_COLS / 4;                             ///< groups in a row
  static constexpr int kPerThread = TILE_ROWS * TILE_COLS / (4 * THREADS);  ///< groups a thread has
  static_assert(THREADS % kPerRow == 0,
                "a thread's groups share one column and lie kRowStep rows apart");
  static constexpr int kRowStep = THREADS / kPerRow;  ///< rows between a thread's groups

  /// @brief The tile row of this thread's group @p group.
  /// @param group 0 .. kPerThread - 1
  /// @return the row within the tile
  __device__ static int row(int group) {
    const int index = threadIdx.x + group * THREADS;
    return index / kPerRow;
  }

  /// @brief The first tile column of this thread's groups (a multiple of 4; the same for all).
  /// @return the column within the tile
  __device__ static int col() { return (threadIdx.x % kPerRow) * 4; }
};

/// @brief This thread's groups of the A tile (SLIDES_ALONG_COLS: the tile moves right along
/// A's rows) or of the B tile (the tile moves down B's columns), as pointers into the matrix
/// that advance one tile at a time.
///
/// The fixed side of a group (A's row, B's columns) is clamped into the matrix once, in the
/// constructor: a group outside it reads the last row (columns) instead, whose products land
/// only in outputs outside C. The moving side is the inner dimension; load<false> checks it
/// element by element and zero-fills what lies past its end, load<true> checks nothing.
/// @tparam TILE_ROWS rows of the tile (BM for A, BK for B)
/// @tparam TILE_COLS columns of the tile (BK for A, BN for B)
/// @tparam THREADS threads of the block sharing the load
/// @tparam SLIDES_ALONG_COLS true for A (inner = columns), false for B (inner = rows)
/// @tparam VECTOR one float4 per group (row length a multiple of 4, 16-byte aligned matrix);
/// otherwise four scalar loads
template <int TILE_ROWS, int TILE_COLS, int THREADS, bool SLIDES_ALONG_COLS, bool VECTOR>
struct TileCursor {
  using Groups = TileGroups<TILE_ROWS, TILE_COLS, THREADS>;  ///< how the block shares the tile
  static constexpr int kGroups = Groups::kPerThread;         ///< groups this thread loads per tile

  const float* group_start[kGroups];  ///< first element of each group in the current tile
  int first_k = 0;    ///< k of group 0's first element: its index along inner (A's column, B's row)
  int last_part = 3;  ///< B's scalar path: the last of a group's 4 columns inside B

  /// @brief Points at the tile whose top-left element is (@p tile_row0, @p tile_col0).
  /// @param matrix A or B, row-major
  /// @param matrix_rows its rows
  /// @param matrix_cols its columns (the row length)
  /// @param tile_row0 the tile's first row
  /// @param tile_col0 the tile's first column
  __device__ TileCursor(const float* matrix, int matrix_rows, int matrix_cols, int tile_row0,
                        int tile_col0) {
    int col = tile_col0 + Groups::col();
    if (!SLIDES_ALONG_COLS) {
      // B's column check, done once: columns past the last one feed only columns of C that are
      // never stored, so read inside B instead. A float4 group is wholly in or out (the row
      // length is a multiple of 4); a scalar group keeps its columns up to the last one.
      const int clamped = min(col, matrix_cols - (VECTOR ? 4 : 1));
      last_part = min(3, matrix_cols - 1 - clamped);
      col = clamped;
    }
#pragma unroll
    for (int group = 0; group < kGroups; ++group) {
      int row = tile_row0 + Groups::row(group);
      if (SLIDES_ALONG_COLS) {
        row = min(row, matrix_rows - 1);  // A's row check, done once: see B's column check
      }
      group_start[group] = matrix + row * matrix_cols + col;
    }
    first_k = SLIDES_ALONG_COLS ? col : tile_row0 + Groups::row(0);
  }

  /// @brief Moves to the next tile along the inner dimension.
  /// @param matrix_cols the matrix's row length
  __device__ __forceinline__ void advance(int matrix_cols) {
    const int step = SLIDES_ALONG_COLS ? TILE_COLS : TILE_ROWS * matrix_cols;
#pragma unroll
    for (int group = 0; group < kGroups; ++group) {
      group_start[group] += step;
    }
    first_k += SLIDES_ALONG_COLS ? TILE_COLS : TILE_ROWS;
  }

  /// @brief Loads this thread's groups of the current tile into @p values (4 per group).
  /// @tparam FULL the tile lies wholly inside the inner dimension: no check at all
  /// @param inner the inner dimension (columns of A, rows of B)
  /// @param values receives kGroups·4 values
  template <bool FULL>
  __device__ __forceinline__ void load(int inner, float* values) const {
#pragma unroll
    for (int group = 0; group < kGroups; ++group) {
      const float* start = group_start[group];
      // k of the group's first element: groups of A share it, B's lie rows apart.
      const int first = first_k + (SLIDES_ALONG_COLS ? 0 : group * Groups::kRowStep);
      float4 loaded = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      if (VECTOR) {
        // Inner check (last tile only): A's 4 columns or B's row past the inner dimension
        // (for A all or none of the 4, as inner is a multiple of 4).
        if (FULL || first < inner) {
          loaded = *reinterpret_cast<const float4*>(start);
        }
      } else if (SLIDES_ALONG_COLS) {
        // Inner check, element by element (last tile only): A's columns past the inner dimension.
        loaded.x = FULL || first + 0 < inner ? start[0] : 0.0f;
        loaded.y = FULL || first + 1 < inner ? start[1] : 0.0f;
        loaded.z = FULL || first + 2 < inner ? start[2] : 0.0f;
        loaded.w = FULL || first + 3 < inner ? start[3] : 0.0f;
      } else if (FULL || first < inner) {  // inner check (last tile only): B's row past inner
        loaded.x = start[0];
        loaded.y = start[min(1, last_part)];  // columns past B's last: read the last one
        loaded.z = start[min(2, last_part)];
        loaded.w = start[min(3, last_part)];
      }
      values[group * 4 + 0] = loaded.x;
      values[group * 4 + 1] = loaded.y;
      values[group * 4 + 2] = loaded.z;
      values[group * 4 + 3] = loaded.w;
    }
  }
};

}  // namespace course::step4
