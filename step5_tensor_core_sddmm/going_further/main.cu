/// @file step5_tensor_core_sddmm/going_further/main.cu
/// @brief Program step5_going_further: one SDDMM C = S ∘ (A·B) with approach 1, 2, 3 or 4.
///
/// Step 5, going further (going further): the step program with approach 4 beside 1 to 3.
/// Read first: ../step5_program.hpp (the program's body), hybrid_plan.hpp (approach 4).
///
/// The same program as the lesson's (../main.cu: a Step5Program run by course::run_step_program),
/// with approach 4, the hybrid, added to its list and run by default; each approach uploads S
/// with its own upload (ApproachEntry::upload: approach 4's counts its panels on the way), as
/// the lesson's program and the benchmark do. `#define APPROACH x` (or CMake's STEP5_APPROACH,
/// or `--approach x`) picks the approach; with `#define DEBUG` (CMake's
/// COURSE_DEBUG) the result is checked against the CPU reference SDDMM in double, and a
/// mismatch prints `wrong answer` and exits with status 1.

// #define DEBUG

#ifndef APPROACH
/// @brief The approach this program runs by default (1 to 4; see the options).
#define APPROACH 4
#endif
static_assert(APPROACH >= 1 && APPROACH <= 4, "step5_going_further runs approaches 1 to 4");

#include "common/debug_switch.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/step5_program.hpp"

#include <vector>

/// @brief Runs one SDDMM with the chosen approach (and the DEBUG check).
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  std::vector<course::step5::ApproachEntry> approaches = course::step5::lesson_approaches();
  approaches.push_back(course::step5::hybrid_approach());
  course::step5::Step5Program program("step5_going_further", approaches);
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
