/// @file step2_program.cpp
/// @brief Step 2's options, DEBUG check, single run and benchmark.

#include "step2_three_approaches/step2_program.hpp"

#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/random_fill.hpp"
#include "common/timing.hpp"
#include "step2_three_approaches/matmul_benchmark.hpp"
#include "step2_three_approaches/step2_launchers.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>
#include <limits>
#include <ostream>
#include <stdexcept>

namespace course::step2 {
namespace {

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

// Refuses single-run options in benchmark mode and benchmark options without --bench.
void check_mode(int argc, char** argv, bool bench) {
  const std::vector<std::string> single_run_only{"--size", "--rows", "--inner", "--cols",
                                                 "--approach"};
  const std::vector<std::string> bench_only{"--bench-sizes", "--serial-max", "--csv"};
  for (const std::string& name : bench ? single_run_only : bench_only) {
    if (given(argc, argv, name)) {
      throw UsageError(bench ? name +
                                   " does not apply to --bench, which times every approach "
                                   "at --bench-sizes"
                             : name + " is a benchmark option: add --bench");
    }
  }
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
      "step2_three_approaches",
      "Step 2: C = A·B (A is rows x inner, B is inner x cols) with one of three approaches: "
      "1 = a single block of 1024 threads looping over C, 2 = one thread per output element "
      "over many blocks, 3 = 32x32 output tiles per block without shared memory. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 1 (serial CPU, approaches 1-3 and cuBLAS at 2^10, 2^11, 2^12).");
  parser.add_integer("--size", &size, 1, kMaxSize, "square size: rows = inner = cols");
  parser.add_integer("--rows", &rows, 1, kMaxSize, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kMaxSize, "columns of A, rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kMaxSize, "columns of B and C (default: --size)");
  parser.add_integer("--approach", &approach, 1, 3,
                     "approach to run (default: APPROACH in main.cu or STEP2_APPROACH)");
  parser.add_integer("--seed", &seed, 0, std::numeric_limits<long long>::max(),
                     "seed of the random inputs (default: a fresh one, printed)");
  parser.add_integer("--repeats", &repeats, 1, 1000,
                     "timed runs; the median is printed (the benchmark runs the serial CPU "
                     "product and approach 1 fewer times at large sizes)");
  parser.add_flag("--bench", &options.bench,
                  "benchmark: the note's Table 1 on this GPU, with cuBLAS as reference");
  parser.add_integer_list("--bench-sizes", &bench_sizes, 32, kMaxBenchSize,
                          "square sizes of the benchmark (default 1024,2048,4096)");
  parser.add_integer("--serial-max", &serial_max, 0, kMaxBenchSize,
                     "benchmark: time the serial CPU product only up to this size (0: never; "
                     "at 4096 it is the slowest cell of the table)");
  parser.add_text("--csv", &options.csv_path, "benchmark: also write the table as CSV here");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  check_mode(argc, argv, options.bench);
  options.rows = static_cast<int>(given(argc, argv, "--rows") ? rows : size);
  options.inner = static_cast<int>(given(argc, argv, "--inner") ? inner : size);
  options.cols = static_cast<int>(given(argc, argv, "--cols") ? cols : size);
  options.approach = static_cast<int>(approach);
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  options.serial_max = static_cast<int>(serial_max);
  std::sort(bench_sizes.begin(), bench_sizes.end());
  bench_sizes.erase(std::unique(bench_sizes.begin(), bench_sizes.end()), bench_sizes.end());
  options.bench_sizes.assign(bench_sizes.begin(), bench_sizes.end());
  try {
    check_step2_sizes(options.approach, options.rows, options.inner, options.cols);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
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
  out << "step 2, " << approach_description(options.approach) << "\n"
      << "C (" << options.rows << "x" << options.cols << ") = A (" << options.rows << "x"
      << options.inner << ") · B (" << options.inner << "x" << options.cols << "), seed " << seed
      << "\n";

  DeviceMatrix<float> device_a(a);
  DeviceMatrix<float> device_b(b);
  DeviceMatrix<float> device_c(options.rows, options.cols, 0, "C");
  device_c.poison();  // an element the kernel forgets to write stays NaN and fails the check
  const TimingStats timing = time_gpu(
      [&] {
        launch_step2_approach(options.approach, device_a.data(), device_b.data(), device_c.data(),
                              options.rows, options.inner, options.cols);
      },
      1, options.repeats);
  const double flops = 2.0 * options.rows * static_cast<double>(options.inner) * options.cols;
  out << "kernel time: " << timing.median_ms << " ms (median of " << timing.repeats << " runs), "
      << flops / (timing.median_ms * 1e-3) / 1e9 << " GFLOP/s\n";

  if (!verify) {
    out << "DEBUG is off: the result was not checked (define DEBUG or build with "
           "-DCOURSE_DEBUG=ON)\n";
    return 0;
  }
  out << "DEBUG: checking against the serial CPU product...\n" << std::flush;
  // The check runs while the device matrices are still allocated, as the note asks.
  const HostMatrix<float> got = device_c.to_host();
  return debug_verify(a, b, got, out) ? 0 : 1;
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
