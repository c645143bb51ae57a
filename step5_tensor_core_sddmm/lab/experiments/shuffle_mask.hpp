/// @file shuffle_mask.hpp
/// @brief The shuffle lesson: the mask of a __shfl_*_sync names exactly the lanes that take
/// part.
///
/// Step 5, experiment "The shuffle mask" (the lesson): the variants.
/// Read first: nothing; this comes before approach 1's warp reduction.
///
/// The note replaced `__shfl_xor(v, 1)` (which CUDA 13 no longer compiles for sm_70 and
/// newer) by `__shfl_xor_sync(0xFFFFFFFF, v, 1)` and got different results. Since Volta, lanes
/// of a warp are scheduled independently, and `__shfl_xor_sync(mask, ...)` promises that
/// exactly the lanes in `mask` execute it. The course's reading of the note: some lanes had
/// already left (an early `return`, a shorter loop) but were still named in the full mask,
/// which makes the call undefined: the value read from them is garbage, and the program may
/// even hang.
/// Here lane l holds l + 1 and lanes l >= active leave before the reduction; the sum the
/// active lanes must find is active · (active + 1) / 2.
#pragma once

namespace course::step5 {

/// @brief How the partial warp reduces.
enum class ShuffleMode {
  ballot_mask,     ///< correct: mask = __ballot_sync of the lanes that stay, shfl_down with a range
                   ///< guard
  all_lanes_stay,  ///< correct: nobody leaves, leaving lanes contribute 0, full mask
  full_mask_after_exit  ///< undefined: the note's butterfly with 0xFFFFFFFF after lanes left
};

/// @brief Runs one warp where only lanes [0, @p active_lanes) take part in a sum reduction.
///
/// full_mask_after_exit is undefined behaviour: on some GPUs it returns a wrong sum, on
/// others the right one by chance, and it may hang; shuffle_mask runs it only on request.
/// @param active_lanes 1..32
/// @param mode the reduction variant
/// @return the sum lane 0 computed
int partial_warp_sum(int active_lanes, ShuffleMode mode);

/// @brief The correct sum, active · (active + 1) / 2.
/// @param active_lanes 1..32
/// @return the expected sum
constexpr int expected_partial_sum(int active_lanes) {
  return active_lanes * (active_lanes + 1) / 2;
}

}  // namespace course::step5
