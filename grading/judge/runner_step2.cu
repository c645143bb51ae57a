/// @file runner_step2.cu
/// @brief Step 2's runner: launchers 1 to 3 are its approaches (step2_launchers.hpp).
#include "grading/judge/runner_steps.hpp"

#include "step2_three_approaches/step2_launchers.hpp"

#include <stdexcept>

namespace course::judge {

void run_gemm(const DeviceGemm& p) {
  const course::ProductSizes sizes{p.rows, p.inner, p.cols};
  switch (p.launcher) {
    case 1:
      course::step2::launch_single_block_loop(p.a, p.b, p.c, sizes, p.stream);
      return;
    case 2:
      course::step2::launch_one_thread_per_element(p.a, p.b, p.c, sizes, p.stream);
      return;
    case 3:
      course::step2::launch_output_tiles_no_shared(p.a, p.b, p.c, sizes, p.stream);
      return;
    default:
      throw std::invalid_argument("step 2 has launchers 1 to 3");
  }
}

void run_sddmm(const DeviceSddmm&) {
  throw std::invalid_argument("step 2 has no SDDMM");
}

}  // namespace course::judge
