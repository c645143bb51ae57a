/// @file tile_tracer.hpp
/// @brief A CPU model of the tiled kernel's memory accesses: for each block and phase, which
/// thread loads which element of A and of B, which of those loads are invalid, and which
/// boundary check stops each one.
///
/// Naming convention (the note's): thread (ty, tx) is (threadIdx.y, threadIdx.x) and block
/// (by, bx) is (blockIdx.y, blockIdx.x), i.e. (row, column). Thread (ty, tx) of block
/// (by, bx) computes C(by·T + ty, bx·T + tx) and, in phase ph, loads A(by·T + ty, ph·T + tx)
/// into the A tile and B(ph·T + ty, bx·T + tx) into the B tile -- the index formulas of
/// tiled_unchecked.cuh and tiled_checked.cuh. With this convention the tracer reproduces the
/// note's walk-through of the 3×3 product with tile width 2 exactly.
#pragma once

#include <string>
#include <vector>

namespace course::step4 {

/// @brief What a load would really touch if the kernel had no checks.
enum class AccessKind {
  valid,           ///< an element of the matrix
  past_row_end,    ///< column past the end of a row: silently reads a later row's element
  past_array_end,  ///< linear index past the last element: outside the allocation
};

/// @brief The sizes and tile width being traced.
struct TraceConfig {
  int rows = 0;   ///< rows of A and C
  int inner = 0;  ///< columns of A, rows of B
  int cols = 0;   ///< columns of B and C
  int tile = 0;   ///< tile width T (blocks are T×T threads)
};

/// @brief One thread's load of one tile element.
struct TileLoad {
  char matrix = 'A';     ///< 'A' or 'B'
  int thread_row = 0;    ///< ty
  int thread_col = 0;    ///< tx
  int row = 0;           ///< row the index formula names (may be outside the matrix)
  int col = 0;           ///< column the index formula names (may be outside the matrix)
  long long linear = 0;  ///< row · (row length) + col: the offset actually read
  AccessKind kind = AccessKind::valid;  ///< valid, past the end of a row, past the array
  int actual_row = -1;                  ///< for past_row_end: the row of the element really read
  int actual_col = -1;                  ///< for past_row_end: the column of the element really read
  std::string stopped_by;               ///< the check (and clause) that stops it; empty when valid
};

/// @brief One thread's C element in a block.
struct PStore {
  int thread_row = 0;  ///< ty
  int thread_col = 0;  ///< tx
  int row = 0;         ///< row of C
  int col = 0;         ///< column of C
  bool valid = false;  ///< inside C (otherwise check 3 stops the store)
};

/// @brief Every access of one block in one phase.
struct PhaseTrace {
  int block_row = 0;              ///< by
  int block_col = 0;              ///< bx
  int phase = 0;                  ///< ph
  std::vector<TileLoad> a_loads;  ///< T·T loads of the A tile, thread order
  std::vector<TileLoad> b_loads;  ///< T·T loads of the B tile, thread order
  std::vector<PStore> c_stores;   ///< T·T C elements, thread order
};

/// @brief Throws std::invalid_argument unless every size is 1..1024 and the tile 1..32.
/// @param config sizes to check
void validate_trace_config(const TraceConfig& config);

/// @brief Number of blocks along rows and columns, and of phases.
/// @param config the sizes
/// @param block_rows receives ceil(rows / T)
/// @param block_cols receives ceil(cols / T)
/// @param phases receives ceil(inner / T)
void trace_extent(const TraceConfig& config, int& block_rows, int& block_cols, int& phases);

/// @brief Traces block (@p block_row, @p block_col) in phase @p phase; throws
/// std::invalid_argument when one of them is out of range.
/// @param config the sizes
/// @param block_row by
/// @param block_col bx
/// @param phase ph
PhaseTrace trace_phase(const TraceConfig& config, int block_row, int block_col, int phase);

/// @brief Every block and phase, blocks in row-major order, phases in order.
/// @param config the sizes
std::vector<PhaseTrace> trace_all(const TraceConfig& config);

/// @brief Element name as the note writes it: "A1,0".
/// @param matrix 'A', 'B' or 'C'
/// @param row row
/// @param col column
std::string element_name(char matrix, int row, int col);

/// @brief One line about one load, e.g. "thread (0,1) loads A0,3: INVALID, past the end of
/// row 0 -- without a check it silently reads A1,0; stopped by check 1 ...".
/// @param load the load
std::string describe_load(const TileLoad& load);

/// @brief A readable report of one block and phase.
/// @param config the sizes
/// @param trace the block's accesses
/// @param only_invalid list only the invalid loads and C stores
std::string describe_phase(const TraceConfig& config, const PhaseTrace& trace, bool only_invalid);

/// @brief An SVG picture of one block and phase: A, B and C with the tiles, each loaded
/// element labelled with its thread, invalid loads coloured by kind.
/// @param config the sizes
/// @param trace the block's accesses
std::string render_svg(const TraceConfig& config, const PhaseTrace& trace);

}  // namespace course::step4
