// Step 5, approach 4 (lesson Part 2): its tuning knobs.
// Read first: hybrid_plan.hpp (the plan that takes them).
/// @file hybrid_options.hpp
/// @brief Approach 4's options: the lanes per nonzero and runs per block of the lane groups,
/// and the thresholds that send dense panels and full tiles to Tensor Cores. The defaults
/// are the values tuned on an H100 (the lesson's Part 2 gives the measurements).
#pragma once

namespace course::step5 {

/// @brief Where approach 4 uses Tensor Cores.
enum class TensorCoreTiles {
  /// 16×16 tiles chosen one at a time by the cost model, stored through masks
  /// (masked_tiles.hpp), and the dense product when it wins (masked_tile_plan.hpp)
  masked16,
  /// dense 64-row panels and 64×64 tiles wholly in S (the earlier plan: full_tiles.hpp,
  /// dense_panel_tables.hpp)
  panels64
};

/// @brief The switches of the masked-tile plan (the benchmark times variants with them).
struct MaskedTileOptions {
  int panels = 0;          ///< 16-row panels per block: 0 chooses, or 1, 2, 4
  int group_steps = 0;     ///< tile columns per stage of Bᵀ: 0 chooses, or 1 to 4
  int min_entries = 0;     ///< a tile's threshold: 0 takes the cost model's
  bool dense_path = true;  ///< let the plan take the dense product when it wins
  /// keep every tile found, even where the model says they save less than a launch costs
  /// (the tests' small masks)
  bool eager = false;
};

/// @brief Tuning knobs of approach 4; the defaults are the tuned values.
struct HybridOptions {
  /// where Tensor Cores are used (masked16: the cost model's 16×16 tiles)
  TensorCoreTiles tensor_core_tiles = TensorCoreTiles::masked16;
  MaskedTileOptions masked;  ///< with masked16: the masked-tile plan's switches
  int group_lanes = 0;       ///< lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling
                             ///< with inner)
  /// panels64: a 64-row panel goes to Tensor Cores at this density, measured over the columns its
  /// nonzeros span
  double tc_density = 0.05;
  /// panels64: Tensor Cores only when the dense panels hold at least this many nonzeros (below, one
  /// wave of lane groups finishes before a Tensor Core block's chain of loads)
  long long tc_min_nnz = 131072;
  /// panels64: 64×64 tiles wholly in S run as plain dense Tensor Core tiles (full_tiles.hpp)
  bool full_tiles = true;
  /// panels64: full tiles only when they hold at least this many nonzeros together (below, the lane
  /// groups compute them in the time of the search's and the tiles' launches)
  long long full_tile_min_nnz = 65536;
  int lane_iterations = 0;  ///< runs of nonzeros per lane-group block (0: automatic, 1..8 by
                            ///< size)
};

}  // namespace course::step5
