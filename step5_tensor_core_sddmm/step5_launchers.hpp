/// @file step5_launchers.hpp
/// @brief Step 5's stable host interface: the lesson's SDDMM approaches 1 to 3, their
/// launchers, their GPU preprocessing (a "plan") and the one-call sddmm().
///
/// SDDMM computes C = S ∘ (A·B) at the nonzeros of a sparse matrix S only:
/// C[e] = S.values[e] · Σ_k A(row_e, k) · B(k, col_e) for every stored entry e of S, in S's
/// order. A is rows×inner, B is inner×cols, both in half precision, passed as DenseOperands
/// (dense_operands.hpp, with the layout of B); C is float, accumulated in float. S on the
/// device is a DevicePattern (device_pattern/device_pattern.hpp).
///
/// Every function here checks its CUDA calls and launches (course::CudaError) and refuses bad
/// arguments with std::invalid_argument naming the problem.
/// Each launcher is implemented in the `*_launch.cu` file beside its kernel; the rest here in
/// step5_launchers.cu.
///
/// **Approach 4** (going_further/) is another SddmmPlan: going_further/hybrid_plan.hpp adds it
/// to a program's list of approaches (ApproachEntry) without this interface naming it.
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "common/host_sampling.hpp"
#include "step5_tensor_core_sddmm/tile_grouping.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief The lesson's approaches, numbered as `APPROACH` / `--approach` select them.
enum class Approach {
  warp_per_nonzero = 1,  ///< CUDA cores: one warp per nonzero, shuffle reduction
  dense_wmma = 2,        ///< Tensor Cores on the whole dense product, then sampled
  tile_grouped = 3       ///< Tensor Cores on the non-empty 16×16 tiles (the note's COO v2)
};

/// @brief Number of the lesson's approaches (approach 4 is in going_further/).
constexpr int kApproachCount = 3;

/// @brief Short name of an approach, for tables ("1 warp/nonzero", "2 dense WMMA", ...).
/// @param approach the approach
/// @return its name
std::string approach_name(Approach approach);

/// @brief Converts 1..3 to an Approach; throws std::invalid_argument otherwise.
/// @param number the approach number
/// @return the approach
Approach approach_from_number(long long number);

/// @brief Tuning knobs of approaches 1 to 3; the defaults are the tuned values.
struct Options {
  int dense_warps_x =
      4;  ///< approach 2: warps per block along the tile columns (4: the note's 128×4)
  int dense_warps_y =
      4;  ///< approach 2: warps per block along the tile rows (1×32 = the note's 32×32)
  bool tile_ranges =
      true;  ///< approach 3: false runs the note's COO version 1 (every warp scans all nnz)
  std::size_t dense_limit_elements = std::size_t{1} << 32;  ///< approach 2: largest dense product
};

/// @brief Bytes approach 2 needs for its dense product of rows×cols (padded to 16), without
/// allocating: the figure its refusal names.
/// @param rows rows of S
/// @param cols columns of S
/// @return bytes of the padded float product
std::size_t dense_product_bytes(int rows, int cols);

/// @brief Refuses approach 2 for S of rows×cols whose dense product passes the limit: throws
/// std::length_error naming both (the plan's and the program's message).
/// @param rows rows of S
/// @param cols columns of S
/// @param limit_elements the limit (Options::dense_limit_elements)
void check_dense_limit(int rows, int cols, std::size_t limit_elements);

/// @brief Approach 1 (sddmm_warp_per_nonzero_launch.cu): one warp per nonzero.
/// @param operands A and Bᵀ
/// @param pattern S on the device
/// @param output device array of pattern.nnz() floats
/// @param stream stream to launch on (default stream when nullptr)
void launch_warp_per_nonzero(const DenseOperands& operands, const DevicePattern& pattern,
                             float* output, cudaStream_t stream = nullptr);

/// @brief Approach 2 (sddmm_dense_wmma_launch.cu): the dense product with the block shape of
/// Options::dense_warps_x × dense_warps_y warps, then sampled at S's nonzeros.
/// @param options the block shape
/// @param operands A and Bᵀ
/// @param pattern S on the device
/// @param dense the plan's padded dense rows×cols product
/// @param ld_dense its leading dimension
/// @param output device array of pattern.nnz() floats
/// @param stream stream to launch on (default stream when nullptr)
void launch_dense_wmma(const Options& options, const DenseOperands& operands,
                       const DevicePattern& pattern, float* dense, int ld_dense, float* output,
                       cudaStream_t stream = nullptr);

/// @brief Approach 3 (sddmm_tile_grouped_launch.cu): one warp per non-empty 16×16 tile.
/// @param groups the plan's grouping of S by tile
/// @param tile_ranges Options::tile_ranges (false: the note's COO version 1)
/// @param operands A and Bᵀ
/// @param nnz nonzeros of S
/// @param output device array of nnz floats
/// @param stream stream to launch on (default stream when nullptr)
void launch_tile_grouped(const TileGroups& groups, bool tile_ranges, const DenseOperands& operands,
                         std::int64_t nnz, float* output, cudaStream_t stream = nullptr);

