/// @file bench_options.cpp
/// @brief The command line of the lab's benchmark programs (see bench_options.hpp).
#include "step4_boundary_checks/lab/bench_options.hpp"

#include "common/cli.hpp"
#include "common/memory_estimate.hpp"
#include "common/output_file.hpp"
#include "step4_boundary_checks/lab/shapes_file.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/problem_shape.hpp"

#include <iostream>
#include <stdexcept>

namespace course::step4 {
namespace {

/// What the benchmark allocates for the largest of @p shapes: A and B on the host, cuBLAS's
/// C and a kernel's C read back, and on the device A, B, C and (@p padding) the padded copies.
MemoryEstimate bench_estimate(const std::vector<ProductSizes>& shapes, bool padding) {
  MemoryEstimate largest;
  for (const ProductSizes& sizes : shapes) {
    MemoryEstimate estimate = dense_product_estimate(sizes, false);
    estimate.host("C of cuBLAS and of a kernel, read back",
                  array_bytes(sizes.rows, sizes.cols, 2 * sizeof(float)));
    if (padding) {
      estimate.device("padded copies of A, B and C", PaddedWorkspace::padded_bytes(sizes));
    }
    if (estimate.total(MemorySide::host) > largest.total(MemorySide::host)) {
      largest = estimate;
    }
  }
  return largest;
}

/// The one shape of --size or --rows/--inner/--cols.
ProductSizes shape_from_sizes(const ArgParser& parser, long long size, long long rows,
                              long long inner, long long cols) {
  if (parser.given("--size")) {
    rows = inner = cols = size;
  } else if (!parser.given("--rows") || !parser.given("--inner") || !parser.given("--cols")) {
    throw UsageError("give all three of --rows, --inner and --cols (or --size), or none");
  }
  try {
    return validate_shape(rows, inner, cols);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

}  // namespace

bool parse_bench_options(const BenchProgram& program, int argc, char** argv,
                         BenchOptions& options) {
  long long size = 0;
  long long rows = 0;
  long long inner = 0;
  long long cols = 0;
  long long repeats = options.repeats;
  long long seed = static_cast<long long>(options.seed);
  std::string shapes_path;
  ArgParser parser(program.name, program.description);
  parser.add_input_file(
      "--shapes", &shapes_path,
      "a file of the shapes to measure, one a line ('rows inner cols'; default: " +
          program.default_shapes + ")");
  parser.add_integer("--size", &size, 1, kMaxDimension,
                     "measure the one shape rows = inner = cols instead");
  parser.add_integer("--rows", &rows, 1, kMaxDimension, "rows of A and C (one shape)");
  parser.add_integer("--inner", &inner, 1, kMaxDimension, "columns of A and rows of B (one shape)");
  parser.add_integer("--cols", &cols, 1, kMaxDimension, "columns of B and C (one shape)");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs (the median is reported)");
  parser.add_seed(&seed, "seed of the random inputs (A and B of every shape)");
  if (program.takes_all_fast_variants) {
    parser.add_flag("--all-fast-variants", &options.all_fast_variants,
                    "also time each tile shape of the fast kernel");
  }
  if (program.takes_outputs) {
    parser.add_output_file("--csv", &options.csv_path, "also write the table as CSV to this file");
    parser.add_output_file(
        "--markdown", &options.markdown_path,
        "also write the report as Markdown to this file (the table with its notes)");
  }
  if (!parser.parse(argc, argv)) {
    return false;
  }
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
  parser.refuse_together("--shapes", {"--size", "--rows", "--inner", "--cols"},
                         "measure either the shapes of a file or one shape");
  options.repeats = static_cast<int>(repeats);
  options.seed = static_cast<std::uint64_t>(seed);  // a real seed once parsed
  const bool one_shape = parser.given("--size") || parser.given("--rows") ||
                         parser.given("--inner") || parser.given("--cols");
  if (one_shape) {
    options.shapes = {shape_from_sizes(parser, size, rows, inner, cols)};
    options.shapes_source = "--rows/--inner/--cols";
  } else {
    options.shapes_source = shapes_path.empty() ? program.default_shapes : shapes_path;
    options.shapes = read_shapes_file(options.shapes_source);
  }
  require_memory(bench_estimate(options.shapes, program.measures_padding),
                 "leave the largest shapes out of --shapes");
  return true;
}

int run_bench_program(const BenchProgram& program, int argc, char** argv,
                      const std::function<int(const BenchOptions&)>& measure) {
  return run_program(program.name, [&] {
    BenchOptions options;
    return parse_bench_options(program, argc, argv, options) ? measure(options) : 0;
  });
}

int publish_bench(const BenchOptions& options, const std::string& report, const ResultTable& table,
                  bool all_agreed) {
  std::cout << report;
  if (!options.markdown_path.empty()) {
    course::write_output_file(options.markdown_path, report);
  }
  if (!options.csv_path.empty()) {
    table.write_csv(options.csv_path);
  }
  if (!all_agreed) {
    std::cout << "wrong answer: some result disagreed with cuBLAS (rows marked WRONG)\n";
    return 1;
  }
  return 0;
}

}  // namespace course::step4
