/// @file approach_program.cpp
/// @brief Options, single run and benchmark of the programs with approaches (steps 2 and 3).

#include "common/approach_program.hpp"

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/square_benchmark.hpp"
#include "common/timed_product.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <stdexcept>

namespace course {
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

// The step's own limits: the chosen approach's sizes, or every benchmark size.
void check_step_limits(const ApproachStep& step, const ApproachOptions& options) {
  try {
    if (!options.bench) {
      step.check_sizes(options.approach, options.sizes);
    } else if (step.check_bench_size) {
      for (int bench_size : options.bench_sizes) {
        step.check_bench_size(bench_size);
      }
    }
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

// "timed runs; ... (the benchmark runs the serial CPU product and approach 1 fewer times at
// large sizes)": the slow rows are those of the step's benchmark.
std::string repeats_help(const ApproachStep& step) {
  std::string slow_rows = "the serial CPU product";
  for (const BenchApproach& row : step.bench_rows) {
    if (row.slow) {
      slow_rows += " and " + row.name;
    }
  }
  return "timed runs; the median is printed (the benchmark runs " + slow_rows +
         " fewer times at large sizes)";
}

}  // namespace

bool parse_approach_options(const ApproachStep& step, int argc, char** argv, int default_approach,
                            ApproachOptions& options) {
  long long size = options.sizes.rows;
  long long rows = options.sizes.rows;
  long long inner = options.sizes.inner;
  long long cols = options.sizes.cols;
  long long approach = default_approach;
  long long seed = options.seed;
  long long repeats = options.repeats;
  long long serial_max = options.serial_max;
  std::vector<long long> bench_sizes(options.bench_sizes.begin(), options.bench_sizes.end());
  ArgParser parser(step.program, step.description);
  parser.add_integer("--size", &size, 1, kMaxProductSize, step.size_help);
  parser.add_integer("--rows", &rows, 1, kMaxProductSize, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner, 1, kMaxProductSize,
                     "columns of A and rows of B (default: --size)");
  parser.add_integer("--cols", &cols, 1, kMaxProductSize, "columns of B and C (default: --size)");
  parser.add_integer("--approach", &approach, 1, step.max_approach, step.approach_help);
  parser.add_seed(&seed, "seed of the random inputs");
  parser.add_integer("--repeats", &repeats, 1, 1000, repeats_help(step));
  parser.add_flag("--bench", &options.bench,
                  "benchmark: the note's " + step.table + " on this GPU, with cuBLAS as reference");
  parser.add_integer_list("--bench-sizes", &bench_sizes, 32, kMaxBenchSize, step.bench_sizes_help);
  parser.add_integer("--serial-max", &serial_max, 0, kMaxBenchSize,
                     "benchmark: time the serial CPU product only up to this size (0: never; "
                     "at 4096 it is the slowest cell of the table)");
  parser.add_output_file("--csv", &options.csv_path,
                         "also write the table as CSV to this file (with --bench)");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  check_mode(parser, options.bench, step.bench_times);
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  options.sizes = {static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(cols)};
  options.approach = static_cast<int>(approach);
  options.seed = seed;
  options.repeats = static_cast<int>(repeats);
  options.serial_max = static_cast<int>(serial_max);
  std::sort(bench_sizes.begin(), bench_sizes.end());  // the parser refused repeated sizes
  options.bench_sizes.assign(bench_sizes.begin(), bench_sizes.end());
  check_step_limits(step, options);
  return true;
}

MemoryEstimate approach_memory_estimate(const ApproachOptions& options, bool verify) {
  if (!options.bench) {
    return dense_product_estimate(options.sizes, verify);
  }
  const int largest =
      static_cast<int>(*std::max_element(options.bench_sizes.begin(), options.bench_sizes.end()));
  return dense_product_estimate(ProductSizes{largest, largest, largest}, true);
}

int run_approach(const ApproachStep& step, const ApproachOptions& options, bool verify,
                 std::ostream& out) {
  const TimedProduct product{step.label + ", " + step.describe(options.approach) + "\n", "",
                             options.sizes, options.seed, options.repeats};
  return run_timed_product(
      product,
      [&](const float* a, const float* b, float* c) {
        step.launch(options.approach, a, b, c, options.sizes, nullptr);
      },
      verify, out);
}

int run_approach_benchmark(const ApproachStep& step, const ApproachOptions& options,
                           std::ostream& out, std::ostream& progress) {
  std::vector<BenchMethod> methods;
  for (const BenchApproach& row : step.bench_rows) {
    const ApproachLaunch& launch = step.launch;
    const int number = row.number;
    methods.push_back({row.name,
                       [&launch, number](const float* a, const float* b, float* c, int size) {
                         launch(number, a, b, c, {size, size, size}, nullptr);
                       },
                       row.slow});
  }
  BenchSettings settings;
  settings.sizes = options.bench_sizes;
  settings.serial_max = options.serial_max;
  settings.repeats = options.repeats;
  settings.seed = static_cast<unsigned long long>(options.seed);  // a real seed after parsing
  return run_square_benchmark(step.bench_title, methods, settings, options.csv_path, out, progress);
}

int run_approach_program(const ApproachStep& step, int argc, char** argv, int default_approach,
                         bool verify) {
  return run_program(step.program, [&] {
    ApproachOptions options;
    if (!parse_approach_options(step, argc, argv, default_approach, options)) {
      return 0;  // --help
    }
    require_memory(approach_memory_estimate(options, verify), "use smaller sizes");
    require_cuda_device();
    if (options.bench) {
      return run_approach_benchmark(step, options, std::cout, std::cerr);
    }
    return run_approach(step, options, verify, std::cout);
  });
}

}  // namespace course
