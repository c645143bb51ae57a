/// @file fast_approach.cpp
/// @brief The fast kernel as approach 4 of the step program (see fast_approach.hpp).
#include "step4_boundary_checks/going_further/fast_approach.hpp"

#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"

namespace course::step4 {

DenseApproach fast_approach() {
  DenseApproach entry;
  entry.name = "fast (register tiled)";
  entry.check_sizes = validate_fast_shape;
  entry.make_run = [] {
    return ApproachRun([](const float* a, const float* b, float* c, const ProductSizes& sizes,
                          cudaStream_t stream) { launch_fast(a, b, c, sizes, stream); });
  };
  entry.describe_run = [](const ProductSizes& sizes) {
    return "fast kernel configuration: " + fast_config_name(chosen_fast_config(sizes));
  };
  return entry;
}

std::vector<DenseApproach> approaches_with_fast() {
  std::vector<DenseApproach> approaches = lesson_approaches();
  approaches.push_back(fast_approach());
  return approaches;
}

DenseStep fast_step() {
  DenseStep step = lesson_step();
  step.program = "step4_fast_gemm";
  step.approach_note = "or the CMake option STEP4_FAST_APPROACH";
  step.description =
      "Step 4, going further: C = A.B for any shape (A is rows x inner, B is inner x cols) "
      "with the lesson's approaches 1 to 3 and approach 4, the fast kernel (register tiles, "
      "float4 loads, double buffering, split-K, thin paths), whose tile and split are chosen "
      "for the shape and the GPU and printed. --demo-unchecked shows the bug the checks fix.";
  step.approaches = approaches_with_fast();
  return step;
}

}  // namespace course::step4
