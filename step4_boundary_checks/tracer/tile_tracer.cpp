/// @file tile_tracer.cpp
/// @brief The tile-access tracer: the model of the loads, their report and their picture.
#include "step4_boundary_checks/tracer/tile_tracer.hpp"

#include "common/launch_math.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace course::step4 {
namespace {

constexpr int kMaxTraceSize = 1024;
constexpr int kMaxTraceTile = 32;

// Classifies the load of element (row, col) of a rows×cols row-major matrix as the
// unchecked kernel would perform it, and names the check that stops it.
TileLoad classify(char matrix, int thread_row, int thread_col, int row, int col, int rows, int cols,
                  const std::string& check) {
  TileLoad load;
  load.matrix = matrix;
  load.thread_row = thread_row;
  load.thread_col = thread_col;
  load.row = row;
  load.col = col;
  load.linear = static_cast<long long>(row) * cols + col;
  const long long elements = static_cast<long long>(rows) * cols;
  if (row < rows && col < cols) {
    load.kind = AccessKind::valid;
    return load;
  }
  load.kind = load.linear < elements ? AccessKind::past_row_end : AccessKind::past_array_end;
  if (load.kind == AccessKind::past_row_end) {
    load.actual_row = static_cast<int>(load.linear / cols);
    load.actual_col = static_cast<int>(load.linear % cols);
  }
  // The checks test the row first; name the clause that fails.
  const char* row_limit = matrix == 'A' ? "rows" : "inner";
  const char* col_limit = matrix == 'A' ? "inner" : "cols";
  std::ostringstream reason;
  reason << check << " (";
  if (row >= rows) {
    reason << "row " << row << " >= " << row_limit << " = " << rows;
  } else {
    reason << "column " << col << " >= " << col_limit << " = " << cols;
  }
  reason << ")";
  load.stopped_by = reason.str();
  return load;
}

const char* fill_for(AccessKind kind) {
  switch (kind) {
    case AccessKind::valid:
      return "#cfe8cf";
    case AccessKind::past_row_end:
      return "#ffd08a";
    case AccessKind::past_array_end:
      return "#f3a0a0";
  }
  return "#ffffff";
}

// Writes SVG for one matrix region; tile loads are drawn over it by the caller.
struct Grid {
  int x = 0;
  int y = 0;
  int shown_rows = 0;
  int shown_cols = 0;
  int rows = 0;
  int cols = 0;
  char name = 'A';
};

constexpr int kCell = 86;

void draw_grid(std::ostringstream& svg, const Grid& grid) {
  for (int row = 0; row < grid.shown_rows; ++row) {
    for (int col = 0; col < grid.shown_cols; ++col) {
      const int x = grid.x + col * kCell;
      const int y = grid.y + row * kCell;
      const bool inside = row < grid.rows && col < grid.cols;
      svg << "<rect x='" << x << "' y='" << y << "' width='" << kCell << "' height='" << kCell
          << "' fill='" << (inside ? "#ffffff" : "none") << "' stroke='"
          << (inside ? "#555555" : "#bbbbbb") << "'" << (inside ? "" : " stroke-dasharray='4 3'")
          << "/>\n";
      if (inside) {
        svg << "<text x='" << x + kCell / 2 << "' y='" << y + 18
            << "' text-anchor='middle' font-size='13' fill='#333'>"
            << element_name(grid.name, row, col) << "</text>\n";
      }
    }
  }
  svg << "<text x='" << grid.x << "' y='" << grid.y - 8 << "' font-size='15' font-weight='bold'>"
      << grid.name << " (" << grid.rows << "x" << grid.cols << ")</text>\n";
}

void draw_tile_frame(std::ostringstream& svg, const Grid& grid, int row0, int col0, int tile) {
  svg << "<rect x='" << grid.x + col0 * kCell << "' y='" << grid.y + row0 * kCell << "' width='"
      << tile * kCell << "' height='" << tile * kCell
      << "' fill='none' stroke='#1f4e9e' stroke-width='3'/>\n";
}

void draw_load(std::ostringstream& svg, const Grid& grid, const TileLoad& load) {
  const int x = grid.x + load.col * kCell;
  const int y = grid.y + load.row * kCell;
  svg << "<rect x='" << x + 2 << "' y='" << y + 2 << "' width='" << kCell - 4 << "' height='"
      << kCell - 4 << "' fill='" << fill_for(load.kind) << "' fill-opacity='0.85'/>\n";
  svg << "<text x='" << x + kCell / 2 << "' y='" << y + 18
      << "' text-anchor='middle' font-size='13' fill='#000'>"
      << element_name(load.matrix, load.row, load.col) << "</text>\n";
  svg << "<text x='" << x + kCell / 2 << "' y='" << y + 36
      << "' text-anchor='middle' font-size='12' fill='#1f4e9e'>t(" << load.thread_row << ","
      << load.thread_col << ")</text>\n";
  if (load.kind == AccessKind::past_row_end) {
    svg << "<text x='" << x + kCell / 2 << "' y='" << y + 54
        << "' text-anchor='middle' font-size='11' fill='#8a4b00'>reads "
        << element_name(load.matrix, load.actual_row, load.actual_col) << "</text>\n";
    const int real_x = grid.x + load.actual_col * kCell;
    const int real_y = grid.y + load.actual_row * kCell;
    svg << "<rect x='" << real_x + 4 << "' y='" << real_y + 4 << "' width='" << kCell - 8
        << "' height='" << kCell - 8
        << "' fill='none' stroke='#e07b00' stroke-width='2.5' stroke-dasharray='6 3'/>\n";
    svg << "<text x='" << real_x + kCell / 2 << "' y='" << real_y + 54
        << "' text-anchor='middle' font-size='11' fill='#8a4b00'>read by t(" << load.thread_row
        << "," << load.thread_col << ")</text>\n";
  } else if (load.kind == AccessKind::past_array_end) {
    svg << "<text x='" << x + kCell / 2 << "' y='" << y + 54
        << "' text-anchor='middle' font-size='11' fill='#8b0000'>out of bounds</text>\n";
  }
}

void draw_store(std::ostringstream& svg, const Grid& grid, const PStore& store) {
  const int x = grid.x + store.col * kCell;
  const int y = grid.y + store.row * kCell;
  svg << "<rect x='" << x + 2 << "' y='" << y + 2 << "' width='" << kCell - 4 << "' height='"
      << kCell - 4 << "' fill='" << (store.valid ? "#cfdff5" : "#e4e4e4")
      << "' fill-opacity='0.85'/>\n";
  svg << "<text x='" << x + kCell / 2 << "' y='" << y + 18
      << "' text-anchor='middle' font-size='13'>"
      << (store.valid ? element_name('C', store.row, store.col) : std::string("no C"))
      << "</text>\n";
  svg << "<text x='" << x + kCell / 2 << "' y='" << y + 36
      << "' text-anchor='middle' font-size='12' fill='#1f4e9e'>t(" << store.thread_row << ","
      << store.thread_col << ")</text>\n";
}

void draw_legend(std::ostringstream& svg, int x, int y) {
  const struct {
    const char* fill;
    const char* text;
  } entries[] = {
      {"#cfe8cf", "valid load"},
      {"#ffd08a", "past the end of a row: silently reads a later row's element (dashed)"},
      {"#f3a0a0", "past the end of the array: out of bounds"},
      {"#cfdff5", "C element the thread computes"},
      {"#e4e4e4", "thread with no C element (it still loads)"},
  };
  int line = 0;
  for (const auto& entry : entries) {
    svg << "<rect x='" << x << "' y='" << y + line * 22 << "' width='16' height='16' fill='"
        << entry.fill << "' stroke='#555'/>\n";
    svg << "<text x='" << x + 24 << "' y='" << y + line * 22 + 13 << "' font-size='13'>"
        << entry.text << "</text>\n";
    ++line;
  }
}

}  // namespace

