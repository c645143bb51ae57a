/// @file shuffle_mask.cu
/// @brief Kernels of the shuffle lesson (see shuffle_mask.hpp).
///
/// Step 5, experiment "The shuffle mask" (the lesson): the kernels.
/// Read first: shuffle_mask.hpp.
#include "step5_tensor_core_sddmm/lab/experiments/shuffle_mask.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/warp_lanes.cuh"

#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

/// Correct: the mask is computed while all 32 lanes are present, then names only the lanes
/// that stay. shfl_down reads lane + offset, which may be a lane that left: its value is
/// undefined, so the guard ignores it.
__global__ void ballot_mask_kernel(int active_lanes, int* result) {
  const int lane = static_cast<int>(threadIdx.x);
  int value = lane + 1;
  const unsigned mask = __ballot_sync(kAllLanes, lane < active_lanes);  // all 32 lanes vote
  if (lane >= active_lanes) {
    return;  // these lanes leave before the reduction
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    const int other = __shfl_down_sync(mask, value, offset);
    if (lane + offset < active_lanes) {  // the source lane took part
      value += other;
    }
  }
  if (lane == 0) {
    *result = value;
  }
}

/// Correct: every lane stays to the end; lanes without work contribute zero, so the full
/// mask names exactly the lanes that execute the shuffles (what the SDDMM kernels do).
__global__ void all_lanes_stay_kernel(int active_lanes, int* result) {
  const int lane = static_cast<int>(threadIdx.x);
  int value = lane < active_lanes ? lane + 1 : 0;
  for (int offset = 16; offset > 0; offset >>= 1) {
    value += __shfl_xor_sync(kAllLanes, value, offset);
  }
  if (lane == 0) {
    *result = value;
  }
}

/// Undefined: lanes leave, yet the mask still names all 32 (the course's reading of the note:
/// its full mask after some lanes had left).
__global__ void full_mask_after_exit_kernel(int active_lanes, int* result) {
  const int lane = static_cast<int>(threadIdx.x);
  int value = lane + 1;
  if (lane >= active_lanes) {
    return;  // these lanes leave, but the mask below still names them: undefined
  }
  for (int offset = 16; offset > 0; offset >>= 1) {
    value += __shfl_xor_sync(kAllLanes, value, offset);
  }
  if (lane == 0) {
    *result = value;
  }
}

}  // namespace

int partial_warp_sum(int active_lanes, ShuffleMode mode) {
  if (active_lanes < 1 || active_lanes > 32) {
    throw std::invalid_argument("active lanes must be in 1..32, got " +
                                std::to_string(active_lanes));
  }
  course::DeviceBuffer<int> result(1, "reduction result");
  result.poison();
  switch (mode) {
    case ShuffleMode::ballot_mask:
      ballot_mask_kernel<<<1, 32>>>(active_lanes, result.data());
      CUDA_CHECK_LAUNCH(ballot_mask_kernel);
      break;
    case ShuffleMode::all_lanes_stay:
      all_lanes_stay_kernel<<<1, 32>>>(active_lanes, result.data());
      CUDA_CHECK_LAUNCH(all_lanes_stay_kernel);
      break;
    case ShuffleMode::full_mask_after_exit:
      full_mask_after_exit_kernel<<<1, 32>>>(active_lanes, result.data());
      CUDA_CHECK_LAUNCH(full_mask_after_exit_kernel);
      break;
  }
  int sum = 0;
  result.download(&sum, 1);
  return sum;
}

}  // namespace course::step5
