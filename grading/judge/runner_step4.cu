/// @file runner_step4.cu
/// @brief Step 4's runner: launcher 1 is launch_tiled_checked (variant: the tile width),
/// launcher 3 launch_rect_tiles (step4_launchers.hpp).
#include "grading/judge/runner_steps.hpp"

#include "step4_boundary_checks/step4_launchers.hpp"

#include <stdexcept>

namespace course::judge {

void run_gemm(const DeviceGemm& p) {
  const course::ProductSizes sizes{p.rows, p.inner, p.cols};
  if (p.launcher == 1) {
    course::step4::launch_tiled_checked(p.a, p.b, p.c, sizes, p.stream, p.variant);
  } else if (p.launcher == 3) {
    course::step4::launch_rect_tiles(p.a, p.b, p.c, sizes, p.stream);
  } else {
    throw std::invalid_argument("step 4 has launchers 1 (checked tiles) and 3 (rectangular)");
  }
}

void run_sddmm(const DeviceSddmm&) {
  throw std::invalid_argument("step 4 has no SDDMM");
}

}  // namespace course::judge
