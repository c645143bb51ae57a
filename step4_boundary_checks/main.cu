/// @file main.cu
/// @brief step4_boundary_checks: tiled matrix products for every sizes.
///
/// Modes: one product C = A·B of the given sizes with the chosen approach (default), the
/// benchmark table against cuBLAS (`--bench`), and the demonstration of the bug that the
/// boundary checks fix (`--demo-unchecked`). `#define DEBUG` (or COURSE_DEBUG=ON) checks
/// the product against the serial CPU one before device memory is freed; `#define APPROACH`
/// (or STEP4_APPROACH) picks the default approach: 1 checked tiling, 2 padding, 3
/// rectangular tiles, 4 the fast kernel.

// #define DEBUG

#include "common/cli.hpp"
#include "common/debug_switch.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/memory_estimate.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"
#include "common/timed_product.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/shapes_file.hpp"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/step4_program.hpp"

#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef APPROACH
/// @brief Compile-time default approach (1 checked, 2 padded, 3 rect tiles, 4 fast).
#define APPROACH 1
#endif

namespace {

/// Runs one product with @p approach, timing it, and (with DEBUG) verifies it.
int run_single(course::step4::Approach approach, const course::ProductSizes& sizes, int repeats) {
  const course::DeviceInfo device = course::require_cuda_device();
  const std::uint64_t seed = course::fresh_seed();
  // A and B from the seed, uploaded; C poisoned so an element never written fails the check.
  course::ProductOperands operands(sizes.rows, sizes.inner, sizes.cols, seed,
                                   course::InputKind::uniform, "C");
  const float* a_device = operands.device_a.data();
  const float* b_device = operands.device_b.data();
  float* c_device = operands.device_c.data();

  course::step4::PaddedWorkspace workspace;  // reused by the padded approach between the runs
  auto multiply = [&] {
    if (approach == course::step4::Approach::padded) {
      course::step4::launch_padded(a_device, b_device, c_device, sizes, nullptr, workspace);
    } else {
      course::step4::run_approach(approach, a_device, b_device, c_device, sizes);
    }
  };
  const course::TimingStats timing = course::time_gpu(multiply, 1, repeats);
  std::cout << "step 4, approach " << static_cast<int>(approach) << " ("
            << course::step4::approach_name(approach) << ") on " << device.name << "\n"
            << "C = A.B with A " << sizes.rows << "x" << sizes.inner << ", B " << sizes.inner << "x"
            << sizes.cols << " (seed " << seed << ")\n"
            << "median " << timing.median_ms << " ms over " << timing.repeats << " runs, "
            << sizes.flops() / (timing.median_ms * 1e9) << " TFLOP/s\n";
  if (approach == course::step4::Approach::fast) {
    std::cout << "fast kernel configuration: "
              << course::step4::fast_config_name(course::step4::chosen_fast_config(sizes)) << "\n";
  }
  // Copied back in every build: the copy also reports an error the kernel left behind.
  const course::HostMatrix<float> c_host = operands.device_c.to_host();
  if (course::kDebugCheck && !course::debug_verify(operands.a, operands.b, c_host, std::cout)) {
    return 1;
  }
  return 0;
}

/// Refuses options of another mode (each mode's options apply to it alone), two modes at
/// once, and --size with the sizes it sets.
void check_modes(const course::ArgParser& parser, bool bench, bool demo_unchecked) {
  parser.refuse_together("--bench", {"--demo-unchecked"}, "choose one mode");
  parser.refuse_unless({"--csv", "--markdown", "--all-fast-variants", "--shapes"}, bench,
                       "--bench");
  parser.refuse_unless({"--exact-alloc"}, demo_unchecked, "--demo-unchecked");
  const std::vector<std::string> single_run{"--size", "--rows", "--inner", "--cols", "--approach"};
  parser.refuse_together("--bench", single_run,
                         "the benchmark runs every approach on its own shapes");
  parser.refuse_together("--demo-unchecked", single_run,
                         "the demonstration runs the note's 3x3 example");
  parser.refuse_together("--demo-unchecked", {"--repeats"}, "the demonstration runs once");
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
}

/// What one product allocates (with the padded copies for approach 2, the DEBUG check's
/// arrays when DEBUG is defined).
course::MemoryEstimate single_run_estimate(course::step4::Approach approach,
                                           const course::ProductSizes& sizes) {
  course::MemoryEstimate estimate =
      course::dense_product_estimate(sizes.rows, sizes.inner, sizes.cols, course::kDebugCheck);
  if (approach == course::step4::Approach::padded) {
    estimate.device("padded copies of A, B and C",
                    course::step4::PaddedWorkspace::padded_bytes(sizes));
  }
  return estimate;
}

/// What the benchmark allocates for the largest of @p shapes: A and B on the host, cuBLAS's
/// C and a kernel's C read back, and on the device A, B, C and the padded copies.
course::MemoryEstimate bench_estimate(const std::vector<course::ProductSizes>& shapes) {
  course::MemoryEstimate largest;
  for (const course::ProductSizes& sizes : shapes) {
    course::MemoryEstimate estimate =
        course::dense_product_estimate(sizes.rows, sizes.inner, sizes.cols, false);
    estimate.host("C of cuBLAS and of a kernel, read back",
                  course::array_bytes(sizes.rows, sizes.cols, 2 * sizeof(float)));
    estimate.device("padded copies of A, B and C",
                    course::step4::PaddedWorkspace::padded_bytes(sizes));
    if (estimate.total(course::MemorySide::host) > largest.total(course::MemorySide::host)) {
      largest = estimate;
    }
  }
  return largest;
}

int run(int argc, char** argv) {
  long long size = 1000;
  long long rows = 1000;
  long long inner = 777;
  long long cols = 1031;
  long long approach_number = APPROACH;
  long long repeats = 10;
  bool bench = false;
  bool all_fast_variants = false;
  bool demo_unchecked = false;
  bool exact_allocation = false;
  std::string csv_path;
  std::string markdown_path;
  std::string shapes_path;
  course::ArgParser parser(
      "step4_boundary_checks",
      "Tiled matrix product C = A.B for any shape (A is rows x inner, B is inner x cols). "
      "Approaches: "
      "1 tiled with boundary checks, 2 zero padding + unchecked kernel, 3 rectangular "
      "tiles, 4 fast register-tiled kernel. --bench compares them with cuBLAS; "
      "--demo-unchecked shows the bug on the note's 3x3 example.");
  parser.add_integer("--size", &size, 1, course::step4::kMaxDimension,
                     "rows = inner = cols (instead of --rows/--inner/--cols)");
  parser.add_integer("--rows", &rows, 1, course::step4::kMaxDimension, "rows of A and C");
  parser.add_integer("--inner", &inner, 1, course::step4::kMaxDimension, "columns of A, rows of B");
  parser.add_integer("--cols", &cols, 1, course::step4::kMaxDimension, "columns of B and C");
  parser.add_integer("--approach", &approach_number, 1, 4,
                     "1 checked, 2 padded, 3 rect tiles, 4 fast");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs (the median is reported)");
  parser.add_flag("--bench", &bench, "benchmark every approach against cuBLAS");
  parser.add_flag("--all-fast-variants", &all_fast_variants,
                  "with --bench: also time each tile shape of the fast kernel");
  parser.add_output_file("--csv", &csv_path, "with --bench: write the table as CSV here");
  parser.add_output_file("--markdown", &markdown_path,
                         "with --bench: write the Markdown table here");
  parser.add_input_file(
      "--shapes", &shapes_path,
      "with --bench: the shape benchmark (fast kernel vs cuBLAS) on the shapes of "
      "this file, one 'rows inner cols' a line");
  parser.add_flag("--demo-unchecked", &demo_unchecked,
                  "run the unchecked kernel on the note's 3x3 example (tile width 2)");
  parser.add_flag("--exact-alloc", &exact_allocation,
                  "with --demo-unchecked: no slack after the matrices (for compute-sanitizer)");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  check_modes(parser, bench, demo_unchecked);
  if (demo_unchecked) {
    return course::step4::run_unchecked_demo(exact_allocation);
  }
  if (bench) {
    course::step4::BenchOptions options;
    options.repeats = static_cast<int>(repeats);
    options.all_fast_variants = all_fast_variants;
    options.csv_path = csv_path;
    options.markdown_path = markdown_path;
    options.shapes_path = shapes_path;
    // The shapes file is read and every shape checked before the benchmark looks for a GPU.
    course::require_memory(
        bench_estimate(shapes_path.empty() ? course::step4::default_bench_shapes()
                                           : course::step4::read_shapes_file(shapes_path)),
        "leave the largest shapes out of --shapes");
    return shapes_path.empty() ? course::step4::run_benchmark(options)
                               : course::step4::run_shape_benchmark(options);
  }
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  course::ProductSizes sizes;
  try {
    sizes = course::step4::validate_shape(rows, inner, cols);
  } catch (const std::invalid_argument& error) {
    throw course::UsageError(error.what());
  }
  const course::step4::Approach approach = course::step4::approach_from_number(approach_number);
  course::require_memory(single_run_estimate(approach, sizes),
                         "use smaller --rows, --inner, --cols");
  return run_single(approach, sizes, static_cast<int>(repeats));
}

}  // namespace

/// @brief Entry point: parses the options and runs the chosen mode.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 on a wrong answer or error, 2 on a bad command line, 3 without GPU
int main(int argc, char** argv) {
  return course::run_program("step4_boundary_checks", [&] { return run(argc, argv); });
}
