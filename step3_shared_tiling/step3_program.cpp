/// @file step3_program.cpp
/// @brief Step 3's program: its texts, approaches and benchmark table.

#include "step3_shared_tiling/step3_program.hpp"

#include "step2_three_approaches/step2_program.hpp"
#include "step3_shared_tiling/step3_launchers.hpp"

#include <stdexcept>
#include <string>

namespace course::step3 {
namespace {

// Approach 4 checks no boundary, so every benchmark size must be a multiple of the tile.
void check_bench_size(int size) {
  if (size % kTileWidth != 0) {
    throw std::invalid_argument("--bench-sizes must be multiples of " + std::to_string(kTileWidth) +
                                " (approach 4 checks no boundary), got " + std::to_string(size) +
                                "; step 4 handles any size");
  }
}

/// Approach 4: its precondition is check_tiled_shared_sizes (multiples of the tile).
DenseApproach tiled_shared_approach() {
  DenseApproach entry =
      plain_approach("shared-memory tiles", check_tiled_shared_sizes,
                     [](const float* a, const float* b, float* c, const ProductSizes& sizes,
                        cudaStream_t stream) { launch_tiled_shared(a, b, c, sizes, stream); });
  entry.describe_run = [](const ProductSizes&) {
    return "approach 4: " + std::to_string(kTileWidth) + "x" + std::to_string(kTileWidth) +
           " tiles of A and B staged in shared memory";
  };
  return entry;
}

}  // namespace

DenseStep program_step() {
  DenseStep step;
  step.program = "step3_shared_tiling";
  step.label = "step 3";
  step.description =
      "Step 3: C = A·B (A is rows x inner, B is inner x cols) with approach 4, 32x32 tiles of "
      "A and B staged in shared memory. Its sizes must be multiples of 32 (step 4 handles "
      "any size). Approaches 1 to 3 of step 2 are available for comparison. Built with "
      "DEBUG, the result is checked against the serial CPU product. --bench reproduces the "
      "note's Table 2 (approach 4, with the serial CPU product, approaches 2 and 3, and "
      "cuBLAS at 2^10, 2^11, 2^12).";
  step.sizes.size_help = "square size: rows = inner = cols (a multiple of 32 for approach 4)";
  step.approach_note = "1 to 3 are step 2's, for comparison; or the CMake option STEP3_APPROACH";
  // The approaches: step 2's three for comparison, then 4.
  step.approaches = step2::approaches();
  step.approaches.push_back(tiled_shared_approach());
  // The benchmark: the note's Table 2, at sizes approach 4 can run.
  SquareBench bench;
  bench.table = "Table 2";
  bench.sizes_help = "square sizes of the benchmark, multiples of 32 (default 1024,2048,4096)";
  bench.check_size = check_bench_size;
  bench.times = "approaches 2 to 4";
  bench.title =
      "Table 2: execution times (ms) of approach 4 (shared-memory tiling), with the serial "
      "CPU product, step 2's approaches 2 and 3 for comparison, and cuBLAS SGEMM (fp32, TF32 "
      "off) as reference";
  bench.rows = {{"approach 2 (step 2)", 2, false},
                {"approach 3 (step 2)", 3, false},
                {"approach 4 (shared-memory tiling)", 4, false}};
  step.bench = bench;
  return step;
}

}  // namespace course::step3
