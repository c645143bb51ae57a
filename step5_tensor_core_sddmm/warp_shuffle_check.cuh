/// @file warp_shuffle_check.cuh
/// @brief `__shfl_xor_sync` with a check of its mask, for the warp reductions of step 5.
///
/// A shuffle's mask must name every lane that takes part: at least the calling lane and the
/// lane it reads from. A mask that leaves them out is undefined behaviour, and undefined
/// behaviour may well give the right sums: on an H200 a mask naming only lanes 0-15 still
/// adds all 32 partial sums, and compute-sanitizer's synccheck reports nothing. No test of
/// the results can catch such a bug, so with COURSE_CHECK_WARP_MASKS defined (step 5's
/// CMake option STEP5_CHECK_WARP_MASKS, on by default) the shuffle checks its own mask and
/// stops the kernel (`__trap()`, the launch then fails with a CUDA error) when it is wrong.
/// The check costs two bit tests per shuffle. It catches a mask that names too few lanes, not
/// one that names lanes which have already exited (the course's reading of the note): with a
/// full mask every lane still running and its partner are named, and a lane that left never
/// reaches the check. Kernels avoid that case by keeping every lane until the reduction ends.
///
/// In a build of other kernels than the reference (COURSE_DEVICE_ONLY_KERNELS, defined by
/// course_add_kernel_library), the checked shuffle is a function of its own in the compiled
/// code, `__noinline__` and `used`: the grader then finds it by its name in the PTX and knows
/// that every other warp instruction there must use the full mask (grading/README.md, "Threat
/// model"); `used` also keeps the compiler from copying a caller's constant mask into it. The
/// reference build keeps it inline (the lab's timings are of that code).
#pragma once

#include <cstdio>

/// @def COURSE_CHECKED_SHUFFLE_LINKAGE
/// @brief The linkage of checked_shfl_xor_sync: `inline __noinline__ __attribute__((used))`
/// where the check is on in a build of other kernels than the reference (the grader finds the
/// function by its name in the PTX), plain `inline` everywhere else.
#if defined(COURSE_CHECK_WARP_MASKS) && defined(COURSE_DEVICE_ONLY_KERNELS)
#define COURSE_CHECKED_SHUFFLE_LINKAGE inline __noinline__ __attribute__((used))
#else
#define COURSE_CHECKED_SHUFFLE_LINKAGE inline
#endif

namespace course::step5 {

/// @brief The calling thread's lane in its warp (the `%laneid` register), valid for any
/// block shape.
/// @return 0..31
__device__ inline unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

/// @brief `__shfl_xor_sync(mask, value, lane_mask)`; with COURSE_CHECK_WARP_MASKS defined it
/// first traps when @p mask does not name the calling lane or the lane it reads from
/// (lane ^ lane_mask).
/// @param mask lanes taking part in the shuffle
/// @param value this lane's value
/// @param lane_mask XOR distance to the partner lane (1, 2, 4, 8 or 16)
/// @return the partner lane's value
__device__ COURSE_CHECKED_SHUFFLE_LINKAGE float checked_shfl_xor_sync(unsigned mask, float value,
                                                                      int lane_mask) {
#ifdef COURSE_CHECK_WARP_MASKS
  const unsigned lane = lane_id();
  const unsigned partner = (lane ^ static_cast<unsigned>(lane_mask)) & 31u;
  if (((mask >> lane) & 1u) == 0u || ((mask >> partner) & 1u) == 0u) {
    printf(
        "warp shuffle: mask 0x%08x does not name lane %u or its partner lane %u "
        "(block %u, thread %u): the mask must name every lane that takes part\n",
        mask, lane, partner, blockIdx.x, threadIdx.x);
    __trap();
  }
#endif
  return __shfl_xor_sync(mask, value, lane_mask);
}

}  // namespace course::step5
