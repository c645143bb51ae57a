/// @file step5_tensor_core_sddmm/main.cu
/// @brief Step 5 program: one SDDMM C = S ∘ (A·B) with the lesson's approach 1, 2 or 3.
///
/// It prints the kernel time and "other" (S's upload and preprocessing) of the first call and
/// of the steady state. Approach 4 has its own program, going_further/main.cu.
///
/// `#define APPROACH x` (or CMake's STEP5_APPROACH, or `--approach x`) picks the approach;
/// with `#define DEBUG` (CMake's COURSE_DEBUG) the result is checked against the CPU
/// reference SDDMM in double before device memory is freed, and a mismatch prints
/// `wrong answer` and exits with status 1.

// #define DEBUG

#ifndef APPROACH
/// @brief The approach this program runs by default (1 to 3; see the options).
#define APPROACH 3
#endif
static_assert(APPROACH >= 1 && APPROACH <= 3,
              "the lesson's program runs approaches 1 to 3; approach 4 is going_further/main.cu's");

#include "common/debug_switch.hpp"
#include "step5_tensor_core_sddmm/step5_program.hpp"

/// @brief Runs one SDDMM with the chosen approach (and the DEBUG check).
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  course::step5::Step5Program program("step5_tensor_core_sddmm",
                                      course::step5::lesson_approaches());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
