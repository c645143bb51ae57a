/// @file runner_step3.cu
/// @brief Step 3's runner: launcher 0 is launch_tiled_shared (step3_launchers.hpp).
#include "grading/judge/runner_steps.hpp"

#include "step3_shared_tiling/step3_launchers.hpp"

#include <stdexcept>

namespace course::judge {

void run_gemm(const DeviceGemm& p) {
  if (p.launcher != 0) {
    throw std::invalid_argument("step 3 has launcher 0 only");
  }
  course::step3::launch_tiled_shared(p.a, p.b, p.c, {p.rows, p.inner, p.cols}, p.stream);
}

void run_sddmm(const DeviceSddmm&) {
  throw std::invalid_argument("step 3 has no SDDMM");
}

}  // namespace course::judge
