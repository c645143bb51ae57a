/// @file step2_program.hpp
/// @brief Step 2's program as the one runner runs it (common/dense_program.hpp): its texts,
/// its three approaches and the note's Table 1.
///
/// Kept out of main.cu so that the tests can parse command lines and run the benchmark
/// without the program, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/dense_program.hpp"

#include <vector>

namespace course::step2 {

/// @brief Step 2's three approaches, registered for the runner: approach 1 the single block
/// looping over C, 2 one thread per element, 3 output tiles without shared memory (step 3
/// lists them again, before its own).
/// @return the approaches, approach 1 first
std::vector<DenseApproach> approaches();

/// @brief Step 2's program: the command line (approaches 1 to 3), the size limits and
/// launchers of the approaches, and the note's Table 1 (serial CPU, approaches 1 to 3 and
/// cuBLAS at the benchmark sizes).
/// @return the step, for course::DenseProgram
DenseStep program_step();

}  // namespace course::step2
