/// @file warp_lanes.cuh
/// @brief kAllLanes: the mask that names all 32 lanes of a warp, for the `*_sync` warp
/// intrinsics (`__shfl_sync`, `__shfl_xor_sync`, `__reduce_add_sync`, ...).
///
/// Since Volta a warp's lanes may run apart, and every `*_sync` intrinsic names the lanes
/// that take part; the full mask is right only where all 32 lanes reach the call together,
/// which each caller states beside its call.
#pragma once

namespace course {

/// @brief Every lane of a warp: bit l stands for lane l.
constexpr unsigned kAllLanes = 0xFFFFFFFFu;

}  // namespace course
