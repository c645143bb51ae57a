/// @file step2_program.cpp
/// @brief Step 2's options, DEBUG check, single run and benchmark.

#include "step2_three_approaches/step2_program.hpp"

#include "common/cli.hpp"
#include "common/timed_product.hpp"
#include "step2_three_approaches/matmul_benchmark.hpp"
#include "step2_three_approaches/step2_launchers.hpp"

#include <algorithm>
#include <string>
#include <vector>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace course::step2 {
namespace {

// Refuses single-run options in benchmark mode, benchmark options without --bench, and
// --size with the sizes it sets.
void check_mode(const ArgParser& parser, bool bench, const std::string& bench_times) {
  if (bench) {
    for (const std::string name : {"--size", "--rows", "--inner", "--cols", "--approach"}) {
      if (parser.given(name)) {
        throw UsageError(name + " does not apply to --bench, which times " + bench_times +
                         " at --bench-sizes");
      }
    }
  }
  parser.refuse_unless({"--bench-sizes", "--serial-max", "--csv"}, bench, "--bench");
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
}

CommandLine step2_command_line() {
  CommandLine line;
  line.program = "step2_three_approaches";
  line.description =
      "Step 2: C = A·B (A is rows x inner, B is inner x cols) with one of three approaches: "
      "1 = a single block of 1024 threads looping over C, 2 = one thread per output element "
      "over many blocks, 3 = 32x32 output tiles per block without shared memory. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 1 (serial CPU, approaches 1-3 and cuBLAS at 2^10, 2^11, 2^12).";
  line.size_help = "square size: rows = inner = cols";
  line.max_approach = 3;
  line.approach_help = "approach to run (default: APPROACH in main.cu or STEP2_APPROACH)";
  line.repeats_help =
      "timed runs; the median is printed (the benchmark runs the serial CPU product and "
      "approach 1 fewer times at large sizes)";
  line.bench_help = "benchmark: the note's Table 1 on this GPU, with cuBLAS as reference";
  line.bench_sizes_help = "square sizes of the benchmark (default 1024,2048,4096)";
  line.bench_times = "every approach";
  return line;
}

}  // namespace

bool parse_command_line(int argc, char** argv, const CommandLine& line, int default_approach,
                        Options& options) {
  long long size = options.rows;
  long long rows = options.rows;
  long long inner = options.inner;
  long long cols = options.cols;
  long long approach = default_approach;
  long long seed = options.seed;
  long long repeats = options.repeats;
  long long serial_max = options.serial_max;
  std::vector<long long> bench_sizes(options.bench_sizes.begin(), options.bench_sizes.end());
  ArgParser parser(line.program, line.description);
  parser.add_integer("--size", &size, 1, kMaxSize, line.size_help);
  parser.add_integer("--rows", &rows, 1, kMaxSize, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kMaxSize, "columns of A, rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kMaxSize, "columns of B and C (default: --size)");
  parser.add_integer("--approach", &approach, 1, line.max_approach, line.approach_help);
  parser.add_integer("--seed", &seed, 0, std::numeric_limits<long long>::max(),
                     "seed of the random inputs (default: a fresh one, printed)");
  parser.add_integer("--repeats", &repeats, 1, 1000, line.repeats_help);
  parser.add_flag("--bench", &options.bench, line.bench_help);
  parser.add_integer_list("--bench-sizes", &bench_sizes, 32, kMaxBenchSize, line.bench_sizes_help);
  parser.add_integer("--serial-max", &serial_max, 0, kMaxBenchSize,
                     "benchmark: time the serial CPU product only up to this size (0: never; "
                     "at 4096 it is the slowest cell of the table)");
  parser.add_path("--csv", &options.csv_path, "benchmark: also write the table as CSV here");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  check_mode(parser, options.bench, line.bench_times);
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  options.rows = static_cast<int>(rows);
  options.inner = static_cast<int>(inner);
  options.cols = static_cast<int>(cols);
  options.approach = static_cast<int>(approach);
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  options.serial_max = static_cast<int>(serial_max);
  std::sort(bench_sizes.begin(), bench_sizes.end());
  bench_sizes.erase(std::unique(bench_sizes.begin(), bench_sizes.end()), bench_sizes.end());
  options.bench_sizes.assign(bench_sizes.begin(), bench_sizes.end());
  return true;
}

bool parse_options(int argc, char** argv, int default_approach, Options& options) {
  if (!parse_command_line(argc, argv, step2_command_line(), default_approach, options)) {
    return false;
  }
  try {
    check_step2_sizes(options.approach, options.rows, options.inner, options.cols);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  return true;
}

MemoryEstimate memory_estimate(const Options& options, bool verify) {
  if (!options.bench) {
    return dense_product_estimate(options.rows, options.inner, options.cols, verify);
  }
  const std::uint64_t largest = static_cast<std::uint64_t>(
      *std::max_element(options.bench_sizes.begin(), options.bench_sizes.end()));
  return dense_product_estimate(largest, largest, largest, true);
}

int run(const Options& options, bool verify, std::ostream& out) {
  const TimedProduct product{"step 2, " + approach_description(options.approach) + "\n",
                             "",
                             options.rows,
                             options.inner,
                             options.cols,
                             options.seed,
                             options.repeats};
  return run_timed_product(
      product,
      [&](const float* a, const float* b, float* c) {
        launch_step2_approach(options.approach, a, b, c, options.rows, options.inner, options.cols);
      },
      verify, out);
}

int run_benchmark(const Options& options, std::ostream& out, std::ostream& progress) {
  std::vector<BenchMethod> methods;
  for (int number = 1; number <= 3; ++number) {
    methods.push_back({"approach " + std::to_string(number),
                       [number](const float* a, const float* b, float* c, int size) {
                         launch_step2_approach(number, a, b, c, size, size, size);
                       },
                       number == 1});
  }
  BenchSettings settings;
  settings.sizes = options.bench_sizes;
  settings.serial_max = options.serial_max;
  settings.repeats = options.repeats;
  settings.seed = options.seed >= 0 ? static_cast<unsigned long long>(options.seed) : 1;
  return run_square_benchmark(
      "Table 1: execution times (ms) of the serial CPU product and approaches 1-3, with "
      "cuBLAS SGEMM (fp32, TF32 off) as reference",
      methods, settings, options.csv_path, out, progress);
}

}  // namespace course::step2
