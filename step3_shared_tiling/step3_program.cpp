/// @file step3_program.cpp
/// @brief Step 3's options, DEBUG check, single run and benchmark.

#include "step3_shared_tiling/step3_program.hpp"

#include "common/cli.hpp"
#include "common/timed_product.hpp"
#include "step2_three_approaches/matmul_benchmark.hpp"
#include "step2_three_approaches/step2_launchers.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::step3 {
namespace {

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

step2::CommandLine step3_command_line() {
  step2::CommandLine line;
  line.program = "step3_shared_tiling";
  line.description =
      "Step 3: C = A·B (A is rows x inner, B is inner x cols) with approach 4, 32x32 tiles of "
      "A and B staged in shared memory. Its sizes must be multiples of 32 (step 4 handles "
      "any size). Approaches 1 to 3 of step 2 are available for comparison. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 2 (approach 4, with the serial CPU product, approaches 2 and 3, and "
      "cuBLAS at 2^10, 2^11, 2^12).";
  line.size_help = "square size: rows = inner = cols (a multiple of 32 for approach 4)";
  line.max_approach = 4;
  line.approach_help =
      "approach to run: 4, or step 2's 1 to 3 (default: APPROACH in main.cu or "
      "STEP3_APPROACH)";
  line.repeats_help =
      "timed runs; the median is printed (the benchmark runs the serial CPU product fewer "
      "times at large sizes)";
  line.bench_help = "benchmark: the note's Table 2 on this GPU, with cuBLAS as reference";
  line.bench_sizes_help = "square sizes of the benchmark, multiples of 32 (default 1024,2048,4096)";
  line.bench_times = "approaches 2 to 4";
  return line;
}

// Approach 4 checks no boundary, so every benchmark size must be a multiple of the tile.
void check_bench_sizes(const std::vector<int>& bench_sizes) {
  for (int bench_size : bench_sizes) {
    if (bench_size % kTileWidth != 0) {
      throw UsageError("--bench-sizes must be multiples of " + std::to_string(kTileWidth) +
                       " (approach 4 checks no boundary), got " + std::to_string(bench_size) +
                       "; step 4 handles any size");
    }
  }
}

}  // namespace

bool parse_options(int argc, char** argv, int default_approach, Options& options) {
  if (!step2::parse_command_line(argc, argv, step3_command_line(), default_approach, options)) {
    return false;
  }
  if (options.bench) {
    check_bench_sizes(options.bench_sizes);
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
