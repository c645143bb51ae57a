/// @file random_sampling.hpp
/// @brief Random numbers that are the same on every platform, and distinct samples drawn
/// from a range without retries: what the mask generators (sparse_generators.hpp,
/// attention_masks.hpp) draw their positions with.
///
/// sample_distinct_sorted() is the core: k distinct numbers from [0, range), uniformly, in
/// time linear in k and without retries. It draws k numbers, sorts them (radix sort for large
/// batches) and drops repeats; the m values missing are then chosen among the values not
/// yet taken with Floyd's algorithm (exactly m draws, sample_free_values()). Every step
/// treats all values alike (i.i.d. uniform draws, then a uniform subset of the rest), so the
/// distribution of the result is unchanged by any permutation of [0, range): every k-subset
/// is equally likely. When k is more than half the range it samples the complement instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace course {

/// @brief xoshiro256** seeded by splitmix64: fast, and the same stream on every platform
/// (std::uniform_int_distribution is not, so masks would differ between compilers).
class Random {
 public:
  /// @brief Seeds the four state words from @p seed (splitmix64).
  /// @param seed any value; the same seed gives the same stream
  explicit Random(std::uint64_t seed) {
    for (std::uint64_t& word : state_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t mixed = seed;
      mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ULL;
      mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBULL;
      word = mixed ^ (mixed >> 31);
    }
  }

  /// @brief The next 64 random bits.
  /// @return the bits
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

  /// @brief Uniform in [0, range) without bias (Lemire's multiply-and-reject).
  /// @param range the bound, > 0
  /// @return the draw
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

/// @brief @p count distinct values from [0, @p range) that are not in @p taken, uniformly at
/// random, in increasing order: Floyd's algorithm picks @p count distinct ranks among the
/// free values with exactly @p count draws, and a merge walk turns each rank into its value.
/// @param range the range
/// @param taken values to leave out: sorted, distinct, each below @p range
/// @param count how many to draw; at most range - taken.size()
/// @param random the generator
/// @return the values, sorted
std::vector<std::uint64_t> sample_free_values(std::uint64_t range,
                                              const std::vector<std::uint64_t>& taken,
                                              std::size_t count, Random& random);

/// @brief @p count distinct values from [0, @p range), uniformly at random, in increasing
/// order, in time linear in @p count and without retries.
/// @param range the range
/// @param count how many; at most @p range
/// @param random the generator
/// @return the values, sorted
std::vector<std::uint64_t> sample_distinct_sorted(std::uint64_t range, std::uint64_t count,
                                                  Random& random);

}  // namespace course
