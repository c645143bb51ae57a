/// @file hybrid_plan.hpp
/// @brief Approach 4, the hybrid: CUDA-core lane groups for the sparse entries, and Tensor
/// Cores on the 16×16 tiles dense enough to pay (masked_tiles.hpp) or, when the mask is dense
/// enough, the dense product (masked_tile_plan.hpp); the earlier plan (TensorCoreTiles::
/// panels64) used Tensor Core block tiles for dense 64-row panels and 64×64 tiles wholly in S.
/// HybridPlan is its preprocessing of S (hybrid_plan.cu), launch_hybrid its launch
/// (sddmm_hybrid_launch.cu), and hybrid_approach() the entry that adds it to a program's approaches
/// 1 to 3.
///
/// Step 5, approach 4 (going further): its plan, its launch and its place in a program.
/// Read first: step5_launchers.hpp (SddmmPlan, ApproachEntry), then hybrid_options.hpp.
#pragma once

#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/full_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tile_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_cost_choice.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"
#include "step5_tensor_core_sddmm/going_further/parallel_launches.hpp"
#include "step5_tensor_core_sddmm/going_further/run_graph.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace course::step5 {

/// @brief The number of approach 4, as `--approach` and `APPROACH` select it.
constexpr int kHybridApproach = 4;

/// @brief What approach 4's plan found of full tiles, as its launch takes it.
struct FullTileWork {
  const FullTile* tiles = nullptr;  ///< the full tiles
  const int* row_starts = nullptr;  ///< the first entry of each row of each tile
  std::int64_t tile_count = 0;      ///< their number (0: none, the lane groups go by panels)
  const int* listed = nullptr;      ///< with full tiles: the entries left to the lane groups
  std::int64_t listed_count = 0;    ///< their number
  /// the lane groups take the list even without full tiles (the masked tiles' plan made it)
  bool list_always = false;
};

/// @brief How many of S's entries each path of approach 4's plan computes (they add up to
/// S's entries): what the program prints and the test of the program's plan compares.
struct PlanEntries {
  std::int64_t full_tiles = 0;    ///< on the full tiles (outside dense panels)
  std::int64_t dense_panels = 0;  ///< on the dense panels
  std::int64_t masked_tiles = 0;  ///< on the masked 16×16 tiles
  std::int64_t lane_groups = 0;   ///< on the lane groups
  std::int64_t dense_path = 0;    ///< on the dense product (then every entry)
  /// @brief Whether two plans give every path the same entries.
  bool operator==(const PlanEntries& other) const {
    return full_tiles == other.full_tiles && dense_panels == other.dense_panels &&
           masked_tiles == other.masked_tiles && lane_groups == other.lane_groups &&
           dense_path == other.dense_path;
  }
};

/// @brief Approach 4 (sddmm_hybrid_launch.cu): the Tensor Core block tiles of the dense
/// panels and the full tiles, then the lane groups for the other nonzeros.
/// @param tables the plan's dense panel tables
/// @param dense_panels whether the plan chose any dense panel
/// @param full the plan's full tiles and the lane groups' list
/// @param options lanes per nonzero and runs per block
/// @param operands A and b_transposed
/// @param pattern S on the device
/// @param output device array of pattern.nnz() floats
/// Each kernel runs on its own stream of a ParallelLaunches (parallel_launches.hpp), side by
/// side with the others; @p stream waits for all of them.
/// @param between launches queued after the block tiles and before the lane groups (the
/// masked tiles), each on the ParallelLaunches' next stream, or empty
/// @param stream stream to launch on (default stream when nullptr)
void launch_hybrid(const DensePanelTables& tables, bool dense_panels, const FullTileWork& full,
                   const HybridOptions& options, const DenseOperands& operands,
                   const DevicePattern& pattern, float* output,
                   const std::function<void(ParallelLaunches&)>& between = {},
                   cudaStream_t stream = nullptr);

/// @brief Approach 4's lane groups alone (sddmm_hybrid_launch.cu): every entry of S, or
/// those of a list.
/// @param options lanes per nonzero and runs per block
/// @param operands A and b_transposed
/// @param pattern S on the device
/// @param listed the entries to compute, in S's order, or nullptr for all of S
/// @param listed_count their number (ignored without a list)
/// @param output device array of pattern.nnz() floats
/// @param stream stream to launch on (default stream when nullptr)
void launch_listed_lane_groups(const HybridOptions& options, const DenseOperands& operands,
                               const DevicePattern& pattern, const int* listed,
                               std::int64_t listed_count, float* output,
                               cudaStream_t stream = nullptr);

