/// @file step2_program.cpp
/// @brief Step 2's program: its command line, approaches and benchmark table.

#include "step2_three_approaches/step2_program.hpp"

#include "step2_three_approaches/step2_launchers.hpp"

namespace course::step2 {
namespace {

ApproachStep make_program() {
  ApproachStep step;
  step.program = "step2_three_approaches";
  step.label = "step 2";
  step.description =
      "Step 2: C = A·B (A is rows x inner, B is inner x cols) with one of three approaches: "
      "1 = a single block of 1024 threads looping over C, 2 = one thread per output element "
      "over many blocks, 3 = 32x32 output tiles per block without shared memory. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 1 (serial CPU, approaches 1-3 and cuBLAS at 2^10, 2^11, 2^12).";
  step.size_help = "square size: rows = inner = cols";
  step.max_approach = 3;
  step.approach_help = "approach to run (default: APPROACH in main.cu or STEP2_APPROACH)";
  // The approaches: step2_launchers.hpp.
  step.describe = approach_description;
  step.check_sizes = check_approach_sizes;
  step.launch = launch_approach;
  // The benchmark: the note's Table 1.
  step.table = "Table 1";
  step.bench_sizes_help = "square sizes of the benchmark (default 1024,2048,4096)";
  step.bench_times = "every approach";
  step.bench_title =
      "Table 1: execution times (ms) of the serial CPU product and approaches 1-3, with "
      "cuBLAS SGEMM (fp32, TF32 off) as reference";
  // Approach 1 is a single block: it gets fewer runs at large sizes.
  step.bench_rows = {{"approach 1", 1, true}, {"approach 2", 2, false}, {"approach 3", 3, false}};
  return step;
}

}  // namespace

const ApproachStep& program() {
  static const ApproachStep step = make_program();
  return step;
}

}  // namespace course::step2
