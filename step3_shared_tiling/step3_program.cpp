/// @file step3_program.cpp
/// @brief Step 3's options, DEBUG check, single run and benchmark.

#include "step3_shared_tiling/step3_program.hpp"

#include "common/cli.hpp"
#include "common/option_given.hpp"
#include "common/timed_product.hpp"
#include "step2_three_approaches/matmul_benchmark.hpp"
#include "step2_three_approaches/step2_launchers.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step3 {
namespace {

// Refuses single-run options in benchmark mode and benchmark options without --bench.
void check_mode(int argc, char** argv, bool bench) {
  const std::vector<std::string> single_run_only{"--size", "--rows", "--inner", "--cols",
                                                 "--approach"};
  const std::vector<std::string> bench_only{"--bench-sizes", "--serial-max", "--csv"};
  for (const std::string& name : bench ? single_run_only : bench_only) {
    if (option_given(argc, argv, name)) {
      throw UsageError(bench ? name +
                                   " does not apply to --bench, which times approaches 2 to 4 "
                                   "at --bench-sizes"
                             : name + " is a benchmark option: add --bench");
    }
  }
}

// Approach 4 needs multiples of the tile width; step 2's approaches have their own limits.
void check_sizes(int approach, int rows, int inner, int cols) {
  try {
    if (approach == 4) {
      check_tiled_shared_sizes(rows, inner, cols);
    } else {
      step2::check_step2_sizes(approach, rows, inner, cols);
    }
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

std::string approach_description(int number) {
  if (number == 4) {
    return "approach 4: " + std::to_string(kTileWidth) + "x" + std::to_string(kTileWidth) +
           " tiles of A and B staged in shared memory";
  }
  return step2::approach_description(number) + " (from step 2)";
}

}  // namespace

bool parse_options(int argc, char** argv, int default_approach, Options& options) {
  long long size = options.rows;
  long long rows = options.rows;
  long long inner = options.inner;
  long long cols = options.cols;
  long long approach = default_approach;
  long long seed = options.seed;
  long long repeats = options.repeats;
  long long serial_max = options.serial_max;
  std::vector<long long> bench_sizes(options.bench_sizes.begin(), options.bench_sizes.end());
  ArgParser parser(
      "step3_shared_tiling",
      "Step 3: C = A·B (A is rows x inner, B is inner x cols) with approach 4, 32x32 tiles of "
      "A and B staged in shared memory. Its sizes must be multiples of 32 (step 4 handles "
      "any size). Approaches 1 to 3 of step 2 are available for comparison. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 2 (approach 4, with the serial CPU product, approaches 2 and 3, and "
      "cuBLAS at 2^10, 2^11, 2^12).");
  parser.add_integer("--size", &size, 1, kMaxSize,
                     "square size: rows = inner = cols (a multiple of 32 for approach 4)");
  parser.add_integer("--rows", &rows, 1, kMaxSize, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kMaxSize, "columns of A, rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kMaxSize, "columns of B and C (default: --size)");
  parser.add_integer("--approach", &approach, 1, 4,
                     "approach to run: 4, or step 2's 1 to 3 (default: APPROACH in main.cu or "
                     "STEP3_APPROACH)");
  parser.add_integer("--seed", &seed, 0, std::numeric_limits<long long>::max(),
                     "seed of the random inputs (default: a fresh one, printed)");
  parser.add_integer("--repeats", &repeats, 1, 1000,
                     "timed runs; the median is printed (the benchmark runs the serial CPU "
                     "product fewer times at large sizes)");
  parser.add_flag("--bench", &options.bench,
                  "benchmark: the note's Table 2 on this GPU, with cuBLAS as reference");
  parser.add_integer_list("--bench-sizes", &bench_sizes, 32, kMaxBenchSize,
                          "square sizes of the benchmark, multiples of 32 (default "
                          "1024,2048,4096)");
  parser.add_integer("--serial-max", &serial_max, 0, kMaxBenchSize,
                     "benchmark: time the serial CPU product only up to this size (0: never; "
                     "at 4096 it is the slowest cell of the table)");
  parser.add_text("--csv", &options.csv_path, "benchmark: also write the table as CSV here");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  check_mode(argc, argv, options.bench);
  options.rows = static_cast<int>(option_given(argc, argv, "--rows") ? rows : size);
  options.inner = static_cast<int>(option_given(argc, argv, "--inner") ? inner : size);
  options.cols = static_cast<int>(option_given(argc, argv, "--cols") ? cols : size);
  options.approach = static_cast<int>(approach);
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  options.serial_max = static_cast<int>(serial_max);
  std::sort(bench_sizes.begin(), bench_sizes.end());
  bench_sizes.erase(std::unique(bench_sizes.begin(), bench_sizes.end()), bench_sizes.end());
  options.bench_sizes.assign(bench_sizes.begin(), bench_sizes.end());
  if (options.bench) {
    for (int bench_size : options.bench_sizes) {
      if (bench_size % kTileWidth != 0) {
        throw UsageError("--bench-sizes must be multiples of " + std::to_string(kTileWidth) +
                         " (approach 4 checks no boundary), got " + std::to_string(bench_size) +
                         "; step 4 handles any size");
      }
    }
  } else {
    check_sizes(options.approach, options.rows, options.inner, options.cols);
  }
  return true;
}

void launch_approach(int number, const float* a, const float* b, float* c, int rows, int inner,
                     int cols) {
  if (number == 4) {
    launch_tiled_shared(a, b, c, rows, inner, cols);
  } else {
    step2::launch_step2_approach(number, a, b, c, rows, inner, cols);
  }
}

int run(const Options& options, bool verify, std::ostream& out) {
  const TimedProduct product{"step 3, " + approach_description(options.approach) + "\n",
                             "",
                             options.rows,
                             options.inner,
                             options.cols,
                             options.seed,
                             options.repeats};
  return run_timed_product(
      product,
      [&](const float* a, const float* b, float* c) {
        launch_approach(options.approach, a, b, c, options.rows, options.inner, options.cols);
      },
      verify, out);
}

int run_benchmark(const Options& options, std::ostream& out, std::ostream& progress) {
  std::vector<step2::BenchMethod> methods;
  for (int number = 2; number <= 4; ++number) {
    methods.push_back({number == 4 ? "approach 4 (shared-memory tiling)"
                                   : "approach " + std::to_string(number) + " (step 2)",
                       [number](const float* a, const float* b, float* c, int size) {
                         launch_approach(number, a, b, c, size, size, size);
                       },
                       false});
  }
  step2::BenchSettings settings;
  settings.sizes = options.bench_sizes;
  settings.serial_max = options.serial_max;
  settings.repeats = options.repeats;
  settings.seed = options.seed >= 0 ? static_cast<unsigned long long>(options.seed) : 1;
  return step2::run_square_benchmark(
      "Table 2: execution times (ms) of approach 4 (shared-memory tiling), with the serial "
      "CPU product, step 2's approaches 2 and 3 for comparison, and cuBLAS SGEMM (fp32, TF32 "
      "off) as reference",
      methods, settings, options.csv_path, out, progress);
}

}  // namespace course::step3
