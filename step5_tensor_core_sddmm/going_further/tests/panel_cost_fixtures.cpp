/// @file panel_cost_fixtures.cpp
/// @brief The synthetic masks and the host count of each 64-row panel's figures.
///
/// Step 5, going further, tests: the masks and the host figures of the panel choice's tests.
/// Read first: panel_cost_fixtures.hpp.
#include "step5_tensor_core_sddmm/going_further/tests/panel_cost_fixtures.hpp"

#include "common/testing/described_gpus.hpp"
#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <utility>

namespace course::step5::testing {
namespace {

using course::step5::PanelFigures;

constexpr int kPanel = 64;  // the dense panels' height and the full tiles' edge
constexpr int kTile = 16;   // a masked tile's edge

using Cell = std::pair<int, int>;  // (row block, column block) of some edge

/// A small integer hash of a block's coordinates, for masks that look random but are fixed.
unsigned block_hash(int block_row, int block_col) {
  auto value =
      static_cast<unsigned>(block_row) * 73856093u ^ static_cast<unsigned>(block_col) * 19349663u;
  value ^= value >> 13;
  value *= 0x5bd1e995u;
  return value ^ (value >> 15);
}

/// The 64×64 blocks wholly in S (the full tiles), counted into each panel's figures.
std::set<Cell> count_full_tiles(const course::CooMatrix& s, std::vector<PanelFigures>& figures) {
  std::map<Cell, int> block_entries;
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    ++block_entries[{s.row_indices[entry] / kPanel, s.col_indices[entry] / kPanel}];
  }
  std::set<Cell> full;
  for (const auto& [block, count] : block_entries) {
    const int height = std::min(kPanel, s.rows - block.first * kPanel);
    const int width = std::min(kPanel, s.cols - block.second * kPanel);
    if (count == height * width) {
      full.insert(block);
      ++figures[block.first].full_tiles;
    }
  }
  return full;
}

/// The entries outside full tiles and the masked tiles among them, counted into the figures.
void count_masked_tiles(const course::CooMatrix& s, const std::set<Cell>& full, int min_entries,
                        int min_run, std::vector<PanelFigures>& figures) {
  std::map<Cell, int> tile_entries;
  std::map<Cell, int> longest_run;
  std::map<Cell, int> row_runs;  // (row, tile column) -> entries
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const int row = s.row_indices[entry];
    const int col = s.col_indices[entry];
    PanelFigures& figure = figures[row / kPanel];
    ++figure.entries;
    if (full.count({row / kPanel, col / kPanel}) != 0) {
      continue;  // a full tile computes it
    }
    ++figure.outside_full;
    ++tile_entries[{row / kTile, col / kTile}];
    const int run = ++row_runs[{row, col / kTile}];
    int& longest = longest_run[{row / kTile, col / kTile}];
    longest = std::max(longest, run);
  }
  std::set<Cell> steps;  // (64-row panel, tile column)
  for (const auto& [tile, count] : tile_entries) {
    if (count >= min_entries && longest_run[tile] >= min_run) {
      PanelFigures& figure = figures[tile.first / 4];
      ++figure.masked_tiles;
      figure.masked_covered += count;
      steps.insert({tile.first / 4, tile.second});
    }
  }
  for (const Cell& step : steps) {
    ++figures[step.first].masked_steps;
  }
}

/// Each panel's span in 64-column blocks and its density over the span.
void count_spans(const course::CooMatrix& s, std::vector<PanelFigures>& figures) {
  const auto panels = static_cast<int>(figures.size());
  std::vector<int> first(figures.size(), s.cols);
  std::vector<int> last(figures.size(), -1);
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const int panel = s.row_indices[entry] / kPanel;
    first[panel] = std::min(first[panel], s.col_indices[entry]);
    last[panel] = std::max(last[panel], s.col_indices[entry]);
  }
  for (int panel = 0; panel < panels; ++panel) {
    if (last[panel] < 0) {
      continue;  // an empty panel spans nothing
    }
    PanelFigures& figure = figures[panel];
    const int first_block = first[panel] / kPanel;
    figure.span_blocks = last[panel] / kPanel - first_block + 1;
    const int span_cols =
        std::min((first_block + figure.span_blocks) * kPanel, s.cols) - first_block * kPanel;
    const int rows = std::min(kPanel, s.rows - panel * kPanel);
    figure.density = static_cast<double>(figure.outside_full) / (1.0 * rows * span_cols);
  }
}

}  // namespace

course::CooMatrix pattern_of(int rows, int cols, const std::function<bool(int, int)>& keep) {
  course::CooMatrix s;
  s.rows = rows;
  s.cols = cols;
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < cols; ++col) {
      if (keep(row, col)) {
        s.row_indices.push_back(row);
        s.col_indices.push_back(col);
        s.values.push_back(1.0f);
      }
    }
  }
  return s;
}

course::CooMatrix banded_mask(int size, int half_width, unsigned percent) {
  return pattern_of(size, size, [&](int row, int col) {
    const int distance = row > col ? row - col : col - row;
    return row == col || (distance <= half_width && block_hash(row / 6, col / 6) % 100 < percent);
  });
}

course::CooMatrix block_sparse_mask(int size, int block, unsigned percent) {
  return pattern_of(size, size, [&](int row, int col) {
    return block_hash(row / block, col / block) % 100 < percent;
  });
}

course::CooMatrix scattered_mask(int rows, int cols, unsigned per_mille, std::uint64_t seed) {
  std::mt19937_64 draw(seed);
  return pattern_of(rows, cols, [&](int, int) { return draw() % 1000 < per_mille; });
}

std::vector<PanelFigures> host_figures(const course::CooMatrix& s, int min_entries, int min_run) {
  std::vector<PanelFigures> figures(static_cast<std::size_t>((s.rows + kPanel - 1) / kPanel));
  const std::set<Cell> full = count_full_tiles(s, figures);
  count_masked_tiles(s, full, min_entries, min_run, figures);
  count_spans(s, figures);
  return figures;
}

course::step5::PanelPlan h100_choice(const course::CooMatrix& s, int inner) {
  const course::GpuDescription h100 = course::testing::h100_sxm_description();
  const course::step5::TileThreshold threshold =
      course::step5::tile_threshold(course::step5::described_rates(h100), inner);
  const course::step5::HybridOptions defaults;
  return course::step5::choose_panels_by_cost(
      host_figures(s, threshold.min_entries, threshold.min_run),
      course::step5::kernel_times(h100, inner), defaults.tc_density, defaults.tc_min_nnz);
}

std::int64_t dense_count(const course::step5::PanelPlan& plan) {
  return std::count(plan.dense.begin(), plan.dense.end(), 1);
}

}  // namespace course::step5::testing
