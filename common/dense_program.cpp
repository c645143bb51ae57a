/// @file dense_program.cpp
/// @brief The program of a dense-product step (see dense_program.hpp): its size options, one
/// timed product and the square-size benchmark.

#include "common/dense_program.hpp"

#include "common/square_benchmark.hpp"
#include "common/timed_product.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <utility>

namespace course {
namespace {

/// Refuses single-run options with --bench, benchmark options without it, and --size with
/// the sizes it sets.
void check_mode(const ArgParser& parser, const DenseStep& step, bool bench) {
  if (bench) {
    for (const std::string name : {"--size", "--rows", "--inner", "--cols", "--approach"}) {
      if (parser.given(name)) {
        throw UsageError(name + " does not apply to --bench, which times " + step.bench->times +
                         " at --bench-sizes");
      }
    }
  }
  if (step.bench) {
    parser.refuse_unless({"--bench-sizes", "--serial-max", "--csv"}, bench, "--bench");
  }
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
}

}  // namespace

DenseApproach plain_approach(const std::string& name,
                             const std::function<void(const ProductSizes&)>& check_sizes,
                             const ApproachRun& launch) {
  DenseApproach entry;
  entry.name = name;
  entry.check_sizes = check_sizes;
  entry.make_run = [launch] { return launch; };
  return entry;
}

DenseProgram::DenseProgram(DenseStep step) : step_(std::move(step)) {
  sizes_ = step_.sizes.defaults;
  size_ = sizes_.rows;
  rows_ = sizes_.rows;
  inner_ = sizes_.inner;
  cols_ = sizes_.cols;
  bench_sizes_.assign(bench_.sizes.begin(), bench_.sizes.end());
  serial_max_ = bench_.serial_max;
}

std::vector<std::string> DenseProgram::approach_names() const {
  std::vector<std::string> names;
  for (const DenseApproach& approach : step_.approaches) {
    names.push_back(approach.name);
  }
  return names;
}

std::string DenseProgram::repeats_note() const {
  if (!step_.bench) {
    return {};
  }
  // The benchmark runs its slow rows fewer times at large sizes: say which.
  std::string slow_rows = "the serial CPU product";
  for (const BenchApproach& row : step_.bench->rows) {
    if (row.slow) {
      slow_rows += " and " + row.name;
    }
  }
  return "the benchmark runs " + slow_rows + " fewer times at large sizes";
}

void DenseProgram::add_options(ArgParser& parser) {
  const long long max = step_.sizes.max;
  parser.add_integer("--size", &size_, 1, max, step_.sizes.size_help);
  parser.add_integer("--rows", &rows_, 1, max, "rows of A and C (default: --size)");
  parser.add_integer("--inner", &inner_, 1, max, "columns of A and rows of B (default: --size)");
  parser.add_integer("--cols", &cols_, 1, max, "columns of B and C (default: --size)");
  if (!step_.bench) {
    return;
  }
  parser.add_flag(
      "--bench", &bench_.on,
      "benchmark: the note's " + step_.bench->table + " on this GPU, with cuBLAS as reference");
  parser.add_integer_list("--bench-sizes", &bench_sizes_, 32, kMaxBenchSize,
                          step_.bench->sizes_help);
  parser.add_integer("--serial-max", &serial_max_, 0, kMaxBenchSize,
                     "benchmark: time the serial CPU product only up to this size (0: never; "
                     "at 4096 it is the slowest cell of the table)");
  parser.add_output_file("--csv", &bench_.csv_path,
                         "also write the table as CSV to this file (with --bench)");
}

void DenseProgram::prepare(const ArgParser& parser, const RunChoice& choice) {
  check_mode(parser, step_, bench_.on);
  if (parser.given("--size")) {
    rows_ = inner_ = cols_ = size_;
  }
  sizes_ = {static_cast<int>(rows_), static_cast<int>(inner_), static_cast<int>(cols_)};
  std::sort(bench_sizes_.begin(), bench_sizes_.end());  // the parser refused repeated sizes
  bench_.sizes.assign(bench_sizes_.begin(), bench_sizes_.end());
  bench_.serial_max = static_cast<int>(serial_max_);
  // The step's limits, before any input is made: the chosen approach's precondition, or
  // every benchmark size.
  try {
    if (!bench_.on) {
      if (step_.sizes.check_shape) {
        step_.sizes.check_shape(sizes_);
      }
      step_.approaches.at(choice.approach - 1).check_sizes(sizes_);
    } else if (step_.bench->check_size) {
      for (int bench_size : bench_.sizes) {
        step_.bench->check_size(bench_size);
      }
    }
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

MemoryEstimate DenseProgram::memory(const RunChoice& choice) const {
  if (bench_.on) {
    const int largest = *std::max_element(bench_.sizes.begin(), bench_.sizes.end());
    return dense_product_estimate(ProductSizes{largest, largest, largest}, true);
  }
  MemoryEstimate estimate = dense_product_estimate(sizes_, choice.verify);
  const DenseApproach& approach = step_.approaches.at(choice.approach - 1);
  if (approach.workspace_bytes) {
    estimate.device(approach.name + " workspace", approach.workspace_bytes(sizes_));
  }
  return estimate;
}

int DenseProgram::run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) {
  if (bench_.on) {
    return run_benchmark(choice, out, std::cerr);
  }
  return run_product(choice, device, out);
}

int DenseProgram::run_product(const RunChoice& choice, const GpuDescription& device,
                              std::ostream& out) const {
  const DenseApproach& approach = step_.approaches.at(choice.approach - 1);
  if (approach.describe_run) {
    out << approach.describe_run(sizes_) << "\n";
  }
  const ApproachRun run = approach.make_run();
  TimedProduct product;
  product.label = step_.label + ", approach " + std::to_string(choice.approach) + " (" +
                  approach.name + ") on " + device.name + "\n";
  product.sizes = sizes_;
  product.seed = choice.seed;
  product.repeats = choice.repeats;
  const ProductSizes sizes = sizes_;
  return run_timed_product(
      product, [&](const float* a, const float* b, float* c) { run(a, b, c, sizes, nullptr); },
      choice.verify, out);
}

int DenseProgram::run_benchmark(const RunChoice& choice, std::ostream& out,
                                std::ostream& progress) const {
  std::vector<BenchMethod> methods;
  for (const BenchApproach& row : step_.bench->rows) {
    const ApproachRun run = step_.approaches.at(row.approach - 1).make_run();
    methods.push_back({row.name,
                       [run](const float* a, const float* b, float* c, int size) {
                         run(a, b, c, {size, size, size}, nullptr);
                       },
                       row.slow});
  }
  BenchSettings settings;
  settings.sizes = bench_.sizes;
  settings.serial_max = bench_.serial_max;
  settings.repeats = choice.repeats;
  settings.seed = static_cast<unsigned long long>(choice.seed);  // a real seed after parsing
  return run_square_benchmark(step_.bench->title, methods, settings, bench_.csv_path, out,
                              progress);
}

}  // namespace course
