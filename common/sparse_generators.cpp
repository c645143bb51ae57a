/// @file sparse_generators.cpp
/// @brief Random masks of exact size, drawn without any rows * cols array: the positions come
/// from sample_distinct_sorted() (random_sampling.hpp), linear in nnz and without retries.
#include "common/sparse_generators.hpp"

#include "common/memory_estimate.hpp"
#include "common/progress.hpp"
#include "common/random_sampling.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace course {
namespace {

// Throws unless 0 <= rows, cols and nnz <= min(rows * cols, INT_MAX).
void check_mask_size(int rows, int cols, std::size_t nnz) {
  if (rows < 0 || cols < 0) {
    throw std::invalid_argument("mask size must not be negative: " + std::to_string(rows) + " x " +
                                std::to_string(cols));
  }
  const std::uint64_t positions =
      static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols);
  if (nnz > positions) {
    throw std::invalid_argument("nnz " + std::to_string(nnz) +
                                " exceeds rows * cols = " + std::to_string(positions) + " for a " +
                                std::to_string(rows) + " x " + std::to_string(cols) + " mask");
  }
  if (nnz > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("nnz " + std::to_string(nnz) + " exceeds the limit " +
                                std::to_string(INT_MAX) + " (int offsets in CSR)");
  }
}

// An empty mask with the sizes set and room for nnz entries.
CooMatrix empty_mask(int rows, int cols, std::size_t nnz) {
  CooMatrix mask;
  mask.rows = rows;
  mask.cols = cols;
  mask.row_indices.reserve(nnz);
  mask.col_indices.reserve(nnz);
  mask.values.reserve(nnz);
  return mask;
}

// Entry counts per rank: nnz * weight / total weight, capped at cols, rounded so that they
// add up to exactly nnz (largest fractional parts get the leftover entries).
std::vector<std::uint64_t> power_law_counts(int rows, int cols, std::size_t nnz, double exponent) {
  const auto row_count = static_cast<std::size_t>(rows);
  const auto row_limit = static_cast<std::uint64_t>(cols);
  std::vector<double> weight(row_count);
  for (std::size_t rank = 0; rank < row_count; ++rank) {
    weight[rank] = std::pow(static_cast<double>(rank + 1), -exponent);
  }
  // Weights of the ranks from `rank` on, summed from the smallest for accuracy.
  std::vector<double> weight_from(row_count + 1, 0.0);
  for (std::size_t rank = row_count; rank-- > 0;) {
    weight_from[rank] = weight_from[rank + 1] + weight[rank];
  }
  // Weights decrease with rank, so the rows whose share exceeds cols are the first ones:
  // give them cols entries and share the rest among the others.
  std::size_t full_rows = 0;
  auto remaining = static_cast<double>(nnz);
  while (full_rows < row_count && remaining > 0.0 &&
         weight[full_rows] * remaining / weight_from[full_rows] > static_cast<double>(cols)) {
    remaining -= static_cast<double>(cols);
    ++full_rows;
  }
  std::vector<std::uint64_t> counts(row_count, 0);
  std::vector<double> fraction(row_count, 0.0);
  std::uint64_t assigned = 0;
  for (std::size_t rank = 0; rank < row_count; ++rank) {
    double share = static_cast<double>(cols);
    if (rank >= full_rows) {
      share = remaining > 0.0 ? weight[rank] * remaining / weight_from[full_rows] : 0.0;
    }
    counts[rank] = std::min(row_limit, static_cast<std::uint64_t>(std::floor(share)));
    fraction[rank] = share - std::floor(share);
    assigned += counts[rank];
  }
  // Rounding: hand out the leftover entries by largest fractional part, then (only if
  // floating-point error left some) to any row with room; take back any excess.
  std::vector<std::size_t> by_fraction(row_count);
  std::iota(by_fraction.begin(), by_fraction.end(), std::size_t{0});
  std::stable_sort(by_fraction.begin(), by_fraction.end(),
                   [&](std::size_t a, std::size_t b) { return fraction[a] > fraction[b]; });
  for (std::size_t rank : by_fraction) {
    if (assigned >= nnz) {
      break;
    }
    if (counts[rank] < row_limit) {
      ++counts[rank];
      ++assigned;
    }
  }
  for (std::size_t rank = 0; rank < row_count && assigned < nnz; ++rank) {
    const std::uint64_t room = std::min<std::uint64_t>(row_limit - counts[rank], nnz - assigned);
    counts[rank] += room;
    assigned += room;
  }
  for (std::size_t rank = row_count; rank-- > 0 && assigned > nnz;) {
    const std::uint64_t excess = std::min<std::uint64_t>(counts[rank], assigned - nnz);
    counts[rank] -= excess;
    assigned -= excess;
  }
  return counts;
}

}  // namespace

