/// @file step1_program.cpp
/// @brief Step 1's program: its texts, sizes and approach.

#include "step1_naive/step1_program.hpp"

#include "step1_naive/step1_launchers.hpp"

#include <string>

namespace course::step1 {

DenseStep program_step() {
  DenseStep step;
  step.program = "step1_naive";
  step.label = "step 1";
  step.description =
      "Step 1: C = A·B for matrices of at most 32x32 with one block and one thread per output "
      "element (A is rows x inner, B is inner x cols). Built with DEBUG, the result is checked "
      "against the serial CPU product.";
  step.sizes.defaults = {32, 32, 32};
  // Sizes are parsed with a wide range so that a size over 32 reaches the one-block check,
  // whose message says why 32 is the limit.
  step.sizes.max = 1000000;
  step.sizes.size_help = "square size: rows = inner = cols (at most 32)";
  DenseApproach naive = plain_approach(
      "naive, one block", check_naive_single_block_sizes,
      [](const float* a, const float* b, float* c, const ProductSizes& sizes, cudaStream_t stream) {
        launch_naive_single_block(a, b, c, sizes, stream);
      });
  naive.describe_run = [](const ProductSizes& sizes) {
    return "one block of " + std::to_string(sizes.rows * sizes.cols) + " threads";
  };
  step.approaches = {naive};
  return step;
}

}  // namespace course::step1
