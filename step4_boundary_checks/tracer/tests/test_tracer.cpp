/// @file test_tracer.cpp
/// @brief The tile-access tracer reproduces the note's 3x3 walk-through (CPU only).
#include "common/testing/catch2.hpp"

#include "step4_boundary_checks/tracer/tile_tracer.hpp"
#include "step4_boundary_checks/tracer/trace_output.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace {

using course::step4::AccessKind;
using course::step4::TileLoad;

/// (thread_row, thread_col, element, kind) of every invalid load in @p loads.
using Invalid = std::tuple<int, int, std::string, AccessKind>;

std::set<Invalid> invalid_loads(const std::vector<TileLoad>& loads) {
  std::set<Invalid> result;
  for (const TileLoad& load : loads) {
    if (load.kind != AccessKind::valid) {
      result.insert({load.thread_row, load.thread_col,
                     course::step4::element_name(load.matrix, load.row, load.col), load.kind});
    }
  }
  return result;
}

const TileLoad& load_of(const std::vector<TileLoad>& loads, int thread_row, int thread_col) {
  for (const TileLoad& load : loads) {
    if (load.thread_row == thread_row && load.thread_col == thread_col) {
      return load;
    }
  }
  throw std::logic_error("no such thread");
}

const course::step4::TraceConfig kNoteExample{3, 3, 3, 2};

}  // namespace

TEST_CASE("tracer phase 0 of block 0-0 loads only valid elements", "[step4][tracer]") {
  const course::step4::PhaseTrace trace = course::step4::trace_phase(kNoteExample, 0, 0, 0);
  CHECK(invalid_loads(trace.a_loads).empty());
  CHECK(invalid_loads(trace.b_loads).empty());
}

TEST_CASE("tracer phase 1 of block 0-0 matches the note", "[step4][tracer]") {
  const course::step4::PhaseTrace trace = course::step4::trace_phase(kNoteExample, 0, 0, 1);
  // Threads (0,1) and (1,1) try A0,3 and A1,3: past the end of a row.
  const std::set<Invalid> a_expected = {{0, 1, "A0,3", AccessKind::past_row_end},
                                        {1, 1, "A1,3", AccessKind::past_row_end}};
  CHECK(invalid_loads(trace.a_loads) == a_expected);
  // ... and in row-major order they silently read A1,0 and A2,0.
  const TileLoad& first = load_of(trace.a_loads, 0, 1);
  const TileLoad& second = load_of(trace.a_loads, 1, 1);
  CHECK(course::step4::element_name('A', first.actual_row, first.actual_col) == "A1,0");
  CHECK(course::step4::element_name('A', second.actual_row, second.actual_col) == "A2,0");
  CHECK_THAT(first.stopped_by, Catch::Contains("check 1") && Catch::Contains("column 3 >= inner"));
  // Threads (1,0) and (1,1) try B elements past the end of the array.
  const std::set<Invalid> b_expected = {{1, 0, "B3,0", AccessKind::past_array_end},
                                        {1, 1, "B3,1", AccessKind::past_array_end}};
  CHECK(invalid_loads(trace.b_loads) == b_expected);
  CHECK_THAT(load_of(trace.b_loads, 1, 0).stopped_by,
             Catch::Contains("check 2") && Catch::Contains("row 3 >= inner"));
  // Thread (0,1) computes a valid C0,1 yet loads the invalid A0,3.
  CHECK(trace.c_stores[1].thread_row == 0);
  CHECK(trace.c_stores[1].thread_col == 1);
  CHECK(trace.c_stores[1].valid);
}

TEST_CASE("tracer phase 0 of block 1-1 matches the note", "[step4][tracer]") {
  const course::step4::PhaseTrace trace = course::step4::trace_phase(kNoteExample, 1, 1, 0);
  // Threads (1,0) and (1,1) try A3,0 and A3,1, which do not exist (past the array).
  const std::set<Invalid> a_expected = {{1, 0, "A3,0", AccessKind::past_array_end},
                                        {1, 1, "A3,1", AccessKind::past_array_end}};
  CHECK(invalid_loads(trace.a_loads) == a_expected);
  // Threads (0,1) and (1,1) try B0,3 and B1,3 (past the end of rows 0 and 1).
  const std::set<Invalid> b_expected = {{0, 1, "B0,3", AccessKind::past_row_end},
                                        {1, 1, "B1,3", AccessKind::past_row_end}};
  CHECK(invalid_loads(trace.b_loads) == b_expected);
  CHECK_THAT(load_of(trace.a_loads, 1, 0).stopped_by,
             Catch::Contains("check 1") && Catch::Contains("row 3 >= rows"));
  // A thread with no valid C element still has to load a valid one: thread (0,1)
  // computes the non-existent C2,3 but loads A2,1.
  const TileLoad& loader = load_of(trace.a_loads, 0, 1);
  CHECK(course::step4::element_name('A', loader.row, loader.col) == "A2,1");
  CHECK(loader.kind == AccessKind::valid);
  CHECK_FALSE(trace.c_stores[1].valid);
}

