/// @file runner_step1.cu
/// @brief Step 1's runner: launcher 0 is launch_naive_single_block (step1_launchers.hpp).
#include "grading/judge/runner_steps.hpp"

#include "step1_naive/step1_launchers.hpp"

#include <stdexcept>

namespace course::judge {

void run_gemm(const DeviceGemm& p) {
  if (p.launcher != 0) {
    throw std::invalid_argument("step 1 has launcher 0 only");
  }
  course::step1::launch_naive_single_block(p.a, p.b, p.c, {p.rows, p.inner, p.cols}, p.stream);
}

void run_sddmm(const DeviceSddmm&) {
  throw std::invalid_argument("step 1 has no SDDMM");
}

}  // namespace course::judge
