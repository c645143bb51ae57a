/// @file tracer_main.cpp
/// @brief step4_tile_tracer: prints, block by block and phase by phase, which thread of the
/// tiled kernel loads which element of A and B, which loads are invalid and which check
/// stops them; optionally writes an SVG picture of one block and phase.
///
/// Example (the note's walk-through): `step4_tile_tracer --size 3 --tile 2 --only-invalid`
/// and `step4_tile_tracer --size 3 --tile 2 --block-row 0 --block-col 0 --phase 1
/// --svg block00_phase1.svg`.
#include "common/cli.hpp"
#include "common/output_file.hpp"
#include "step4_boundary_checks/tracer/tile_tracer.hpp"
#include "step4_boundary_checks/tracer/trace_output.hpp"

#include <iostream>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace {

/// Refuses a full trace that would print more than @p max_output_mb MiB, with its size.
void check_output_size(const course::step4::TraceConfig& config, bool only_invalid,
                       long long max_output_mb) {
  const course::step4::TraceOutputEstimate output =
      course::step4::estimate_trace_output(config, only_invalid);
  const std::uint64_t limit = static_cast<std::uint64_t>(max_output_mb) << 20;
  if (output.bytes > limit) {
    throw course::UsageError(
        "the full trace would print " + std::to_string(output.lines) + " lines (up to " +
        std::to_string(output.bytes >> 20) + " MiB, " + std::to_string(output.phases) +
        " block phases), more than the limit of --max-output-mb " + std::to_string(max_output_mb) +
        ": trace one phase with --block-row/--block-col/--phase, use --only-invalid, a wider "
        "--tile or smaller sizes, or raise --max-output-mb");
  }
}

/// Refuses a partial choice of block and phase, --svg without one, and --max-output-mb where
/// the output is short (the text of one phase without a picture).
void check_choice(const course::ArgParser& parser, bool chosen, bool complete, bool svg) {
  if (chosen && !complete) {
    throw course::UsageError("give all three of --block-row, --block-col and --phase, or none");
  }
  if (svg && !chosen) {
    throw course::UsageError(
        "--svg needs the block and phase to draw (--block-row, --block-col, --phase)");
  }
  if (chosen && !svg && parser.given("--max-output-mb")) {
    throw course::UsageError(
        "--max-output-mb applies to the full trace and to --svg (one phase's text is short)");
  }
}

/// Refuses a picture larger than @p max_output_mb MiB, before drawing it.
void check_svg_size(const course::step4::TraceConfig& config, long long max_output_mb) {
  const std::uint64_t bytes = course::step4::estimate_svg_bytes(config);
  if (bytes > static_cast<std::uint64_t>(max_output_mb) << 20) {
    throw course::UsageError(
        "the SVG would take up to " + std::to_string(bytes >> 20) + " MiB (it draws every " +
        "element of A, B and C), more than the limit of --max-output-mb " +
        std::to_string(max_output_mb) + ": draw smaller sizes, or raise --max-output-mb");
  }
}

int run(int argc, char** argv) {
  long long size = 3;
  long long rows = 3;
  long long inner = 3;
  long long cols = 3;
  long long tile = 2;
  long long block_row = -1;
  long long block_col = -1;
  long long phase = -1;
  bool only_invalid = false;
  long long max_output_mb = 256;
  std::string svg_path;
  course::ArgParser parser(
      "step4_tile_tracer",
      "Traces the memory accesses of the tiled matrix product C = A.B (A is rows x inner, B is "
      "inner x cols) "
      "as the unchecked kernel would make them. Thread (ty,tx) = (threadIdx.y, threadIdx.x). "
      "Lists every block and phase, or one of them with --block-row/--block-col/--phase, "
      "and writes an SVG of that one with --svg.");
  parser.add_integer("--size", &size, 1, 1024,
                     "rows = inner = cols (instead of --rows/--inner/--cols)");
  parser.add_integer("--rows", &rows, 1, 1024, "rows of A and C");
  parser.add_integer("--inner", &inner, 1, 1024, "columns of A and rows of B");
  parser.add_integer("--cols", &cols, 1, 1024, "columns of B and C");
  parser.add_integer("--tile", &tile, 1, 32, "tile width T (blocks of TxT threads)");
  parser.add_integer("--block-row", &block_row, -1, 1023, "trace only this block row (by)");
  parser.add_integer("--block-col", &block_col, -1, 1023, "trace only this block column (bx)");
  parser.add_integer("--phase", &phase, -1, 1023, "trace only this phase");
  parser.add_flag("--only-invalid", &only_invalid, "list only the invalid accesses");
  parser.add_output_file("--svg", &svg_path, "write a picture of the chosen block and phase here");
  parser.add_integer("--max-output-mb", &max_output_mb, 1, 1 << 20,
                     "refuse a full trace or an SVG that would take more than this many MiB");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  const course::step4::TraceConfig config{static_cast<int>(rows), static_cast<int>(inner),
                                          static_cast<int>(cols), static_cast<int>(tile)};
  try {
    course::step4::validate_trace_config(config);
  } catch (const std::invalid_argument& error) {
    throw course::UsageError(error.what());
  }
  const bool chosen = block_row >= 0 || block_col >= 0 || phase >= 0;
  // Every check before any output: the choice of one phase, then the size of what is asked for.
  check_choice(parser, chosen, block_row >= 0 && block_col >= 0 && phase >= 0, !svg_path.empty());
  course::step4::PhaseTrace trace;
  if (chosen) {
    try {
      trace = course::step4::trace_phase(config, static_cast<int>(block_row),
                                         static_cast<int>(block_col), static_cast<int>(phase));
    } catch (const std::invalid_argument& error) {
      throw course::UsageError(error.what());
    }
  }
  if (!svg_path.empty()) {
    check_svg_size(config, max_output_mb);
  }
  if (!chosen) {
    check_output_size(config, only_invalid, max_output_mb);
  }
  std::cout << "Tile trace: rows=" << rows << " inner=" << inner << " cols=" << cols
            << ", tile width " << tile
            << "; thread (ty,tx) = (threadIdx.y, threadIdx.x), block (by,bx)\n\n";
  if (!chosen) {
    course::step4::print_every_phase(config, only_invalid, std::cout);
    return 0;
  }
  std::cout << course::step4::describe_phase(config, trace, only_invalid);
  if (!svg_path.empty()) {
    course::write_output_file(svg_path, course::step4::render_svg(config, trace));
    std::cout << "\nwrote " << svg_path << "\n";
  }
  return 0;
}

}  // namespace

/// @brief Entry point: parses the options and prints (and draws) the trace.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 2 on a bad command line, 1 on another error
int main(int argc, char** argv) {
  return course::run_program("step4_tile_tracer", [&] { return run(argc, argv); });
}
