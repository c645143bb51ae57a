/// @file sparse_generators.cpp
/// @brief Random masks of exact size, drawn without any rows * cols array.
///
/// The core is sample_distinct_sorted: k distinct numbers from [0, range), uniformly, in time
/// linear in k and without retries. It draws k numbers, sorts them (radix sort for large
/// batches) and drops repeats; the m values missing are then chosen among the values not
/// yet taken with Floyd's algorithm (exactly m draws). Every step treats all values alike
/// (i.i.d. uniform draws, then a uniform subset of the rest), so the distribution of the
/// result is unchanged by any permutation of [0, range): every k-subset is equally likely.
/// When k is more than half the range it samples the complement instead.
#include "common/sparse_generators.hpp"

#include "common/memory_estimate.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_set>
#include <vector>

namespace course {
namespace {

/// xoshiro256** seeded by splitmix64: fast, and the same stream on every platform
/// (std::uniform_int_distribution is not, so masks would differ between compilers).
class Random {
 public:
  explicit Random(std::uint64_t seed) {
    for (std::uint64_t& word : state_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t mixed = seed;
      mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ULL;
      mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBULL;
      word = mixed ^ (mixed >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotate_left(state_[3], 45);
    return result;
  }

  /// Uniform in [0, range), range > 0, without bias (Lemire's multiply-and-reject).
  std::uint64_t below(std::uint64_t range) {
    unsigned __int128 product = static_cast<unsigned __int128>(next()) * range;
    auto low = static_cast<std::uint64_t>(product);
    if (low < range) {
      const std::uint64_t threshold = (0 - range) % range;
      while (low < threshold) {
        product = static_cast<unsigned __int128>(next()) * range;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64);
  }

 private:
  static std::uint64_t rotate_left(std::uint64_t value, int bits) {
    return (value << bits) | (value >> (64 - bits));
  }
  std::uint64_t state_[4];
};

/// Batches smaller than this are sorted with std::sort; larger ones with a radix sort.
constexpr std::size_t kRadixSortMinimum = std::size_t{1} << 16;

/// Bits per radix-sort digit (2048 buckets: the counters stay in L1 cache).
constexpr int kRadixBits = 11;

// LSD radix sort of values known to be below `limit`: only the digits that can be nonzero
// are sorted, so 35-bit positions take 4 passes.
void radix_sort(std::vector<std::uint64_t>& values, std::uint64_t limit) {
  int key_bits = 0;
  while (key_bits < 64 && (limit >> key_bits) != 0) {
    ++key_bits;
  }
  std::vector<std::uint64_t> scratch(values.size());
  constexpr std::size_t kBuckets = std::size_t{1} << kRadixBits;
  for (int shift = 0; shift < key_bits; shift += kRadixBits) {
    std::vector<std::size_t> bucket_start(kBuckets + 1, 0);
    for (std::uint64_t value : values) {
      ++bucket_start[((value >> shift) & (kBuckets - 1)) + 1];
    }
    std::partial_sum(bucket_start.begin(), bucket_start.end(), bucket_start.begin());
    for (std::uint64_t value : values) {
      scratch[bucket_start[(value >> shift) & (kBuckets - 1)]++] = value;
    }
    values.swap(scratch);
  }
}

void sort_values(std::vector<std::uint64_t>& values, std::uint64_t limit) {
  if (values.size() < kRadixSortMinimum) {
    std::sort(values.begin(), values.end());
  } else {
    radix_sort(values, limit);
  }
}

// Appends `count` uniform draws from [0, range).
void draw(std::vector<std::uint64_t>& values, std::size_t count, std::uint64_t range,
          Random& random) {
  for (std::size_t drawn = 0; drawn < count; ++drawn) {
    values.push_back(random.below(range));
  }
}

// `count` distinct values from [0, range) not in `taken` (sorted, distinct), uniformly at
// random, sorted. Floyd's algorithm picks `count` distinct ranks among the range - taken.size()
// free values with exactly `count` draws; a merge walk then turns each rank into its value.
std::vector<std::uint64_t> sample_free_values(std::uint64_t range,
                                              const std::vector<std::uint64_t>& taken,
                                              std::size_t count, Random& random) {
  const std::uint64_t free_count = range - taken.size();
  std::unordered_set<std::uint64_t> chosen;
  chosen.reserve(count);
  for (std::uint64_t limit = free_count - count; limit < free_count; ++limit) {
    const std::uint64_t rank = random.below(limit + 1);
    // Either rank is new, or it was picked before and `limit` (never offered before) is.
    chosen.insert(chosen.count(rank) == 0 ? rank : limit);
  }
  std::vector<std::uint64_t> ranks(chosen.begin(), chosen.end());
  std::sort(ranks.begin(), ranks.end());
  // The free value of rank r is r plus the number of taken values below it.
  std::vector<std::uint64_t> values;
  values.reserve(count);
  std::size_t taken_below = 0;
  for (std::uint64_t rank : ranks) {
    while (taken_below < taken.size() && taken[taken_below] <= rank + taken_below) {
      ++taken_below;
    }
    values.push_back(rank + taken_below);
  }
  return values;
}

// `count` distinct values from [0, range), uniformly at random, in increasing order, in time
// linear in `count` and without retries. Precondition: count <= range.
std::vector<std::uint64_t> sample_distinct_sorted(std::uint64_t range, std::uint64_t count,
                                                  Random& random) {
  if (count == 0) {
    return {};
  }
  if (count > range / 2) {
    // Dense: sample the values to leave out (fewer than half) and list the others; range is
    // less than 2 * count, so the listing is linear in the output too.
    const std::vector<std::uint64_t> excluded =
        sample_distinct_sorted(range, range - count, random);
    std::vector<std::uint64_t> kept;
    kept.reserve(static_cast<std::size_t>(count));
    std::size_t next_excluded = 0;
    for (std::uint64_t value = 0; value < range; ++value) {
      if (next_excluded < excluded.size() && excluded[next_excluded] == value) {
        ++next_excluded;
      } else {
        kept.push_back(value);
      }
    }
    return kept;
  }
  // count independent draws, sorted (radix sort: linear), repeats dropped; the few values
  // missing are then drawn among the values not yet taken, so no round is ever repeated.
  std::vector<std::uint64_t> values;
  values.reserve(static_cast<std::size_t>(count));
  draw(values, static_cast<std::size_t>(count), range, random);
  sort_values(values, range);
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const std::vector<std::uint64_t> missing =
      sample_free_values(range, values, static_cast<std::size_t>(count) - values.size(), random);
  const auto middle = static_cast<std::ptrdiff_t>(values.size());
  values.insert(values.end(), missing.begin(), missing.end());
  std::inplace_merge(values.begin(), values.begin() + middle, values.end());
  return values;
}

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
  for (int row = 0; row < rows; ++row) {
    const std::vector<std::uint64_t> columns = sample_distinct_sorted(
        static_cast<std::uint64_t>(cols), row_length[static_cast<std::size_t>(row)], random);
    for (std::uint64_t col : columns) {
      mask.row_indices.push_back(row);
      mask.col_indices.push_back(static_cast<int>(col));
    }
  }
  mask.values.assign(nnz, 1.0f);
  return mask;
}

std::uint64_t mask_generation_bytes(std::uint64_t nnz) {
  return array_bytes(nnz, 1, 2 * sizeof(std::uint64_t) + sizeof(int) * 2 + sizeof(float));
}

std::string uniform_mask_name(int rows, int cols, std::size_t nnz) {
  return "matrix_" + std::to_string(rows) + "_" + std::to_string(cols) + "_" + std::to_string(nnz);
}

}  // namespace course
