/// @file step3_shared_tiling/main.cu
/// @brief Step 3's program: the shared-memory tiled product (approach 4), and the
/// benchmark of the note's Table 2 (`--bench`).
///
/// The note's switches: `#define APPROACH x` picks the approach that runs (4, or step 2's 1
/// to 3 for comparison; `--approach` overrides it, and the CMake option STEP3_APPROACH sets
/// it), and `#define DEBUG` checks the result against the serial CPU product (the build
/// defines it when COURSE_DEBUG=ON, the default; define it here when that option is OFF).

// #define DEBUG

#ifndef APPROACH
#define APPROACH 4  ///< the approach this program runs unless --approach says otherwise
#endif
static_assert(APPROACH >= 1 && APPROACH <= 4, "step 3 runs approach 4, or step 2's 1 to 3");

#include "common/debug_switch.hpp"
#include "common/dense_program.hpp"
#include "step3_shared_tiling/step3_program.hpp"

/// @brief Runs step 3's program (course::run_step_program) with this file's switches.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  course::DenseProgram program(course::step3::program_step());
  return course::run_step_program(program, argc, argv, APPROACH, course::kDebugCheck);
}
