/// @file step1_program.hpp
/// @brief Step 1's program as the one runner runs it (common/dense_program.hpp): its texts,
/// its sizes (at most 32) and its single approach, the naive one-block kernel.
///
/// Kept out of main.cu so that the tests can parse command lines without a GPU, and so that
/// main.cu holds only the note's `#define` switches.
#pragma once

#include "common/dense_program.hpp"

namespace course::step1 {

/// @brief Step 1's program: sizes up to 32 (a larger one is refused with the one-block
/// limit's explanation), approach 1 the naive kernel.
/// @return the step, for course::DenseProgram
DenseStep program_step();

}  // namespace course::step1
