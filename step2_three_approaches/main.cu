/// @file step2_three_approaches/main.cu
/// @brief Step 2's program: three approaches to a matrix product of any size, and the
/// benchmark of the note's Table 1 (`--bench`).
///
/// The note's switches: `#define APPROACH x` picks the approach that runs (1, 2 or 3;
/// `--approach` overrides it, and the CMake option STEP2_APPROACH sets it), and `#define
/// DEBUG` checks the result against the serial CPU product (the build defines it when
/// COURSE_DEBUG=ON, the default; define it here when that option is OFF).

// #define DEBUG

#ifndef APPROACH
#define APPROACH 3  ///< the approach this program runs unless --approach says otherwise
#endif
static_assert(APPROACH >= 1 && APPROACH <= 3, "step 2 has approaches 1, 2 and 3");

#include "common/debug_switch.hpp"
#include "common/dense_program.hpp"
#include "step2_three_approaches/step2_program.hpp"

/// @brief Runs step 2's program (course::run_step_program) with this file's switches.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  course::DenseProgram program(course::step2::program_step());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
