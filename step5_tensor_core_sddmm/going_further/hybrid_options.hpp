// Step 5, approach 4 (lesson Part 2): its tuning knobs.
// Read first: hybrid_plan.hpp (the plan that takes them).
/// @file hybrid_options.hpp
/// @brief Approach 4's options: the lanes per nonzero and runs per block of the lane groups,
/// and the thresholds that send dense panels and full tiles to Tensor Cores. The defaults
/// are the values tuned on an H100 (the lesson's Part 2 gives the measurements).
#pragma once

namespace course::step5 {

/// @brief Tuning knobs of approach 4; the defaults are the tuned values.
struct HybridOptions {
  int group_lanes = 0;  ///< lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling
                        ///< with inner)
  /// a 64-row panel goes to Tensor Cores at this density, measured over the columns its
  /// nonzeros span
  double tc_density = 0.05;
  /// Tensor Cores only when the dense panels hold at least this many nonzeros (below, one
  /// wave of lane groups finishes before a Tensor Core block's chain of loads)
  long long tc_min_nnz = 131072;
  /// 64×64 tiles wholly in S run as plain dense Tensor Core tiles (full_tiles.hpp)
  bool full_tiles = true;
  /// full tiles only when they hold at least this many nonzeros together (below, the lane
  /// groups compute them in the time of the search's and the tiles' launches)
  long long full_tile_min_nnz = 65536;
  int lane_iterations = 0;  ///< runs of nonzeros per lane-group block (0: automatic, 1..8 by
                            ///< size)
};

}  // namespace course::step5
