/// @file step1_program.cpp
/// @brief Step 1's options, DEBUG check and single run.

#include "step1_naive/step1_program.hpp"

#include "common/cli.hpp"
#include "common/timed_product.hpp"
#include "step1_naive/step1_launchers.hpp"

#include <limits>
#include <ostream>
#include <string>
#include <stdexcept>

namespace course::step1 {
namespace {

// Sizes are parsed with a wide range so that a size over 32 reaches the one-block check,
// whose message says why 32 is the limit.
constexpr long long kParseMax = 1000000;

}  // namespace

bool parse_options(int argc, char** argv, Options& options) {
  long long rows = options.sizes.rows;
  long long inner = options.sizes.inner;
  long long cols = options.sizes.cols;
  long long size = options.sizes.rows;
  long long seed = options.seed;
  long long repeats = options.repeats;
  ArgParser parser("step1_naive",
                   "Step 1: C = A·B for matrices of at most 32x32 with one block and one "
                   "thread per output element (A is rows x inner, B is inner x cols). Built "
                   "with DEBUG, the result is checked against the serial CPU product.");
  parser.add_integer("--size", &size, 1, kParseMax,
                     "square size: rows = inner = cols (at most 32)");
  parser.add_integer("--rows", &rows, 1, kParseMax, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kParseMax,
                     "columns of A and rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kParseMax, "columns of B and C (default: --size)");
  parser.add_seed(&seed, "seed of the random inputs");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs; the median is printed");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  const ProductSizes sizes{static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(cols)};
  try {
    check_naive_single_block_sizes(sizes);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  options.sizes = sizes;
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  return true;
}

int run(const Options& options, bool verify, std::ostream& out) {
  const std::string threads = std::to_string(options.sizes.rows * options.sizes.cols);
  const TimedProduct product{"step 1, naive: ", ", one block of " + threads + " threads",
                             options.sizes, options.seed, options.repeats};
  return run_timed_product(
      product,
      [&](const float* a, const float* b, float* c) {
        launch_naive_single_block(a, b, c, options.sizes);
      },
      verify, out);
}

}  // namespace course::step1
