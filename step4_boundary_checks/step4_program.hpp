/// @file step4_program.hpp
/// @brief The modes of the step4_boundary_checks program besides a single product: the
/// benchmark table and the demonstration of the unchecked kernel's bug.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <string>
#include <vector>

namespace course::step4 {

/// @brief Settings of the benchmark (`--bench`).
struct BenchOptions {
  std::vector<ProductSizes> shapes;  ///< shapes to measure (empty: default_bench_shapes())
  int repeats = 10;                  ///< timed runs per kernel (the median is reported)
  bool all_fast_variants = false;    ///< also time every tile shape of the fast kernel
  std::string csv_path;              ///< write the table as CSV here (empty: do not)
  std::string markdown_path;         ///< write the header and table as Markdown here
  std::string shapes_path;           ///< the shape benchmark's list (`--shapes FILE`)
};

/// @brief The benchmark's default shapes: square 1024, 2048, 4096 and the ragged
/// 4095×1023×4097, 3000×256×7000, 1000×1000×1 (a matrix-vector product) and 1000×1×1000
/// (an outer product).
std::vector<ProductSizes> default_bench_shapes();

/// @brief Times every approach and cuBLAS SGEMM (fp32, TF32 off) on each shape, checks
/// each result against cuBLAS's with a relative tolerance, prints the Markdown table.
/// @param options what to measure and where to write it
/// @return 0, or 1 when some kernel disagreed with cuBLAS (its row says WRONG)
int run_benchmark(const BenchOptions& options);

/// @brief The shape benchmark: for each shape of options.shapes_path, the fast kernel with its
/// chosen configuration, the choice before split-K and cuBLAS SGEMM, each checked against
/// cuBLAS; prints the table, the minimum and geometric mean of the fractions, writes CSV and
/// Markdown where asked. With options.all_fast_variants, also the best configuration measured.
/// @param options what to measure and where to write it
/// @return 0, or 1 when some configuration disagreed with cuBLAS
int run_shape_benchmark(const BenchOptions& options);

/// @brief The note's 3×3 example with tile width 2: runs the checked kernel and the
/// unchecked one, prints both next to the CPU product, and explains the differences.
/// @param exact_allocation allocate exactly 9 floats per matrix (for compute-sanitizer,
/// which then reports the out-of-bounds accesses); otherwise the allocations get a slack
/// area filled with 100.0 ("someone else's data") so the wrong values are repeatable
/// @return 0 when the checked kernel is right (the unchecked one is expected to be wrong)
int run_unchecked_demo(bool exact_allocation);

}  // namespace course::step4
