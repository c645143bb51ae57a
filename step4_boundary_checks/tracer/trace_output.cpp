/// @file trace_output.cpp
/// @brief The size of a full trace, and the trace streamed phase by phase.
#include "step4_boundary_checks/tracer/trace_output.hpp"

#include <ostream>

namespace course::step4 {
namespace {

// The longest line of each kind with every index at its largest (sizes up to 1024, tile
// up to 32: indices of 4 digits, offsets of 7), rounded up. tests/test_tracer.cpp checks
// that the real output never exceeds the estimate built from them.
constexpr std::uint64_t kPhaseHeaderBytes = 144;   // "block (..), phase ..", two tile lines, "C:"
constexpr std::uint64_t kValidLoadBytes = 48;      // "    thread (31,31) loads A1055,1055: valid"
constexpr std::uint64_t kInvalidLoadBytes = 224;   // "... INVALID, past the end of row ..."
constexpr std::uint64_t kValidStoreBytes = 48;     // "    thread (31,31) computes C..: valid"
constexpr std::uint64_t kInvalidStoreBytes = 160;  // "... does not exist; stopped by check 3 .."

// The longest SVG element group of each kind, with coordinates of 6 digits and names of 10
// characters (sizes up to 1024 padded to whole tiles of up to 32), rounded up.
constexpr std::uint64_t kSvgFixedBytes = 4096;  // header, titles, tile frames, legend, closing
constexpr std::uint64_t kSvgCellBytes = 200;    // one matrix cell: its frame and its name
constexpr std::uint64_t kSvgLoadBytes = 700;    // one load, with the "reads ..." marks
constexpr std::uint64_t kSvgStoreBytes = 300;   // one C element: its box, name and thread

}  // namespace

std::uint64_t estimate_svg_bytes(const TraceConfig& config) {
  int block_rows = 0;
  int block_cols = 0;
  int phases = 0;
  trace_extent(config, block_rows, block_cols, phases);
  const std::uint64_t tile = static_cast<std::uint64_t>(config.tile);
  const std::uint64_t rows = static_cast<std::uint64_t>(block_rows) * tile;
  const std::uint64_t inner = static_cast<std::uint64_t>(phases) * tile;
  const std::uint64_t cols = static_cast<std::uint64_t>(block_cols) * tile;
  const std::uint64_t cells = rows * inner + inner * cols + rows * cols;
  return kSvgFixedBytes + cells * kSvgCellBytes + 2 * tile * tile * kSvgLoadBytes +
         tile * tile * kSvgStoreBytes;
}

TraceOutputEstimate estimate_trace_output(const TraceConfig& config, bool only_invalid) {
  int block_rows = 0;
  int block_cols = 0;
  int phases = 0;
  trace_extent(config, block_rows, block_cols, phases);
  const std::uint64_t rows = static_cast<std::uint64_t>(config.rows);
  const std::uint64_t inner = static_cast<std::uint64_t>(config.inner);
  const std::uint64_t cols = static_cast<std::uint64_t>(config.cols);
  const std::uint64_t threads = static_cast<std::uint64_t>(config.tile) * config.tile;
  TraceOutputEstimate estimate;
  estimate.phases = static_cast<std::uint64_t>(block_rows) * block_cols * phases;
  const std::uint64_t per_kind = estimate.phases * threads;  // loads of A, of B, C elements
  // Each valid element is loaded once per block that needs it: every block column for A,
  // every block row for B; each C element is listed once per phase.
  const std::uint64_t valid_a = static_cast<std::uint64_t>(block_cols) * rows * inner;
  const std::uint64_t valid_b = static_cast<std::uint64_t>(block_rows) * inner * cols;
  const std::uint64_t valid_c = static_cast<std::uint64_t>(phases) * rows * cols;
  const std::uint64_t invalid_loads = 2 * per_kind - valid_a - valid_b;
  const std::uint64_t invalid_c = per_kind - valid_c;
  const std::uint64_t valid_loads = only_invalid ? 0 : valid_a + valid_b;
  const std::uint64_t valid_stores = only_invalid ? 0 : valid_c;
  estimate.lines = estimate.phases * 5 + invalid_loads + invalid_c + valid_loads + valid_stores;
  estimate.bytes = estimate.phases * kPhaseHeaderBytes + invalid_loads * kInvalidLoadBytes +
                   invalid_c * kInvalidStoreBytes + valid_loads * kValidLoadBytes +
                   valid_stores * kValidStoreBytes;
  return estimate;
}

void print_every_phase(const TraceConfig& config, bool only_invalid, std::ostream& out) {
  int block_rows = 0;
  int block_cols = 0;
  int phases = 0;
  trace_extent(config, block_rows, block_cols, phases);
  for (int block_row = 0; block_row < block_rows; ++block_row) {
    for (int block_col = 0; block_col < block_cols; ++block_col) {
      for (int phase = 0; phase < phases; ++phase) {
        out << describe_phase(config, trace_phase(config, block_row, block_col, phase),
                              only_invalid)
            << "\n";
      }
    }
  }
}

}  // namespace course::step4
