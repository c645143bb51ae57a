/// @file trace_output.hpp
/// @brief How much text a full trace prints and how large a picture of one phase is, worked out
/// before printing or drawing them, and the trace of every block and phase streamed one phase
/// at a time.
///
/// A trace of 1024×1024×1024 with tile width 1 has a billion phases: built in memory first
/// it would take hundreds of GB, and even streamed it prints hundreds of GB. The tracer
/// program therefore asks estimate_trace_output() first and refuses a trace above its
/// output limit, and print_every_phase() never holds more than one phase in memory.
#pragma once

#include "step4_boundary_checks/tracer/tile_tracer.hpp"

#include <cstdint>
#include <iosfwd>

namespace course::step4 {

/// @brief The size of the report that print_every_phase() would write.
struct TraceOutputEstimate {
  std::uint64_t phases = 0;  ///< blocks × phases traced
  std::uint64_t lines = 0;   ///< lines printed (exact)
  std::uint64_t bytes = 0;   ///< bytes printed (an upper bound: each line at its longest)
};

/// @brief Counts the lines of the full trace from the sizes alone (no tracing): over all
/// blocks and phases, the valid A loads are ceil(cols/T)·rows·inner, the valid B loads
/// ceil(rows/T)·inner·cols and the valid C elements ceil(inner/T)·rows·cols; the rest are invalid.
/// @param config validated sizes
/// @param only_invalid whether only the invalid loads and stores are listed
/// @return the count of phases and lines and a bound on the bytes
TraceOutputEstimate estimate_trace_output(const TraceConfig& config, bool only_invalid);

/// @brief An upper bound on the bytes of render_svg() for any block and phase of @p config,
/// from the sizes alone: the picture draws every element of A, B and C (padded to whole tiles),
/// so a 1024×1024×1024 product with tile width 32 is over 500 MB whatever phase it shows.
/// tests/test_tracer.cpp checks that no picture exceeds it.
/// @param config validated sizes
/// @return bytes
std::uint64_t estimate_svg_bytes(const TraceConfig& config);

/// @brief Prints describe_phase() of every block and phase, blocks in row-major order and
/// phases in order, each followed by a blank line, tracing one phase at a time.
/// @param config validated sizes
/// @param only_invalid list only the invalid loads and stores
/// @param out where the report goes
void print_every_phase(const TraceConfig& config, bool only_invalid, std::ostream& out);

}  // namespace course::step4