/// @brief What every approach's plan offers: its preprocessing of S, done once by its
/// constructor (whose wall time is the preprocessing time), and the SDDMM, run as often as
/// needed. Plan below is the lesson's; going_further/hybrid_plan.hpp has approach 4's.
class SddmmPlan {
 public:
  virtual ~SddmmPlan() = default;
  /// @brief Runs the SDDMM: writes pattern.nnz() floats to @p output (device memory), in S's
  /// order. Asynchronous on @p stream (time it with course::time_gpu).
  /// One exception: S's values uploaded by approach 4 are copied on a side stream, ordered on
  /// the default stream only (DevicePattern::values() says what to do before a non-blocking
  /// stream or graph capture).
  /// @param operands A and Bᵀ; their rows, cols must equal S's shape and inner the plan's
  /// @param output device array of pattern.nnz() floats
  /// @param stream stream to launch on (default stream when nullptr)
  virtual void run(const DenseOperands& operands, float* output,
                   cudaStream_t stream = nullptr) const = 0;
  /// @brief The units the plan gives Tensor Cores (non-empty 16×16 tiles for approach 3,
  /// 64-row panels for approach 4; 0 for the others).
  virtual std::int64_t tensor_core_units() const = 0;
  /// @brief Device bytes the plan holds beyond S.
  virtual std::size_t workspace_bytes() const = 0;
  /// @brief What the plan does with S, in one line for a program's output (approach 4: the
  /// entries each of its paths computes); empty when there is nothing to add.
  /// @return the line
  virtual std::string describe() const { return {}; }
};

/// @brief The preprocessing of S for approach 1, 2 or 3, done once, reused by every run.
///
/// Construction does the work that depends only on S (for approach 3 the grouping of the
/// nonzeros by 16×16 tile on the GPU, for approach 2 the dense buffer) and waits for it, so
/// its wall time is the preprocessing time. Approach 2 throws course::DeviceMemoryError when its
/// dense product does not fit, or std::length_error when it passes Options::dense_limit_elements.
class Plan : public SddmmPlan {
 public:
  /// @brief Preprocesses @p pattern for @p approach.
  /// @param approach which approach
  /// @param pattern S on the device (must outlive the plan)
  /// @param inner inner (approach 2 sizes nothing by it; kept for the checks)
  /// @param options tuning
  Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options = {});
  ~Plan() override;
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  /// @brief Runs the SDDMM (SddmmPlan::run): checks the operands against S and the plan, then
  /// calls the approach's launcher.
  /// @param operands A and Bᵀ
  /// @param output device array of pattern.nnz() floats
  /// @param stream stream to launch on (default stream when nullptr)
  void run(const DenseOperands& operands, float* output,
           cudaStream_t stream = nullptr) const override;
  /// @brief The approach.
  Approach approach() const { return approach_; }
  /// @brief Non-empty 16×16 tiles (approach 3; 0 for approaches 1 and 2).
  std::int64_t tensor_core_units() const override { return tensor_core_units_; }
  /// @brief Device bytes the plan holds beyond S.
  std::size_t workspace_bytes() const override;

 private:
  struct State;
  Approach approach_;
  const DevicePattern* pattern_;
  int inner_;
  Options options_;
  std::int64_t tensor_core_units_ = 0;
  std::unique_ptr<State> state_;
};

/// @brief Checks that @p operands match @p pattern's shape and @p inner, and that @p output is
/// there when S has entries; throws std::invalid_argument naming the mismatch. Every plan's
/// run() calls it first.
/// @param operands A and Bᵀ
/// @param pattern S on the device
/// @param inner the inner size the plan was made for
/// @param output device array of pattern.nnz() floats
void check_run_arguments(const DenseOperands& operands, const DevicePattern& pattern, int inner,
                         const float* output);

/// @brief Convenience: preprocess and run once (tests, the step program).
/// @param approach which approach
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @param output device array of pattern.nnz() floats
/// @param options tuning
void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options = {});

/// @brief One approach as a program or a test runs it: its number, its name and how it
/// makes its plan. The lesson's program gets approaches 1 to 3 (lesson_approaches());
/// going_further/ appends approach 4 (hybrid_approach()).
struct ApproachEntry {
  int number = 0;    ///< what `--approach` and `APPROACH` call it
  std::string name;  ///< approach_name() for 1 to 3, e.g. "4 hybrid" beyond
  /// bytes of device tables its plan needs per nonzero of S (for the memory check before S
  /// is made; approach 2's dense product is checked apart)
  std::uint64_t plan_bytes_per_nonzero = 0;
  /// makes the plan for S on the device and the inner size (the options are bound in)
  std::function<std::unique_ptr<SddmmPlan>(const DevicePattern& pattern, int inner)> make_plan;
  /// how S goes to the device for this approach, in every program and the benchmark alike:
  /// the lesson's upload_pattern for 1 to 3, approach 4's upload_with_panels (going_further/
  /// panel_pattern.hpp), which also counts the panels its plan decides from
  PatternUpload upload = upload_pattern;
};

/// @brief Approaches 1, 2 and 3 with @p options, in that order.
/// @param options tuning, bound into each entry's make_plan
/// @return the three entries
std::vector<ApproachEntry> lesson_approaches(const Options& options = {});

}  // namespace course::step5
