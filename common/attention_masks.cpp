/// @file attention_masks.cpp
/// @brief Block-sparse, sliding-window and BigBird-style attention masks (see
/// attention_masks.hpp). Each row's columns are the union of at most two sorted intervals
/// (the global columns and the window) plus, for BigBird, random columns drawn among the
/// rest; block-sparse rows are the kept blocks of the row's block row.
#include "common/attention_masks.hpp"

#include "common/random_sampling.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace course {
namespace {

/// Columns [first, last] (empty when first > last).
struct ColumnRange {
  long long first;
  long long last;
  long long size() const { return last >= first ? last - first + 1 : 0; }
};

/// The last column row @p row may hold: cols - 1, or the diagonal when causal.
long long last_allowed_col(const AttentionMaskSpec& spec, long long row) {
  return spec.causal ? std::min<long long>(row, spec.cols - 1) : spec.cols - 1;
}

/// The window and global columns of a sliding-window row, as at most two sorted, disjoint
/// ranges (the second empty when they touch or overlap, or when the row is global).
std::pair<ColumnRange, ColumnRange> window_ranges(const AttentionMaskSpec& spec, long long row) {
  const long long last = last_allowed_col(spec, row);
  if (row < spec.global) {
    return {{0, last}, {0, -1}};  // a global row holds every column it may
  }
  const ColumnRange global{0, std::min<long long>(spec.global - 1, last)};
  const ColumnRange window{std::max(0LL, row - spec.half_width),
                           std::min(last, row + spec.half_width)};
  if (global.size() == 0) {
    return {window, {0, -1}};
  }
  if (window.size() == 0) {
    return {global, {0, -1}};
  }
  if (window.first <= global.last + 1) {  // they touch or overlap: one range
    return {{0, std::max(global.last, window.last)}, {0, -1}};
  }
  return {global, window};
}

/// The blocks a block-sparse mask chooses from, counted in closed form (no array of block
/// rows): all blocks, or (causal) in each block row the blocks up to the one holding the
/// row's last allowed column. Block rows below q lie wholly above that column's block row
/// limit and hold block_row + 1 blocks each; the later ones hold last / size + 1, where last
/// = min(rows, cols) - 1 is the largest column any row may hold.
struct BlockGrid {
  long long size;
  long long block_rows;
  long long block_cols;
  bool causal;
  long long q = 0;
  long long later = 0;

