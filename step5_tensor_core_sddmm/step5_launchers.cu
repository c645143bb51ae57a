/// @file step5_launchers.cu
/// @brief What belongs to no single approach: names, operand checks, Plan (nothing, the dense
/// buffer or the tile groups, made once per S) and its dispatch, sddmm(), lesson_approaches().
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/memory_estimate.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <sstream>
#include <stdexcept>
#include <string>

namespace course::step5 {

std::string approach_name(Approach approach) {
  switch (approach) {
    case Approach::warp_per_nonzero:
      return "1 warp/nonzero";
    case Approach::dense_wmma:
      return "2 dense WMMA";
    case Approach::tile_grouped:
      return "3 tile-grouped WMMA";
  }
  return "?";
}

Approach approach_from_number(long long number) {
  if (number < 1 || number > kApproachCount) {
    throw std::invalid_argument("approach " + std::to_string(number) +
                                " does not exist; step 5's lesson has approaches 1 to " +
                                std::to_string(kApproachCount) +
                                " (approach 4 is in going_further/)");
  }
  return static_cast<Approach>(number);
}

namespace {

/// Throws std::invalid_argument "SDDMM operands: " followed by @p parts. The message is
/// built only here: run() checks the operands on every launch, and an std::ostringstream
/// built up front cost about a microsecond of every launch.
template <typename... Parts>
[[noreturn]] void throw_operand_problem(const Parts&... parts) {
  std::ostringstream problem;
  (problem << ... << parts);
  throw std::invalid_argument("SDDMM operands: " + problem.str());
}

}  // namespace

void check_operands(const DenseOperands& operands) {
  if (operands.rows < 0 || operands.cols < 0 || operands.inner < 0) {
    throw_operand_problem("sizes must not be negative (rows=", operands.rows,
                          ", cols=", operands.cols, ", inner=", operands.inner, ")");
  }
  if (operands.lda < operands.inner || operands.lda < 1) {
    throw_operand_problem("lda=", operands.lda, " must be at least inner=", operands.inner,
                          " and 1");
  }
  if (operands.ldb < operands.inner || operands.ldb < 1) {
    throw_operand_problem("ldb=", operands.ldb, " must be at least inner=", operands.inner,
                          " and 1");
  }
  if ((operands.a == nullptr && operands.rows > 0 && operands.inner > 0) ||
      (operands.b_transposed == nullptr && operands.cols > 0 && operands.inner > 0)) {
    throw_operand_problem("A or Bᵀ is a null pointer for a non-empty matrix");
  }
}

void check_run_arguments(const DenseOperands& operands, const DevicePattern& pattern, int inner,
                         const float* output) {
  check_operands(operands);
  if (operands.rows != pattern.rows() || operands.cols != pattern.cols() ||
      operands.inner != inner) {
    std::ostringstream message;
    message << "operands are " << operands.rows << "x" << operands.inner << " and "
            << operands.inner << "x" << operands.cols << " but S is " << pattern.rows() << "x"
            << pattern.cols() << " and the plan was made for inner=" << inner;
    throw std::invalid_argument(message.str());
  }
  if (pattern.nnz() > 0 && output == nullptr) {
    throw std::invalid_argument("SDDMM output is a null pointer for " +
                                std::to_string(pattern.nnz()) + " nonzeros");
  }
}

/// @brief What each approach prepares before its kernel runs.
struct Plan::State {
  course::DeviceBuffer<float> dense;  ///< approach 2: the dense rows×cols product
  int ld_dense = 0;                   ///< approach 2: leading dimension of dense
  TileGroups groups;                  ///< approach 3: nonzeros grouped by 16×16 tile
};

std::size_t dense_product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(round_up(rows, kTile)) *
         static_cast<std::size_t>(round_up(cols, kTile)) * sizeof(float);
}

void check_dense_limit(int rows, int cols, std::size_t limit_elements) {
  const std::size_t dense_bytes = dense_product_bytes(rows, cols);
  const std::size_t limit_bytes = limit_elements * sizeof(float);
  if (dense_bytes > limit_bytes) {
    throw std::length_error("approach 2 stores the dense product: " + std::to_string(rows) + " x " +
                            std::to_string(cols) + " floats (padded to 16) take " +
                            course::describe_bytes(dense_bytes) + ", more than its limit of " +
                            course::describe_bytes(limit_bytes) +
                            "; approaches 3 and 4 need no dense storage");
  }
}

Plan::Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options)
    : approach_(approach),
      pattern_(&pattern),
      inner_(inner),
      options_(options),
      state_(std::make_unique<State>()) {
  approach_from_number(static_cast<int>(approach));
  if (inner < 0) {
    throw std::invalid_argument("inner must not be negative, got " + std::to_string(inner));
  }
  switch (approach) {
    case Approach::warp_per_nonzero:
      break;  // nothing to prepare
    case Approach::dense_wmma: {
      check_dense_limit(pattern.rows(), pattern.cols(), options.dense_limit_elements);
      const std::size_t elements =
          dense_product_bytes(pattern.rows(), pattern.cols()) / sizeof(float);
      state_->ld_dense = static_cast<int>(round_up(pattern.cols(), kTile));
      state_->dense =
          course::DeviceBuffer<float>(elements, "approach 2's dense rows x cols product");
      break;
    }
    case Approach::tile_grouped:
      state_->groups = group_by_tile(pattern);
      tensor_core_units_ = state_->groups.tile_count;
      break;
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

Plan::~Plan() = default;

std::size_t Plan::workspace_bytes() const {
  return state_->dense.bytes() + state_->groups.bytes();
}

void Plan::run(const DenseOperands& operands, float* output, cudaStream_t stream) const {
  check_run_arguments(operands, *pattern_, inner_, output);
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  switch (approach_) {
    case Approach::warp_per_nonzero:
      launch_warp_per_nonzero(operands, *pattern_, output, stream);
      break;
    case Approach::dense_wmma:
      launch_dense_wmma(options_, operands, *pattern_, state_->dense.data(), state_->ld_dense,
                        output, stream);
      break;
    case Approach::tile_grouped:
      launch_tile_grouped(state_->groups, options_.tile_ranges, operands, pattern_->nnz(), output,
                          stream);
      break;
  }
}

void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options) {
  const Plan plan(approach, pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

std::vector<ApproachEntry> lesson_approaches(const Options& options) {
  std::vector<ApproachEntry> entries;
  for (const Approach approach :
       {Approach::warp_per_nonzero, Approach::dense_wmma, Approach::tile_grouped}) {
    // Approach 3's tile groups: a sort key, a permutation and sorted copies, about 16 B per
    // nonzero; approach 2's dense product is checked apart (dense_product_bytes).
    const std::uint64_t plan_bytes = approach == Approach::tile_grouped ? 16 : 0;
    entries.push_back({static_cast<int>(approach), approach_name(approach), plan_bytes,
                       [approach, options](const DevicePattern& pattern, int inner) {
                         return std::unique_ptr<SddmmPlan>(
                             std::make_unique<Plan>(approach, pattern, inner, options));
                       },
                       upload_pattern});
  }
  return entries;
}

}  // namespace course::step5
