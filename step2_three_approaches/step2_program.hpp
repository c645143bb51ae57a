/// @file step2_program.hpp
/// @brief Step 2's program, apart from main(): what makes the program with approaches
/// (course::run_approach_program) step 2's: its texts, its three approaches and Table 1.
///
/// Kept out of main.cu so that the tests can parse command lines and run the benchmark
/// without the program, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/approach_program.hpp"

namespace course::step2 {

/// @brief What step 2's command line asks for (the options of every program with
/// approaches; --approach is 1 to 3).
using Options = ApproachOptions;

/// @brief Step 2's program: the command line (approaches 1 to 3), the report of a single
/// run, the size limits and launchers of the approaches, and the note's Table 1 (serial CPU,
/// approaches 1 to 3 and cuBLAS at the benchmark sizes).
/// @return the description, built once
const ApproachStep& program();

}  // namespace course::step2
