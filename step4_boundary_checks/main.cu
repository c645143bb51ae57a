/// @file step4_boundary_checks/main.cu
/// @brief step4_boundary_checks: the tiled matrix product for every shape, with approaches 1 to 3
/// of the lesson, and the demonstration of the bug the boundary checks fix (`--demo-unchecked`).
///
/// The note's switches: `#define APPROACH x` picks the approach that runs (1 tiled with the three
/// checks, 2 padding, 3 rectangular tiles; `--approach` overrides it, and the CMake option
/// STEP4_APPROACH sets it), and `#define DEBUG` checks the product against the serial CPU one
/// before device memory is freed (the build defines it when COURSE_DEBUG=ON, the default; define
/// it here when that option is OFF). The fast kernel is approach 4 of going further's program
/// (going_further/main.cu); the benchmarks are the lab's programs (the step's README lists them).

// #define DEBUG

#ifndef APPROACH
#define APPROACH 1  ///< the approach this program runs unless --approach says otherwise
#endif
static_assert(APPROACH >= 1 && APPROACH <= 3,
              "step 4's lesson has approaches 1 to 3 (the fast kernel, approach 4, is in "
              "going_further/main.cu)");

#include "common/debug_switch.hpp"
#include "step4_boundary_checks/step4_program.hpp"

/// @brief Runs step 4's program (course::run_step_program) with this file's switches.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  course::step4::Step4Program program(course::step4::lesson_step());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
