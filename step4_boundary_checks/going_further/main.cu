/// @file step4_boundary_checks/going_further/main.cu
/// @brief step4_fast_gemm: the step-4 program with the fast kernel as approach 4, next to the
/// lesson's approaches 1 to 3 (the body is the lesson's, step4_program.hpp).
///
/// The note's switches, as in the lesson's main.cu: `#define APPROACH x` picks the approach (4
/// by default here; `--approach` overrides it, the CMake option STEP4_FAST_APPROACH sets it) and
/// `#define DEBUG` checks the product against the serial CPU one before device memory is freed
/// (defined by the build when COURSE_DEBUG=ON, the default).

// #define DEBUG

#ifndef APPROACH
#define APPROACH 4  ///< the approach this program runs unless --approach says otherwise
#endif
static_assert(APPROACH >= 1 && APPROACH <= 4, "step 4 going further has approaches 1 to 4");

#include "common/debug_switch.hpp"
#include "step4_boundary_checks/going_further/fast_approach.hpp"

/// @brief Runs the step-4 program with approaches 1 to 4 and this file's switches.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  course::step4::Step4Program program(course::step4::fast_step());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
