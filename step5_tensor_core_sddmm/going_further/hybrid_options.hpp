/// @file hybrid_options.hpp
/// @brief Approach 4's options: the lanes per nonzero and runs per block of the lane groups,
/// and the thresholds that send dense panels and full tiles to Tensor Cores. The defaults
/// are the values tuned on an H100 (going_further/README.md gives the measurements).
///
/// Step 5, approach 4 (going further): its tuning knobs.
/// Read first: hybrid_plan.hpp (the plan that takes them).
#pragma once

namespace course::step5 {

/// @brief Where approach 4 uses Tensor Cores.
enum class TensorCoreTiles {
  /// both below: 64×64 tiles wholly in S and dense 64-row panels on the block-tile kernels,
  /// then masked 16×16 tiles among the other entries (and the dense product when it wins)
  combined,
  /// 16×16 tiles chosen one at a time by the cost model, stored through masks
  /// (masked_tiles.hpp), and the dense product when it wins (masked_tile_plan.hpp)
  masked16,
  /// dense 64-row panels and 64×64 tiles wholly in S (the earlier plan: full_tiles.hpp,
  /// dense_panel_tables.hpp)
  panels64
};

/// @brief How the combined plan chooses its dense 64-row panels.
enum class PanelChoice {
  /// each panel's modelled time on the dense-panel kernel against its full tiles, masked tiles
  /// and lane groups, whole plans compared with each kernel's fixed cost
  /// (panel_cost_choice.hpp); panels below tc_density are never dense
  cost,
  /// every panel from combined_tc_density (the rule of issue 31's final run)
  density
};

/// @brief The kernel that multiplies the masked 16×16 tiles.
enum class MaskedTileKernel {
  /// the plan's choice (masked_kernel_for): registers, or the ring where the masked tiles
  /// fill much of the columns their panels span and a stage holds several tile columns
  automatic,
  /// masked_tile_kernel (sddmm_masked_tiles.cuh): blocks of 1, 2 or 4 panels share each copy
  /// of a tile column of Bᵀ through a ring of stages in shared memory, a barrier per stage
  ring,
  /// register_tile_kernel (sddmm_register_tiles.cuh): one warp per run of one panel's tiles,
  /// operands loaded straight into the registers mma.sync reads, no barrier
  registers
};

/// @brief The switches of the masked-tile plan (the benchmark times variants with them).
struct MaskedTileOptions {
  MaskedTileKernel kernel = MaskedTileKernel::automatic;  ///< the kernel of the masked tiles
  int panels = 0;          ///< the ring: 16-row panels per block: 0 chooses, or 1, 2, 4
  int group_steps = 0;     ///< the ring: tile columns per stage of Bᵀ: 0 chooses, or 1 to 4
  int stages = 0;          ///< the ring: stages of Bᵀ in flight per block: 0 chooses, or 2 to 4
  int min_entries = 0;     ///< a tile's threshold: 0 takes the cost model's
  bool dense_path = true;  ///< let the plan take the dense product when it wins
  /// keep every tile found, even where the model says they save less than a launch costs
  /// (the tests' small masks)
  bool eager = false;
};

/// @brief Tuning knobs of approach 4; the defaults are the tuned values.
struct HybridOptions {
  /// where Tensor Cores are used (combined: full tiles and dense panels, then masked tiles)
  TensorCoreTiles tensor_core_tiles = TensorCoreTiles::combined;
  MaskedTileOptions masked;  ///< combined and masked16: the masked-tile plan's switches
  int group_lanes = 0;       ///< lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling
                             ///< with inner)
  /// panels64 and combined: a 64-row panel goes to Tensor Cores at this density, measured over the
  /// columns its nonzeros span
  double tc_density = 0.05;
  /// panels64 and combined: Tensor Cores only when the dense panels hold at least this many
  /// nonzeros (below, one wave of lane groups finishes before a Tensor Core block's chain of loads)
  long long tc_min_nnz = 131072;
  /// panels64 and combined: 64×64 tiles wholly in S run as plain dense Tensor Core tiles
  /// (full_tiles.hpp)
  bool full_tiles = true;
  /// panels64 and combined: full tiles only when they hold at least this many nonzeros together
  /// (below, the lane groups compute them in the time of the search's and the tiles' launches)
  long long full_tile_min_nnz = 65536;
  /// combined: how the dense panels are chosen (cost, the default, or density)
  PanelChoice panel_choice = PanelChoice::cost;
  /// combined with PanelChoice::density: a 64-row panel goes to the dense-panel kernel, rather
  /// than to masked tiles, from this density over the columns it spans. NVIDIA H100 80GB HBM3,
  /// 2026-11-25 (issue 31's round 2): 48-blocks at 10 % took 0.072 ms as masked tiles and 0.181 ms
  /// as dense panels (inner 256); bcsstk16's panels, at 16–21 %, took 0.016 ms as dense panels and
  /// 0.031 ms as masked tiles; rn50's, at 50 %, 0.018 against 0.037.
  double combined_tc_density = 0.15;
  int lane_iterations = 0;  ///< runs of nonzeros per lane-group block (0: automatic, 1..8 by
                            ///< size)
  /// a run goes to the GPU as one CUDA graph (run_graph.hpp), captured on the first run with
  /// given operands and output; off: each launch (and cuBLAS call), fork and join queued one by
  /// one
  bool run_graph = true;
};

}  // namespace course::step5
