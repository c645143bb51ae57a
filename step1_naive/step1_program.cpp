/// @file step1_program.cpp
/// @brief Step 1's options, DEBUG check and single run.

#include "step1_naive/step1_program.hpp"

#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/cuda_check.hpp"
#include "common/random_fill.hpp"
#include "common/timing.hpp"
#include "step1_naive/step1_launchers.hpp"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <stdexcept>

namespace course::step1 {
namespace {

// Sizes are parsed with a wide range so that a size over 32 reaches the one-block check,
// whose message says why 32 is the limit.
constexpr long long kParseMax = 1000000;

// True when option @p name appears on the command line (as "--name value" or "--name=value").
bool given(int argc, char** argv, const std::string& name) {
  for (int index = 1; index < argc; ++index) {
    const std::string argument = argv[index];
    if (argument == name || argument.rfind(name + "=", 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

bool parse_options(int argc, char** argv, Options& options) {
  long long rows = options.rows;
  long long inner = options.inner;
  long long cols = options.cols;
  long long size = options.rows;
  long long seed = options.seed;
  long long repeats = options.repeats;
  ArgParser parser("step1_naive",
                   "Step 1: C = A·B for matrices of at most 32x32 with one block and one "
                   "thread per output element (A is rows x inner, B is inner x cols). Built "
                   "with DEBUG, the result is checked against the serial CPU product.");
  parser.add_integer("--size", &size, 1, kParseMax,
                     "square size: rows = inner = cols (at most 32)");
  parser.add_integer("--rows", &rows, 1, kParseMax, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kParseMax, "columns of A, rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kParseMax, "columns of B and C (default: --size)");
  parser.add_integer("--seed", &seed, 0, std::numeric_limits<long long>::max(),
                     "seed of the random inputs (default: a fresh one, printed)");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs; the median is printed");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  rows = given(argc, argv, "--rows") ? rows : size;
  inner = given(argc, argv, "--inner") ? inner : size;
  cols = given(argc, argv, "--cols") ? cols : size;
  try {
    check_naive_single_block_size(static_cast<int>(rows), static_cast<int>(inner),
                                  static_cast<int>(cols));
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  options.rows = static_cast<int>(rows);
  options.inner = static_cast<int>(inner);
  options.cols = static_cast<int>(cols);
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  return true;
}

bool debug_verify(const HostMatrix<float>& a, const HostMatrix<float>& b,
                  const HostMatrix<float>& got, std::ostream& out) {
  return report_verification(verify_against_serial(a, b, got), out);
}

int run(const Options& options, bool verify, std::ostream& out) {
  const std::uint64_t seed =
      options.seed >= 0 ? static_cast<std::uint64_t>(options.seed) : fresh_seed();
  HostMatrix<float> a(options.rows, options.inner);
  HostMatrix<float> b(options.inner, options.cols);
  fill_uniform(a, seed);
  fill_uniform(b, seed + 1);
  out << "step 1, naive: C (" << options.rows << "x" << options.cols << ") = A (" << options.rows
      << "x" << options.inner << ") · B (" << options.inner << "x" << options.cols
      << "), one block of " << options.rows * options.cols << " threads, seed " << seed << "\n";

  DeviceMatrix<float> device_a(a);
  DeviceMatrix<float> device_b(b);
  DeviceMatrix<float> device_c(options.rows, options.cols, 0, "C");
  device_c.poison();  // an element the kernel forgets to write stays NaN and fails the check
  const TimingStats timing = time_gpu(
      [&] {
        launch_naive_single_block(device_a.data(), device_b.data(), device_c.data(), options.rows,
                                  options.inner, options.cols);
      },
      1, options.repeats);
  out << "kernel time: " << timing.median_ms << " ms (median of " << timing.repeats << " runs)\n";

  if (!verify) {
    out << "DEBUG is off: the result was not checked (define DEBUG or build with "
           "-DCOURSE_DEBUG=ON)\n";
    return 0;
  }
  // The check runs while the device matrices are still allocated, as the note asks.
  const HostMatrix<float> got = device_c.to_host();
  return debug_verify(a, b, got, out) ? 0 : 1;
}

}  // namespace course::step1