CooMatrix random_uniform_mask(int rows, int cols, std::size_t nnz, std::uint64_t seed) {
  check_mask_size(rows, cols, nnz);
  Random random(seed);
  const std::uint64_t positions =
      static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols);
  std::vector<std::uint64_t> linear = sample_distinct_sorted(positions, nnz, random);
  CooMatrix mask = empty_mask(rows, cols, nnz);
  const auto cols_64 = static_cast<std::uint64_t>(cols);
  for (std::uint64_t position : linear) {
    // Linear position = row * cols + col, so increasing positions are row-major order.
    mask.row_indices.push_back(static_cast<int>(position / cols_64));
    mask.col_indices.push_back(static_cast<int>(position % cols_64));
  }
  mask.values.assign(nnz, 1.0f);
  return mask;
}

CooMatrix random_power_law_mask(int rows, int cols, std::size_t nnz, double exponent,
                                std::uint64_t seed) {
  check_mask_size(rows, cols, nnz);
  if (!std::isfinite(exponent) || exponent < 0.0 || exponent > 10.0) {
    throw std::invalid_argument("power-law exponent " + std::to_string(exponent) +
                                " out of range [0, 10]");
  }
  Random random(seed);
  const std::vector<std::uint64_t> count_of_rank = power_law_counts(rows, cols, nnz, exponent);
  // A random order of the rows decides which row gets which rank, so long rows are spread
  // over the matrix instead of all sitting at the top.
  std::vector<int> row_of_rank(static_cast<std::size_t>(rows));
  std::iota(row_of_rank.begin(), row_of_rank.end(), 0);
  for (std::size_t rank = row_of_rank.size(); rank > 1; --rank) {
    std::swap(row_of_rank[rank - 1], row_of_rank[random.below(rank)]);
  }
  std::vector<std::uint64_t> row_length(static_cast<std::size_t>(rows), 0);
  for (std::size_t rank = 0; rank < row_of_rank.size(); ++rank) {
    row_length[static_cast<std::size_t>(row_of_rank[rank])] = count_of_rank[rank];
  }
  CooMatrix mask = empty_mask(rows, cols, nnz);
  ProgressMeter progress("drawing the rows of a power-law mask", static_cast<std::uint64_t>(rows),
                         "rows");
  for (int row = 0; row < rows; ++row) {
    progress.update(static_cast<std::uint64_t>(row));
    const std::vector<std::uint64_t> columns = sample_distinct_sorted(
        static_cast<std::uint64_t>(cols), row_length[static_cast<std::size_t>(row)], random);
    for (std::uint64_t col : columns) {
      mask.row_indices.push_back(row);
      mask.col_indices.push_back(static_cast<int>(col));
    }
  }
  progress.finish(static_cast<std::uint64_t>(rows));
  mask.values.assign(nnz, 1.0f);
  return mask;
}

std::uint64_t mask_generation_bytes(std::uint64_t nnz) {
  return array_bytes(nnz, 1, 2 * sizeof(std::uint64_t) + sizeof(int) * 2 + sizeof(float));
}

std::uint64_t power_law_row_bytes(std::uint64_t rows) {
  // power_law_counts: weight, weight_from, counts, fraction (8 B each), by_fraction (8 B)
  // and std::stable_sort's buffer (8 B) live together.
  return array_bytes(rows, 1, 6 * sizeof(std::uint64_t));
}

std::string uniform_mask_name(int rows, int cols, std::size_t nnz) {
  return "matrix_" + std::to_string(rows) + "_" + std::to_string(cols) + "_" + std::to_string(nnz);
}

}  // namespace course