/// @brief Approach 4's preprocessing of S, done once, reused by every run: the full tiles,
/// the dense panels among the rest (classified from S's panel statistics, which a
/// PanelPattern brings and any other pattern has measured: panel_statistics.hpp) and their
/// tables, and the list of the entries left to the lane groups. The constructor waits for
/// the GPU, so its wall time is the preprocessing time.
class HybridPlan : public SddmmPlan {
 public:
  /// @brief Preprocesses @p pattern for approach 4.
  /// @param pattern S on the device (must outlive the plan)
  /// @param inner inner (the dense panels' kernel is chosen by it at run time)
  /// @param options tuning
  HybridPlan(const DevicePattern& pattern, int inner, const HybridOptions& options = {});
  ~HybridPlan() override;
  HybridPlan(const HybridPlan&) = delete;
  HybridPlan& operator=(const HybridPlan&) = delete;

  /// @brief Runs the SDDMM (SddmmPlan::run): checks the operands, then queues the plan's
  /// kernels as one CUDA graph, captured on the first run with these operands and this output
  /// and replayed after (run_graph.hpp), unless HybridOptions::run_graph is off.
  /// @param operands A and Bᵀ
  /// @param output device array of pattern.nnz() floats
  /// @param stream stream to launch on (default stream when nullptr)
  void run(const DenseOperands& operands, float* output,
           cudaStream_t stream = nullptr) const override;
  /// @brief The masked 16×16 tiles on Tensor Cores (masked16), or the Tensor Core 64-row
  /// panels (panels64; each covers the column blocks its nonzeros span).
  std::int64_t tensor_core_units() const override;
  /// @brief What the plan chose and what it must move and compute (the benchmark's LIMIT
  /// column reads it): the masked tiles' and lane groups' figures, plus the 64×64 block
  /// tiles' (panels64 and combined). With panels64 the lane groups' bytes are not counted.
  const MaskedPlanFigures& masked_figures() const;
  /// @brief The 64×64 tiles wholly in S that run as plain dense Tensor Core tiles
  /// (full_tiles.hpp; those inside dense panels included, which stay idle).
  std::int64_t full_tiles() const;
  /// @brief The combined plan's choice by cost (PanelChoice::cost): its dense panels, whether
  /// the masked tiles run, its modelled time and its name; empty with the other choices and
  /// when the dense product computes every entry.
  const PanelPlan& panel_plan() const;
  /// @brief Device bytes the plan holds beyond S.
  std::size_t workspace_bytes() const override;
  /// @brief The entries each path computes.
  const PlanEntries& entries() const;
  /// @brief The plan in one line: S's entries on each path and the kernels launched, e.g.
  /// "plan: 0 entries on full tiles, 0 on dense panels, 8052736 on masked tiles, 0 on lane
  /// groups, 0 on the dense path (1 kernel)".
  std::string describe() const override;

 private:
  struct State;
  const DevicePattern* pattern_;
  /// S's panel statistics measured by the plan, when its upload did not bring them
  PanelStatistics measured_;
  const PanelStatistics* panels_ = nullptr;  ///< S's panel statistics (panel_statistics())
  int inner_;
  HybridOptions options_;
  /// What the plan found and chose: set once, by the constructor (build_state), then only read.
  std::unique_ptr<const State> state_;
  /// The plan's kernels as one CUDA graph, for the last operands and output run
  std::unique_ptr<RunGraph> graph_ = std::make_unique<RunGraph>();
  /// The run's kernels, queued on @p stream (and side streams joined back into it).
  void queue_run(const DenseOperands& operands, float* output, cudaStream_t stream) const;
  /// The whole preprocessing, in a fresh State: masked_tile_state or block_tile_state, then
  /// the dense product's choice (combined), then the block tiles' figures.
  State build_state() const;
  /// The preprocessing of masked16: the masked tiles' plan (or the dense path).
  State masked_tile_state() const;
  /// The preprocessing of panels64 and combined: the full tiles, the dense panels among the
  /// rest, then the masked tiles (combined) or the list of the entries left to the lane groups.
  State block_tile_state() const;
  /// Adds the 64×64 block tiles' bytes and FLOPs to @p state's figures (the LIMIT column's;
  /// not on the dense path, whose figures are the whole product's already).
  void add_block_tile_figures(State& state) const;
  /// masked16's run: the dense path, or the masked tiles then the lane groups' list, on
  /// @p stream.
  void run_masked(const DenseOperands& operands, float* output, cudaStream_t stream) const;
  /// The combined plan's last choice: the dense product instead of the whole plan found in
  /// @p state, when the model says it is faster and its buffer fits (dense_product_pays).
  void choose_dense_path(State& state) const;
};

/// @brief Convenience: preprocess and run approach 4 once (tests).
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @param output device array of pattern.nnz() floats
/// @param options tuning
void sddmm_hybrid(const DevicePattern& pattern, const DenseOperands& operands, float* output,
                  const HybridOptions& options = {});

/// @brief Approach 4 as a program or a test runs it, with @p options bound in.
/// @param options tuning
/// @return the entry numbered kHybridApproach
ApproachEntry hybrid_approach(const HybridOptions& options = {});

}  // namespace course::step5
