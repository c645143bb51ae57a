/// @file warp_sum.cuh
/// @brief The sum of one value per lane over a whole warp, on every GPU the course runs on.
///
/// GPUs of compute capability 8.0 and newer add up a warp's values in one instruction
/// (`__reduce_add_sync`, REDUX in the machine code); older ones (sm_75: T4, RTX 20xx) do not
/// have it, and a kernel that calls it does not compile for them. warp_sum_all_lanes() uses
/// it where the code is compiled for sm_80 or newer and five butterfly shuffles elsewhere:
/// the same result, one source for every architecture.
#pragma once

#include "common/warp_lanes.cuh"

namespace course {

/// @brief Every lane gets the sum of @p value over the 32 lanes of its warp.
///
/// Precondition: all 32 lanes of the warp call it together (converged), as the full mask
/// says; the sum wraps modulo 2^32 like any unsigned addition.
/// @param value this lane's value
/// @return the sum over the warp, the same in every lane
__device__ __forceinline__ unsigned warp_sum_all_lanes(unsigned value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(kAllLanes, value);
#else
  // Butterfly: after the step with offset d, each lane holds the sum of its group of 2d
  // lanes; after offset 1 every lane holds the sum of all 32.
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_xor_sync(kAllLanes, value, offset);
  }
  return value;
#endif
}

}  // namespace course
