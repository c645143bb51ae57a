/// @file step2_program.cpp
/// @brief Step 2's program: its texts, approaches and benchmark table.

#include "step2_three_approaches/step2_program.hpp"

#include "step2_three_approaches/step2_launchers.hpp"

namespace course::step2 {
namespace {

/// Approach @p number with its launcher: its precondition is check_approach_sizes, its line
/// in the report approach_description.
DenseApproach registered(int number, const std::string& name, const ApproachRun& launch) {
  DenseApproach entry = plain_approach(
      name, [number](const ProductSizes& sizes) { check_approach_sizes(number, sizes); }, launch);
  entry.describe_run = [number](const ProductSizes&) { return approach_description(number); };
  return entry;
}

}  // namespace

std::vector<DenseApproach> approaches() {
  return {
      registered(1, "single block loop",
                 [](const float* a, const float* b, float* c, const ProductSizes& sizes,
                    cudaStream_t stream) { launch_single_block_loop(a, b, c, sizes, stream); }),
      registered(
          2, "one thread per element",
          [](const float* a, const float* b, float* c, const ProductSizes& sizes,
             cudaStream_t stream) { launch_one_thread_per_element(a, b, c, sizes, stream); }),
      registered(
          3, "output tiles, no shared memory",
          [](const float* a, const float* b, float* c, const ProductSizes& sizes,
             cudaStream_t stream) { launch_output_tiles_no_shared(a, b, c, sizes, stream); }),
  };
}

DenseStep program_step() {
  DenseStep step;
  step.program = "step2_three_approaches";
  step.label = "step 2";
  step.description =
      "Step 2: C = A·B (A is rows x inner, B is inner x cols) with one of three approaches: "
      "1 = a single block of 1024 threads looping over C, 2 = one thread per output element "
      "over many blocks, 3 = 32x32 output tiles per block without shared memory. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 1 (serial CPU, approaches 1-3 and cuBLAS at 2^10, 2^11, 2^12).";
  step.approach_note = "or the CMake option STEP2_APPROACH";
  step.approaches = approaches();
  // The benchmark: the note's Table 1. Approach 1 is a single block: fewer runs at large sizes.
  SquareBench bench;
  bench.table = "Table 1";
  bench.sizes_help = "square sizes of the benchmark (default 1024,2048,4096)";
  bench.times = "every approach";
  bench.title =
      "Table 1: execution times (ms) of the serial CPU product and approaches 1-3, with "
      "cuBLAS SGEMM (fp32, TF32 off) as reference";
  bench.rows = {{"approach 1", 1, true}, {"approach 2", 2, false}, {"approach 3", 3, false}};
  step.bench = bench;
  return step;
}

}  // namespace course::step2