void validate_trace_config(const TraceConfig& config) {
  const struct {
    const char* name;
    int value;
    int max;
  } limits[] = {{"rows", config.rows, kMaxTraceSize},
                {"inner", config.inner, kMaxTraceSize},
                {"cols", config.cols, kMaxTraceSize},
                {"tile width", config.tile, kMaxTraceTile}};
  for (const auto& limit : limits) {
    if (limit.value < 1 || limit.value > limit.max) {
      throw std::invalid_argument(std::string("tracer: ") + limit.name + " must be from 1 to " +
                                  std::to_string(limit.max) + ", got " +
                                  std::to_string(limit.value));
    }
  }
}

void trace_extent(const TraceConfig& config, int& block_rows, int& block_cols, int& phases) {
  validate_trace_config(config);
  block_rows = ceil_div(config.rows, config.tile);
  block_cols = ceil_div(config.cols, config.tile);
  phases = ceil_div(config.inner, config.tile);
}

PhaseTrace trace_phase(const TraceConfig& config, int block_row, int block_col, int phase) {
  int block_rows = 0;
  int block_cols = 0;
  int phases = 0;
  trace_extent(config, block_rows, block_cols, phases);
  const struct {
    const char* name;
    int value;
    int count;
  } ranges[] = {{"block row", block_row, block_rows},
                {"block column", block_col, block_cols},
                {"phase", phase, phases}};
  for (const auto& range : ranges) {
    if (range.value < 0 || range.value >= range.count) {
      throw std::invalid_argument(std::string("tracer: ") + range.name + " must be from 0 to " +
                                  std::to_string(range.count - 1) + " for these sizes, got " +
                                  std::to_string(range.value));
    }
  }
  const int tile = config.tile;
  PhaseTrace trace;
  trace.block_row = block_row;
  trace.block_col = block_col;
  trace.phase = phase;
  for (int thread_row = 0; thread_row < tile; ++thread_row) {
    for (int thread_col = 0; thread_col < tile; ++thread_col) {
      const int c_row = block_row * tile + thread_row;
      const int c_col = block_col * tile + thread_col;
      // The index formulas of tiled_checked.cuh: A(row, ph·T + tx) and B(ph·T + ty, col).
      trace.a_loads.push_back(classify('A', thread_row, thread_col, c_row,
                                       phase * tile + thread_col, config.rows, config.inner,
                                       "check 1, A tile load"));
      trace.b_loads.push_back(classify('B', thread_row, thread_col, phase * tile + thread_row,
                                       c_col, config.inner, config.cols, "check 2, B tile load"));
      trace.c_stores.push_back(
          {thread_row, thread_col, c_row, c_col, c_row < config.rows && c_col < config.cols});
    }
  }
  return trace;
}

