/// @file main.cu
/// @brief step4_boundary_checks: tiled matrix products for every shape.
///
/// Modes: one product P = M·N of the given sizes with the chosen approach (default), the
/// benchmark table against cuBLAS (`--bench`), and the demonstration of the bug that the
/// boundary checks fix (`--demo-unchecked`). `#define DEBUG` (or COURSE_DEBUG=ON) checks
/// the product against the serial CPU one before device memory is freed; `#define APPROACH`
/// (or STEP4_APPROACH) picks the default approach: 1 checked tiling, 2 padding, 3
/// rectangular tiles, 4 the fast kernel.
#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"
#include "common/timed_product.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/step4_program.hpp"

#include <iostream>
#include <stdexcept>

#ifndef APPROACH
/// @brief Compile-time default approach (1 checked, 2 padded, 3 rect tiles, 4 fast).
#define APPROACH 1
#endif

namespace {

/// Runs one product with @p approach, timing it, and (with DEBUG) verifies it.
int run_single(step4::Approach approach, const step4::ProblemShape& shape, int repeats) {
  const course::DeviceInfo device = course::require_cuda_device();
  const std::uint64_t seed = course::fresh_seed();
  // M and N from the seed, uploaded; P poisoned so an element never written fails the check.
  course::ProductOperands operands(shape.rows, shape.inner, shape.cols, seed,
                                   course::InputKind::uniform, "P");
  const float* m_device = operands.device_a.data();
  const float* n_device = operands.device_b.data();
  float* p_device = operands.device_c.data();

  step4::PaddedWorkspace workspace;  // reused by the padded approach between the runs
  auto multiply = [&] {
    if (approach == step4::Approach::padded) {
      step4::matmul_padded(m_device, n_device, p_device, shape.rows, shape.inner, shape.cols,
                           workspace);
    } else {
      step4::run_approach(approach, m_device, n_device, p_device, shape.rows, shape.inner,
                          shape.cols);
    }
  };
  const course::TimingStats timing = course::time_gpu(multiply, 1, repeats);
  std::cout << "step 4, approach " << static_cast<int>(approach) << " ("
            << step4::approach_name(approach) << ") on " << device.name << "\n"
            << "P = M.N with M " << shape.rows << "x" << shape.inner << ", N " << shape.inner << "x"
            << shape.cols << " (seed " << seed << ")\n"
            << "median " << timing.median_ms << " ms over " << timing.repeats << " runs, "
            << shape.flops() / (timing.median_ms * 1e9) << " TFLOP/s\n";
  if (approach == step4::Approach::fast) {
    std::cout << "fast kernel configuration: "
              << step4::fast_config_name(
                     step4::chosen_fast_config(shape.rows, shape.inner, shape.cols))
              << "\n";
  }
  const course::HostMatrix<float> p_host = operands.device_c.to_host();
  (void)p_host;
#ifdef DEBUG
  if (!course::debug_verify(operands.a, operands.b, p_host, std::cout)) {
    return 1;
  }
#endif
  return 0;
}

int run(int argc, char** argv) {
  long long size = 0;
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
      "Tiled matrix product P = M.N for any shape (M is IxJ, N is JxK). Approaches: "
      "1 tiled with boundary checks, 2 zero padding + unchecked kernel, 3 rectangular "
      "tiles, 4 fast register-tiled kernel. --bench compares them with cuBLAS; "
      "--demo-unchecked shows the bug on the note's 3x3 example.");
  parser.add_integer("--size", &size, 0, step4::kMaxDimension,
                     "I = J = K (0: use --rows/--inner/--cols)");
  parser.add_integer("--rows", &rows, 1, step4::kMaxDimension, "I, rows of M and P");
  parser.add_integer("--inner", &inner, 1, step4::kMaxDimension, "J, columns of M, rows of N");
  parser.add_integer("--cols", &cols, 1, step4::kMaxDimension, "K, columns of N and P");
  parser.add_integer("--approach", &approach_number, 1, 4,
                     "1 checked, 2 padded, 3 rect tiles, 4 fast");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs (the median is reported)");
  parser.add_flag("--bench", &bench, "benchmark every approach against cuBLAS");
  parser.add_flag("--all-fast-variants", &all_fast_variants,
                  "with --bench: also time each tile shape of the fast kernel");
  parser.add_text("--csv", &csv_path, "with --bench: write the table as CSV here");
  parser.add_text("--markdown", &markdown_path, "with --bench: write the Markdown table here");
  parser.add_text("--shapes", &shapes_path,
                  "with --bench: the shape benchmark (fast kernel vs cuBLAS) on the shapes of "
                  "this file, one 'rows inner cols' a line");
  parser.add_flag("--demo-unchecked", &demo_unchecked,
                  "run the unchecked kernel on the note's 3x3 example (tile width 2)");
  parser.add_flag("--exact-alloc", &exact_allocation,
                  "with --demo-unchecked: no slack after the matrices (for compute-sanitizer)");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  if (demo_unchecked) {
    return step4::run_unchecked_demo(exact_allocation);
  }
  if (bench) {
    step4::BenchOptions options;
    options.repeats = static_cast<int>(repeats);
    options.all_fast_variants = all_fast_variants;
    options.csv_path = csv_path;
    options.markdown_path = markdown_path;
    options.shapes_path = shapes_path;
    return shapes_path.empty() ? step4::run_benchmark(options)
                               : step4::run_shape_benchmark(options);
  }
  if (size > 0) {
    rows = inner = cols = size;
  }
  step4::ProblemShape shape;
  try {
    shape = step4::validate_shape(rows, inner, cols);
  } catch (const std::invalid_argument& error) {
    throw course::UsageError(error.what());
  }
  return run_single(step4::approach_from_number(approach_number), shape, static_cast<int>(repeats));
}

}  // namespace

/// @brief Entry point: parses the options and runs the chosen mode.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 on a wrong answer or error, 2 on a bad command line, 3 without GPU
int main(int argc, char** argv) {
  return course::run_program("step4_boundary_checks", [&] { return run(argc, argv); });
}
