/// @file step3_program.hpp
/// @brief Step 3's program as the one runner runs it (common/dense_program.hpp): approach 4
/// (shared-memory tiles) after step 2's three, and the note's Table 2.
///
/// Kept out of main.cu so that the tests can parse command lines and run the benchmark
/// without the program, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/dense_program.hpp"

namespace course::step3 {

/// @brief Step 3's program: the command line (approach 4, or step 2's 1 to 3 for
/// comparison; sizes and benchmark sizes that are multiples of 32 for approach 4), and the
/// note's Table 2 (approach 4 with the serial CPU product, step 2's approaches 2 and 3, and
/// cuBLAS at the benchmark sizes).
/// @return the step, for course::DenseProgram
DenseStep program_step();

}  // namespace course::step3