  explicit BlockGrid(const AttentionMaskSpec& spec)
      : size(spec.block_size),
        block_rows((spec.rows + size - 1LL) / size),
        block_cols((spec.cols + size - 1LL) / size),
        causal(spec.causal) {
    const long long last = std::min(spec.rows, spec.cols) - 1LL;
    q = (last + 1) / size;
    later = last / size + 1;
  }
  /// The eligible blocks of the block rows before @p block_row.
  std::uint64_t first(long long block_row) const {
    if (!causal) {
      return static_cast<std::uint64_t>(block_row) * static_cast<std::uint64_t>(block_cols);
    }
    const auto early = static_cast<std::uint64_t>(std::min(block_row, q));
    const auto rest = static_cast<std::uint64_t>(std::max(0LL, block_row - q));
    return early * (early + 1) / 2 + rest * static_cast<std::uint64_t>(later);
  }
  /// The block row of eligible block @p rank.
  long long block_row_of(std::uint64_t rank) const {
    long long low = 0;
    long long high = block_rows - 1;
    while (low < high) {  // the last block row whose first() is <= rank
      const long long middle = low + (high - low + 1) / 2;
      if (first(middle) <= rank) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }
};

void require(bool ok, const std::string& message) {
  if (!ok) {
    throw std::invalid_argument(message);
  }
}

CooMatrix empty_mask(const AttentionMaskSpec& spec, std::uint64_t capacity) {
  CooMatrix mask;
  mask.rows = spec.rows;
  mask.cols = spec.cols;
  mask.row_indices.reserve(capacity);
  mask.col_indices.reserve(capacity);
  return mask;
}

void append_range(CooMatrix& mask, int row, const ColumnRange& range) {
  for (long long col = range.first; col <= range.last; ++col) {
    mask.row_indices.push_back(row);
    mask.col_indices.push_back(static_cast<int>(col));
  }
}

CooMatrix block_sparse(const AttentionMaskSpec& spec) {
  const BlockGrid grid(spec);
  Random random(spec.seed);
  // The kept blocks as ranks among the eligible ones, sorted: row-major block order.
  const std::vector<std::uint64_t> kept =
      sample_distinct_sorted(grid.first(grid.block_rows), attention_block_count(spec), random);
  CooMatrix mask = empty_mask(spec, attention_mask_max_nnz(spec));
  std::vector<long long> block_cols;
  for (std::size_t next = 0; next < kept.size();) {
    const long long block_row = grid.block_row_of(kept[next]);
    block_cols.clear();
    for (; next < kept.size() && kept[next] < grid.first(block_row + 1); ++next) {
      block_cols.push_back(static_cast<long long>(kept[next] - grid.first(block_row)));
    }
    const long long first_row = block_row * spec.block_size;
    const long long end_row = std::min<long long>(spec.rows, first_row + spec.block_size);
    for (long long row = first_row; row < end_row; ++row) {
      const long long last = last_allowed_col(spec, row);  // the edge, or the diagonal
      for (const long long block_col : block_cols) {
        const long long first_col = block_col * spec.block_size;
        append_range(mask, static_cast<int>(row),
                     {first_col, std::min(last, first_col + spec.block_size - 1)});
      }
    }
  }
  mask.values.assign(mask.row_indices.size(), 1.0f);
  return mask;
}

CooMatrix window_or_bigbird(const AttentionMaskSpec& spec) {
  const bool bigbird = spec.kind == AttentionKind::bigbird;
  Random random(spec.seed);
  CooMatrix mask = empty_mask(spec, attention_mask_max_nnz(spec));
  std::vector<std::uint64_t> taken;
  for (long long row = 0; row < spec.rows; ++row) {
    const auto [first, second] = window_ranges(spec, row);
    if (!bigbird || row < spec.global) {
      append_range(mask, static_cast<int>(row), first);
      append_range(mask, static_cast<int>(row), second);
      continue;
    }
    // BigBird: random columns among the ones this row may hold and does not hold yet.
    taken.clear();
    for (const ColumnRange& range : {first, second}) {
      for (long long col = range.first; col <= range.last; ++col) {
        taken.push_back(static_cast<std::uint64_t>(col));
      }
    }
    const auto allowed = static_cast<std::uint64_t>(last_allowed_col(spec, row) + 1);
    const std::size_t count = std::min<std::uint64_t>(
        static_cast<std::uint64_t>(spec.random_per_row), allowed - taken.size());
    const std::vector<std::uint64_t> extra = sample_free_values(allowed, taken, count, random);
    std::vector<std::uint64_t> columns(taken.size() + extra.size());
    std::merge(taken.begin(), taken.end(), extra.begin(), extra.end(), columns.begin());
    for (const std::uint64_t col : columns) {
      mask.row_indices.push_back(static_cast<int>(row));
      mask.col_indices.push_back(static_cast<int>(col));
    }
  }
  mask.values.assign(mask.row_indices.size(), 1.0f);
  return mask;
}

}  // namespace

void check_attention_mask(const AttentionMaskSpec& spec) {
  require(spec.rows >= 1 && spec.cols >= 1, "attention mask size must be at least 1 x 1, got " +
                                                std::to_string(spec.rows) + " x " +
                                                std::to_string(spec.cols));
  const int longest = std::max(spec.rows, spec.cols);
  if (spec.kind == AttentionKind::block_sparse) {
    require(spec.block_size >= 1 && spec.block_size <= longest,
            "block size must be from 1 to max(rows, cols) = " + std::to_string(longest) + ", got " +
                std::to_string(spec.block_size));
    require(
        std::isfinite(spec.block_density) && spec.block_density > 0.0 && spec.block_density <= 1.0,
        "block density must be greater than 0 and at most 1, got " +
            std::to_string(spec.block_density));
  } else {
    require(spec.half_width >= 0 && spec.half_width <= longest - 1,
            "window half-width must be from 0 to max(rows, cols) - 1 = " +
                std::to_string(longest - 1) + ", got " + std::to_string(spec.half_width));
    const int shortest = std::min(spec.rows, spec.cols);
    require(spec.global >= 0 && spec.global <= shortest,
            "global rows and columns must be from 0 to min(rows, cols) = " +
                std::to_string(shortest) + ", got " + std::to_string(spec.global));
    if (spec.kind == AttentionKind::bigbird) {
      require(spec.random_per_row >= 0 && spec.random_per_row <= spec.cols,
              "random columns per row must be from 0 to cols = " + std::to_string(spec.cols) +
                  ", got " + std::to_string(spec.random_per_row));
    }
  }
  const std::uint64_t bound = attention_mask_max_nnz(spec);
  require(bound <= static_cast<std::uint64_t>(INT_MAX),
          attention_mask_name(spec) + " may hold " + std::to_string(bound) +
              " entries, more than the limit " + std::to_string(INT_MAX) + " (int offsets in CSR)");
}

std::uint64_t attention_block_count(const AttentionMaskSpec& spec) {
  const BlockGrid grid(spec);
  const std::uint64_t eligible = grid.first(grid.block_rows);
  const auto kept =
      static_cast<std::uint64_t>(std::llround(spec.block_density * static_cast<double>(eligible)));
  return std::min(eligible, std::max<std::uint64_t>(1, kept));
}

std::uint64_t attention_mask_max_nnz(const AttentionMaskSpec& spec) {
  const auto limit = static_cast<std::uint64_t>(INT_MAX);
  if (spec.kind == AttentionKind::block_sparse) {
    const auto side = static_cast<std::uint64_t>(spec.block_size);
    const std::uint64_t blocks = attention_block_count(spec);
    // Saturate above the limit instead of overflowing: blocks * side² can pass 2^64.
    if (blocks > 0 && side * side > limit / blocks) {
      return limit + 1;
    }
    return std::min(blocks * side * side,
                    static_cast<std::uint64_t>(spec.rows) * static_cast<std::uint64_t>(spec.cols));
  }
  // Rows with the same count are added at once: the steady middle (the window wholly inside
  // the matrix and clear of the global columns) and the tail past the last column (only the
  // global columns left, plus BigBird's random ones among the rest).
  const long long global = spec.global;
  const long long width = spec.half_width;
  const long long steady_first = global + width + 1;
  const long long steady_last = spec.causal ? spec.cols - 1LL : spec.cols - 1LL - width;
  const bool steady_is_constant = !(spec.kind == AttentionKind::bigbird && spec.causal);
  const long long tail_first = spec.cols + width;
  const auto row_count = [&](long long row) {
    const auto [first, second] = window_ranges(spec, row);
    auto held = static_cast<std::uint64_t>(first.size() + second.size());
    if (spec.kind == AttentionKind::bigbird && row >= global) {
      const auto allowed = static_cast<std::uint64_t>(last_allowed_col(spec, row) + 1);
      held +=
          std::min<std::uint64_t>(static_cast<std::uint64_t>(spec.random_per_row), allowed - held);
    }
    return held;
  };
  std::uint64_t total = 0;
  long long row = 0;
  while (row < spec.rows && total <= limit) {  // past the limit the exact figure is moot
    if (row >= global && row >= tail_first) {
      total += static_cast<std::uint64_t>(spec.rows - row) * row_count(row);
      break;
    }
    if (steady_is_constant && row >= steady_first && row <= steady_last) {
      const long long end = std::min<long long>(spec.rows - 1, steady_last);
      total += static_cast<std::uint64_t>(end - row + 1) * row_count(row);
      row = end + 1;
      continue;
    }
    total += row_count(row);
    ++row;
  }
  return total;
}

CooMatrix attention_mask(const AttentionMaskSpec& spec) {
  check_attention_mask(spec);
  return spec.kind == AttentionKind::block_sparse ? block_sparse(spec) : window_or_bigbird(spec);
}

std::string attention_mask_name(const AttentionMaskSpec& spec) {
  std::ostringstream name;
  const char* kinds[] = {"block", "window", "bigbird"};
  name << kinds[static_cast<int>(spec.kind)] << "_" << spec.rows;
  if (spec.cols != spec.rows) {
    name << "x" << spec.cols;
  }
  if (spec.kind == AttentionKind::block_sparse) {
    name << "_b" << spec.block_size << "_d" << spec.block_density;
  } else {
    name << "_w" << spec.half_width << "_g" << spec.global;
    if (spec.kind == AttentionKind::bigbird) {
      name << "_r" << spec.random_per_row;
    }
  }
  if (spec.causal) {
    name << "_causal";
  }
  return name.str();
}

AttentionKind attention_kind_from_name(const std::string& name) {
  if (name == "block-sparse") {
    return AttentionKind::block_sparse;
  }
  if (name == "sliding-window") {
    return AttentionKind::sliding_window;
  }
  if (name == "bigbird") {
    return AttentionKind::bigbird;
  }
  throw std::invalid_argument(
      "attention mask kind must be block-sparse, sliding-window or "
      "bigbird, got '" +
      name + "'");
}

namespace {

// What every kind of mask sets: the kind, S's size and whether entries above the diagonal go.
AttentionMaskSpec kind_spec(AttentionKind kind, int rows, int cols, bool causal) {
  AttentionMaskSpec spec;
  spec.kind = kind;
  spec.rows = rows;
  spec.cols = cols;
  spec.causal = causal;
  return spec;
}

}  // namespace

AttentionMaskSpec block_sparse_spec(int rows, int cols, int block_size, double density, bool causal,
                                    std::uint64_t seed) {
  AttentionMaskSpec spec = kind_spec(AttentionKind::block_sparse, rows, cols, causal);
  spec.block_size = block_size;
  spec.block_density = density;
  spec.seed = seed;
  return spec;
}

AttentionMaskSpec sliding_window_spec(int rows, int cols, int half_width, int global, bool causal) {
  AttentionMaskSpec spec = kind_spec(AttentionKind::sliding_window, rows, cols, causal);
  spec.half_width = half_width;
  spec.global = global;
  return spec;
}

AttentionMaskSpec bigbird_spec(int rows, int cols, int half_width, int global, int random_per_row,
                               std::uint64_t seed) {
  AttentionMaskSpec spec = sliding_window_spec(rows, cols, half_width, global, false);
  spec.kind = AttentionKind::bigbird;
  spec.random_per_row = random_per_row;
  spec.seed = seed;
  return spec;
}

}  // namespace course
