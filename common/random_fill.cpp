#include "common/random_fill.hpp"

#include "common/cli.hpp"
#include "common/progress.hpp"

#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace course {

std::uint64_t fresh_seed() {
  if (const char* fixed = std::getenv("COURSE_SEED")) {
    // Read like --seed: one grammar for options and the environment (a UsageError, status 2).
    return static_cast<std::uint64_t>(parse_integer("COURSE_SEED", fixed, 0, kMaxSeed));
  }
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

void fill_uniform(float* values, std::size_t count, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<float> distribution(lo, hi);
  ProgressMeter progress("drawing random inputs", count, "values");
  for (std::size_t index = 0; index < count; ++index) {
    progress.update(index);
    values[index] = distribution(generator);
  }
  progress.finish(count);
}

void fill_small_integers(float* values, std::size_t count, std::uint64_t seed, int lo, int hi) {
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<int> distribution(lo, hi);
  ProgressMeter progress("drawing random inputs", count, "values");
  for (std::size_t index = 0; index < count; ++index) {
    progress.update(index);
    values[index] = static_cast<float>(distribution(generator));
  }
  progress.finish(count);
}

}  // namespace course
