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

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/memory_estimate.hpp"
#include "step3_shared_tiling/step3_program.hpp"

#include <iostream>

#ifdef DEBUG
constexpr bool kVerify = true;  ///< DEBUG: check the product against the serial CPU one
#else
constexpr bool kVerify = false;  ///< DEBUG is off: no check
#endif

/// @brief Parses the options (refusing bad ones before looking for a GPU), then runs one
/// product or the benchmark.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  return course::run_program("step3_shared_tiling", [&] {
    course::step3::Options options;
    if (!course::step3::parse_options(argc, argv, APPROACH, options)) {
      return 0;  // --help
    }
    course::require_memory(course::step2::memory_estimate(options, kVerify), "use smaller sizes");
    course::require_cuda_device();
    if (options.bench) {
      return course::step3::run_benchmark(options, std::cout, std::cerr);
    }
    return course::step3::run(options, kVerify, std::cout);
  });
}
