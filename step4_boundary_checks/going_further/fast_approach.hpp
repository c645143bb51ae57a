/// @file fast_approach.hpp
/// @brief The fast kernel as approach 4 of the step program, next to the lesson's 1 to 3: what
/// going further's program (main.cu here) and the lab's benchmarks run. Read fast_gemm_launch.hpp
/// first.
#pragma once

#include "step4_boundary_checks/step4_program.hpp"

#include <vector>

namespace course::step4 {

/// @brief Approach 4: launch_fast with the configuration chosen for the shape and the device
/// (its run prints that configuration first, e.g. "fast kernel configuration: 128x128x8,
/// split 66").
/// @return the approach
DenseApproach fast_approach();

/// @brief The lesson's approaches 1 to 3 followed by fast_approach().
/// @return the four approaches, in order
std::vector<DenseApproach> approaches_with_fast();

/// @brief Going further's program: approaches_with_fast() and its texts (run as a
/// Step4Program).
/// @return the step
DenseStep fast_step();

}  // namespace course::step4
