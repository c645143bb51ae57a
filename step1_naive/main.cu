/// @file step1_naive/main.cu
/// @brief Step 1's program: the naive one-block product of matrices of at most 32×32.
///
/// The note's switches: `#define DEBUG` checks the result against the serial CPU product
/// (the build defines it when COURSE_DEBUG=ON, the default; define it here when that option
/// is OFF). Step 1 has a single approach, so APPROACH can only be 1.

// #define DEBUG

#ifndef APPROACH
#define APPROACH 1  ///< the approach this program runs; step 1 has only the naive one
#endif
static_assert(APPROACH == 1, "step 1 has a single approach (APPROACH 1)");

#include "common/debug_switch.hpp"
#include "common/dense_program.hpp"
#include "step1_naive/step1_program.hpp"

/// @brief Runs step 1's program (course::run_step_program) with this file's switches.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  course::DenseProgram program(course::step1::program_step());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