TEST_CASE("tracer finds bad accesses in every phase and only where the note says",
          "[step4][tracer]") {
  int phases_with_invalid = 0;
  for (const course::step4::PhaseTrace& trace : course::step4::trace_all(kNoteExample)) {
    const bool invalid =
        !invalid_loads(trace.a_loads).empty() || !invalid_loads(trace.b_loads).empty();
    phases_with_invalid += invalid ? 1 : 0;
    if (trace.block_row == 0 && trace.block_col == 0 && trace.phase == 0) {
      CHECK_FALSE(invalid);
    }
  }
  CHECK(phases_with_invalid == 7);  // all 8 block-phases but phase 0 of block (0,0)
  CHECK(course::step4::trace_all(kNoteExample).size() == 8u);
}

TEST_CASE("tracer report and picture name the loads", "[step4][tracer]") {
  const course::step4::PhaseTrace trace = course::step4::trace_phase(kNoteExample, 0, 0, 1);
  const std::string text = course::step4::describe_phase(kNoteExample, trace, true);
  CHECK_THAT(text, Catch::Contains("thread (0,1) loads A0,3: INVALID, past the end of row 0"));
  CHECK_THAT(text, Catch::Contains("silently reads A1,0"));
  CHECK_THAT(text, Catch::Contains("thread (1,0) loads B3,0: INVALID, past the end of the array"));
  CHECK_THAT(text, !Catch::Contains("A0,2"));  // only invalid ones listed
  const std::string svg = course::step4::render_svg(kNoteExample, trace);
  CHECK_THAT(svg, Catch::StartsWith("<?xml"));
  CHECK_THAT(svg, Catch::Contains("reads A1,0") && Catch::Contains("out of bounds"));
  CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
}

TEST_CASE("tracer refuses bad sizes and blocks and phases by name", "[step4][tracer]") {
  CHECK_THROWS_WITH(course::step4::trace_phase({3, 3, 3, 0}, 0, 0, 0),
                    Catch::Contains("tile width must be from 1 to 32, got 0"));
  CHECK_THROWS_WITH(course::step4::trace_phase({0, 3, 3, 2}, 0, 0, 0),
                    Catch::Contains("rows must be from 1 to 1024"));
  CHECK_THROWS_WITH(course::step4::trace_phase(kNoteExample, 2, 0, 0),
                    Catch::Contains("block row must be from 0 to 1"));
  CHECK_THROWS_WITH(course::step4::trace_phase(kNoteExample, 0, 0, 2),
                    Catch::Contains("phase must be from 0 to 1"));
}

TEST_CASE("tracer output estimate counts every line and bounds every byte", "[step4][tracer]") {
  // Ragged shapes and tiles, including the largest indices the line bounds allow for.
  const course::step4::TraceConfig configs[] = {{3, 3, 3, 2},    {5, 3, 4, 2},        {7, 1, 9, 4},
                                                {33, 31, 2, 32}, {1024, 1000, 1, 32}, {1, 1, 1, 1}};
  for (const course::step4::TraceConfig& config : configs) {
    for (const bool only_invalid : {false, true}) {
      INFO(config.rows << "x" << config.inner << "x" << config.cols << " tile " << config.tile
                       << (only_invalid ? " only invalid" : ""));
      std::ostringstream out;
      course::step4::print_every_phase(config, only_invalid, out);
      const std::string text = out.str();
      const course::step4::TraceOutputEstimate estimate =
          course::step4::estimate_trace_output(config, only_invalid);
      CHECK(estimate.lines ==
            static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n')));
      CHECK(estimate.bytes >= text.size());
      CHECK(estimate.bytes <= 4 * text.size());  // a bound, but not a wild one
    }
  }
  // The size of the trace, from the sizes alone: a billion phases.
  CHECK(course::step4::estimate_trace_output({1024, 1024, 1024, 1}, false).phases == 1073741824u);
}

TEST_CASE("tracer SVG estimate bounds every picture and refuses the large ones",
          "[step4][tracer]") {
  // Every block and phase of small ragged shapes, and the largest indices of the bound: tile
  // 32 on sizes just past a multiple of 32, where every load past the end is drawn.
  const course::step4::TraceConfig configs[] = {
      {3, 3, 3, 2}, {5, 3, 4, 2}, {7, 1, 9, 4}, {33, 31, 2, 32}, {65, 97, 33, 32}};
  for (const course::step4::TraceConfig& config : configs) {
    int block_rows = 0;
    int block_cols = 0;
    int phases = 0;
    course::step4::trace_extent(config, block_rows, block_cols, phases);
    const std::uint64_t estimate = course::step4::estimate_svg_bytes(config);
    std::uint64_t largest = 0;
    for (int block_row = 0; block_row < block_rows; ++block_row) {
      for (int block_col = 0; block_col < block_cols; ++block_col) {
        for (int phase = 0; phase < phases; ++phase) {
          const std::string svg = course::step4::render_svg(
              config, course::step4::trace_phase(config, block_row, block_col, phase));
          largest = std::max<std::uint64_t>(largest, svg.size());
        }
      }
    }
    INFO(config.rows << "x" << config.inner << "x" << config.cols << " tile " << config.tile);
    CHECK(estimate >= largest);
    CHECK(estimate <= 3 * largest + 8192);  // a bound, but not a wild one
  }
  // The picture: 1024^3 with tile width 32 wrote 551 MB; the estimate says so first.
  CHECK(course::step4::estimate_svg_bytes({1024, 1024, 1024, 32}) > (551ull << 20));
}
