/// @file random_sampling.cpp
/// @brief Distinct random samples without retries (see random_sampling.hpp).
#include "common/random_sampling.hpp"

#include "common/progress.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_set>

namespace course {
namespace {

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
  const int passes = (key_bits + kRadixBits - 1) / kRadixBits;
  ProgressMeter progress("sorting " + std::to_string(values.size()) + " random values",
                         static_cast<std::uint64_t>(passes), "passes");
  for (int shift = 0; shift < key_bits; shift += kRadixBits) {
    progress.update(static_cast<std::uint64_t>(shift / kRadixBits));
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
  progress.finish(static_cast<std::uint64_t>(passes));
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
  ProgressMeter progress("drawing random values", count, "values");
  for (std::size_t drawn = 0; drawn < count; ++drawn) {
    progress.update(drawn);
    values.push_back(random.below(range));
  }
  progress.finish(count);
}

}  // namespace

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

}  // namespace course
