/// @file step3_program.cpp
/// @brief Step 3's program: its command line, approaches and benchmark table.

#include "step3_shared_tiling/step3_program.hpp"

#include "step2_three_approaches/step2_launchers.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"

#include <stdexcept>
#include <string>

namespace course::step3 {
namespace {

// Approach 4 needs multiples of the tile width; step 2's approaches have their own limits.
void check_sizes(int number, const ProductSizes& sizes) {
  if (number == 4) {
    check_tiled_shared_sizes(sizes);
  } else {
    step2::check_approach_sizes(number, sizes);
  }
}

// Approach 4 checks no boundary, so every benchmark size must be a multiple of the tile.
void check_bench_size(int size) {
  if (size % kTileWidth != 0) {
    throw std::invalid_argument("--bench-sizes must be multiples of " + std::to_string(kTileWidth) +
                                " (approach 4 checks no boundary), got " + std::to_string(size) +
                                "; step 4 handles any size");
  }
}

std::string approach_description(int number) {
  if (number == 4) {
    return "approach 4: " + std::to_string(kTileWidth) + "x" + std::to_string(kTileWidth) +
           " tiles of A and B staged in shared memory";
  }
  return step2::approach_description(number) + " (from step 2)";
}

ApproachStep make_program() {
  ApproachStep step;
  step.program = "step3_shared_tiling";
  step.label = "step 3";
  step.description =
      "Step 3: C = A·B (A is rows x inner, B is inner x cols) with approach 4, 32x32 tiles of "
      "A and B staged in shared memory. Its sizes must be multiples of 32 (step 4 handles "
      "any size). Approaches 1 to 3 of step 2 are available for comparison. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 2 (approach 4, with the serial CPU product, approaches 2 and 3, and "
      "cuBLAS at 2^10, 2^11, 2^12).";
  step.size_help = "square size: rows = inner = cols (a multiple of 32 for approach 4)";
  step.max_approach = 4;
  step.approach_help =
      "approach to run: 4, or step 2's 1 to 3 (default: APPROACH in main.cu or "
      "STEP3_APPROACH)";
  // The approaches: 4 and, for comparison, step 2's.
  step.describe = approach_description;
  step.check_sizes = check_sizes;
  step.launch = launch_approach;
  // The benchmark: the note's Table 2, at sizes approach 4 can run.
  step.table = "Table 2";
  step.bench_sizes_help = "square sizes of the benchmark, multiples of 32 (default 1024,2048,4096)";
  step.check_bench_size = check_bench_size;
  step.bench_times = "approaches 2 to 4";
  step.bench_title =
      "Table 2: execution times (ms) of approach 4 (shared-memory tiling), with the serial "
      "CPU product, step 2's approaches 2 and 3 for comparison, and cuBLAS SGEMM (fp32, TF32 "
      "off) as reference";
  step.bench_rows = {{"approach 2 (step 2)", 2, false},
                     {"approach 3 (step 2)", 3, false},
                     {"approach 4 (shared-memory tiling)", 4, false}};
  return step;
}

}  // namespace

void launch_approach(int number, const float* a, const float* b, float* c,
                     const ProductSizes& sizes, cudaStream_t stream) {
  if (number == 4) {
    launch_tiled_shared(a, b, c, sizes, stream);
  } else {
    step2::launch_approach(number, a, b, c, sizes, stream);
  }
}

const ApproachStep& program() {
  static const ApproachStep step = make_program();
  return step;
}

}  // namespace course::step3