std::vector<PhaseTrace> trace_all(const TraceConfig& config) {
  int block_rows = 0;
  int block_cols = 0;
  int phases = 0;
  trace_extent(config, block_rows, block_cols, phases);
  std::vector<PhaseTrace> traces;
  for (int block_row = 0; block_row < block_rows; ++block_row) {
    for (int block_col = 0; block_col < block_cols; ++block_col) {
      for (int phase = 0; phase < phases; ++phase) {
        traces.push_back(trace_phase(config, block_row, block_col, phase));
      }
    }
  }
  return traces;
}

std::string element_name(char matrix, int row, int col) {
  return std::string(1, matrix) + std::to_string(row) + "," + std::to_string(col);
}

std::string describe_load(const TileLoad& load) {
  std::ostringstream text;
  text << "thread (" << load.thread_row << "," << load.thread_col << ") loads "
       << element_name(load.matrix, load.row, load.col);
  switch (load.kind) {
    case AccessKind::valid:
      text << ": valid";
      break;
    case AccessKind::past_row_end:
      text << ": INVALID, past the end of row " << load.row << " -- without a check it silently"
           << " reads " << element_name(load.matrix, load.actual_row, load.actual_col)
           << " (offset " << load.linear << "); stopped by " << load.stopped_by;
      break;
    case AccessKind::past_array_end:
      text << ": INVALID, past the end of the array (offset " << load.linear
           << ", out of bounds); stopped by " << load.stopped_by;
      break;
  }
  return text.str();
}

