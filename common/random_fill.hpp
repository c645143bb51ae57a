/// @file random_fill.hpp
/// @brief Seeded random inputs and poisoned outputs.
///
/// Tests draw a fresh seed for every run (fresh_seed) and print it, so a failure can be
/// replayed by setting COURSE_SEED. Small-integer inputs make float products exact, which
/// lets a test demand bit-exact results; uniform inputs exercise real rounding.
#pragma once

#include "common/matrix.hpp"

#include <cstdint>
#include <limits>

namespace course {

/// @brief A new seed for each call (std::random_device), or COURSE_SEED when it is set.
/// COURSE_SEED is read like `--seed`: a whole number from 0 to 2^63 - 1 (parse_integer in
/// cli.hpp); anything else throws UsageError naming it.
/// @return the seed
std::uint64_t fresh_seed();

/// @brief Fills with floats drawn uniformly from [lo, hi).
/// @param values first element
/// @param count number of elements
/// @param seed generator seed
/// @param lo lower bound
/// @param hi upper bound
void fill_uniform(float* values, std::size_t count, std::uint64_t seed, float lo = -1.0f,
                  float hi = 1.0f);

/// @brief Fills with whole numbers drawn uniformly from [lo, hi], stored as float.
///
/// With |values| <= 4 and fewer than 2^20 terms, every partial sum of a dot product is an
/// integer below 2^24, so float arithmetic is exact in any order.
/// @param values first element
/// @param count number of elements
/// @param seed generator seed
/// @param lo smallest value
/// @param hi largest value
void fill_small_integers(float* values, std::size_t count, std::uint64_t seed, int lo = -4,
                         int hi = 4);

/// @brief Fills a whole host matrix (padding included) uniformly from [lo, hi).
/// @param matrix matrix to fill
/// @param seed generator seed
/// @param lo lower bound
/// @param hi upper bound
inline void fill_uniform(HostMatrix<float>& matrix, std::uint64_t seed, float lo = -1.0f,
                         float hi = 1.0f) {
  fill_uniform(matrix.data(), matrix.size(), seed, lo, hi);
}

/// @brief Fills a whole host matrix with small integers (see the pointer overload).
/// @param matrix matrix to fill
/// @param seed generator seed
/// @param lo smallest value
/// @param hi largest value
inline void fill_small_integers(HostMatrix<float>& matrix, std::uint64_t seed, int lo = -4,
                                int hi = 4) {
  fill_small_integers(matrix.data(), matrix.size(), seed, lo, hi);
}

/// @brief Sets every element of a host matrix to NaN, so unwritten results show.
/// @param matrix matrix to poison
inline void poison(HostMatrix<float>& matrix) {
  for (std::size_t index = 0; index < matrix.size(); ++index) {
    matrix.data()[index] = std::numeric_limits<float>::quiet_NaN();
  }
}

}  // namespace course