std::string describe_phase(const TraceConfig& config, const PhaseTrace& trace, bool only_invalid) {
  std::ostringstream text;
  const int tile = config.tile;
  text << "block (" << trace.block_row << "," << trace.block_col << "), phase " << trace.phase
       << "\n";
  text << "  A tile: rows " << trace.block_row * tile << ".." << trace.block_row * tile + tile - 1
       << ", columns " << trace.phase * tile << ".." << trace.phase * tile + tile - 1 << "\n";
  for (const TileLoad& load : trace.a_loads) {
    if (!only_invalid || load.kind != AccessKind::valid) {
      text << "    " << describe_load(load) << "\n";
    }
  }
  text << "  B tile: rows " << trace.phase * tile << ".." << trace.phase * tile + tile - 1
       << ", columns " << trace.block_col * tile << ".." << trace.block_col * tile + tile - 1
       << "\n";
  for (const TileLoad& load : trace.b_loads) {
    if (!only_invalid || load.kind != AccessKind::valid) {
      text << "    " << describe_load(load) << "\n";
    }
  }
  text << "  C:\n";
  for (const PStore& store : trace.c_stores) {
    if (only_invalid && store.valid) {
      continue;
    }
    text << "    thread (" << store.thread_row << "," << store.thread_col << ") computes "
         << element_name('C', store.row, store.col)
         << (store.valid ? ": valid"
                         : ": does not exist; stopped by check 3, C store (row >= rows or "
                           "column >= cols), but the thread still loads its tile elements")
         << "\n";
  }
  return text.str();
}

std::string render_svg(const TraceConfig& config, const PhaseTrace& trace) {
  validate_trace_config(config);
  const int tile = config.tile;
  const int shown_rows = ceil_div(config.rows, tile) * tile;
  const int shown_inner = ceil_div(config.inner, tile) * tile;
  const int shown_cols = ceil_div(config.cols, tile) * tile;
  const int margin = 30;
  const int gap = 50;
  const int title_height = 84;
  Grid a_grid{margin, 0, shown_rows, shown_inner, config.rows, config.inner, 'A'};
  Grid b_grid{margin + shown_inner * kCell + gap,
              title_height,
              shown_inner,
              shown_cols,
              config.inner,
              config.cols,
              'B'};
  a_grid.y = title_height + shown_inner * kCell + gap;
  Grid c_grid{b_grid.x, a_grid.y, shown_rows, shown_cols, config.rows, config.cols, 'C'};
  const int legend_y = a_grid.y + shown_rows * kCell + 30;
  const int width = std::max(b_grid.x + shown_cols * kCell + margin, 640);
  const int height = legend_y + 5 * 22 + 20;

  std::ostringstream svg;
  svg << "<?xml version='1.0' encoding='UTF-8'?>\n"
      << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
      << "' viewBox='0 0 " << width << " " << height
      << "' font-family='DejaVu Sans, Arial, sans-serif'>\n"
      << "<rect width='100%' height='100%' fill='#ffffff'/>\n";
  svg << "<text x='" << margin << "' y='24' font-size='17' font-weight='bold'>Block ("
      << trace.block_row << "," << trace.block_col << "), phase " << trace.phase
      << ": rows=" << config.rows << ", inner=" << config.inner << ", cols=" << config.cols
      << ", tile width " << tile << "</text>\n";
  svg << "<text x='" << margin << "' y='44' font-size='13' fill='#444'>t(ty,tx) = thread "
      << "(threadIdx.y, threadIdx.x); dashed cells lie outside the matrix</text>\n";
  draw_grid(svg, a_grid);
  draw_grid(svg, b_grid);
  draw_grid(svg, c_grid);
  for (const TileLoad& load : trace.a_loads) {
    draw_load(svg, a_grid, load);
  }
  for (const TileLoad& load : trace.b_loads) {
    draw_load(svg, b_grid, load);
  }
  for (const PStore& store : trace.c_stores) {
    draw_store(svg, c_grid, store);
  }
  draw_tile_frame(svg, a_grid, trace.block_row * tile, trace.phase * tile, tile);
  draw_tile_frame(svg, b_grid, trace.phase * tile, trace.block_col * tile, tile);
  draw_tile_frame(svg, c_grid, trace.block_row * tile, trace.block_col * tile, tile);
  draw_legend(svg, margin, legend_y);
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace course::step4
