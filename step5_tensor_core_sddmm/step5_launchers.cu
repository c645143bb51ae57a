/// @file step5_launchers.cu
/// @brief Host side of step 5: argument checks, preprocessing plans and launch configurations.
#include "step5_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "device_utilities.cuh"
#include "sddmm_dense_wmma.cuh"
#include "sddmm_hybrid.cuh"
#include "sddmm_tile_grouped.cuh"
#include "sddmm_warp_per_nonzero.cuh"
#include "tile_grouping.hpp"

#include <algorithm>
#include <climits>
#include <sstream>
#include <stdexcept>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace step5 {
namespace {

constexpr int kThreadsPerBlock = 256;
constexpr int kTileGroupedWarps = 4;  // 128 threads: many small blocks (the note's lesson)
constexpr int kPanelWarps = 4;
constexpr int kMaxGridY = 65535;

unsigned blocks_for(std::int64_t threads, int per_block) {
  const std::int64_t blocks = (threads + per_block - 1) / per_block;
  if (blocks > INT_MAX) {
    throw std::invalid_argument("launch needs " + std::to_string(blocks) +
                                " blocks, more than the grid limit of " + std::to_string(INT_MAX));
  }
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// ---- approach 1 ---------------------------------------------------------------------
void launch_warp_per_nonzero(const DenseOperands& operands, const DevicePattern& pattern,
                             float* output) {
  constexpr int kWarpsPerBlock = kThreadsPerBlock / 32;
  const unsigned blocks = blocks_for(pattern.nnz(), kWarpsPerBlock);
  sddmm_warp_per_nonzero_kernel<<<blocks, kThreadsPerBlock>>>(
      operands, pattern.nnz(), pattern.row_indices(), pattern.col_indices(), pattern.values(),
      output);
  CUDA_CHECK_LAUNCH(sddmm_warp_per_nonzero_kernel);
}

// ---- approach 2 ---------------------------------------------------------------------
template <int kWarpsX, int kWarpsY>
void launch_dense_shape(const DenseOperands& operands, float* dense, int ld_dense) {
  const int tile_cols = (operands.cols + kTile - 1) / kTile;
  const int tile_rows = (operands.rows + kTile - 1) / kTile;
  const dim3 block(32 * kWarpsX, kWarpsY);
  const dim3 grid((tile_cols + kWarpsX - 1) / kWarpsX, (tile_rows + kWarpsY - 1) / kWarpsY);
  if (grid.y > static_cast<unsigned>(kMaxGridY)) {
    throw std::invalid_argument("approach 2 needs " + std::to_string(grid.y) +
                                " blocks along the rows, more than the limit " +
                                std::to_string(kMaxGridY));
  }
  dense_wmma_kernel<kWarpsX, kWarpsY>
      <<<grid, block>>>(operands, dense, ld_dense, allows_vector_loads(operands.a, operands.lda),
                        allows_vector_loads(operands.b_transposed, operands.ldb));
  CUDA_CHECK_LAUNCH(dense_wmma_kernel);
}

void launch_dense(const Options& options, const DenseOperands& operands, float* dense,
                  int ld_dense) {
  const int x = options.dense_warps_x;
  const int y = options.dense_warps_y;
  if (x == 4 && y == 4) {
    launch_dense_shape<4, 4>(operands, dense, ld_dense);
  } else if (x == 1 && y == 32) {
    launch_dense_shape<1, 32>(operands, dense, ld_dense);
  } else if (x == 2 && y == 8) {
    launch_dense_shape<2, 8>(operands, dense, ld_dense);
  } else if (x == 8 && y == 2) {
    launch_dense_shape<8, 2>(operands, dense, ld_dense);
  } else if (x == 4 && y == 1) {
    launch_dense_shape<4, 1>(operands, dense, ld_dense);
  } else {
    throw std::invalid_argument("approach 2 block of " + std::to_string(x) + "x" +
                                std::to_string(y) +
                                " warps is not built; choose 4x4 (128x4 threads), 1x32 "
                                "(32x32), 2x8, 8x2 or 4x1");
  }
}

// ---- approach 4 ---------------------------------------------------------------------
template <int kGroupLanes>
void launch_lane_groups_with(const DenseOperands& operands, const DevicePattern& pattern,
                             const unsigned char* panel_is_dense, float* output) {
  const bool vector = allows_vector_loads(operands.a, operands.lda) &&
                      allows_vector_loads(operands.b_transposed, operands.ldb);
  const bool skip = panel_is_dense != nullptr;
  const unsigned blocks = blocks_for(pattern.nnz() * kGroupLanes, kThreadsPerBlock);
  const auto launch = [&](auto kernel) {
    kernel<<<blocks, kThreadsPerBlock>>>(operands, pattern.nnz(), pattern.row_indices(),
                                         pattern.col_indices(), pattern.values(), panel_is_dense,
                                         output);
  };
  if (vector && skip) {
    launch(lane_group_kernel<kGroupLanes, true, true>);
  } else if (vector) {
    launch(lane_group_kernel<kGroupLanes, true, false>);
  } else if (skip) {
    launch(lane_group_kernel<kGroupLanes, false, true>);
  } else {
    launch(lane_group_kernel<kGroupLanes, false, false>);
  }
  CUDA_CHECK_LAUNCH(lane_group_kernel);
}

/// Lanes per nonzero when the options leave it open: each lane reads 4 chunks of 8 halves
/// (K / 32 lanes), within the built sizes 4..32.
int automatic_group_lanes(int inner) {
  int lanes = 4;
  while (lanes < 32 && lanes * 32 < inner) {
    lanes *= 2;
  }
  return lanes;
}

void launch_lane_groups(int group_lanes, const DenseOperands& operands,
                        const DevicePattern& pattern, const unsigned char* panel_is_dense,
                        float* output) {
  switch (group_lanes == 0 ? automatic_group_lanes(operands.inner) : group_lanes) {
    case 4:
      launch_lane_groups_with<4>(operands, pattern, panel_is_dense, output);
      break;
    case 8:
      launch_lane_groups_with<8>(operands, pattern, panel_is_dense, output);
      break;
    case 16:
      launch_lane_groups_with<16>(operands, pattern, panel_is_dense, output);
      break;
    case 32:
      launch_lane_groups_with<32>(operands, pattern, panel_is_dense, output);
      break;
    default:
      throw std::invalid_argument("approach 4 groups of " + std::to_string(group_lanes) +
                                  " lanes are not built; choose 4, 8, 16 or 32");
  }
}

void check_options(const Options& options) {
  if (!(options.tc_density > 0.0) || options.tc_density > 1.0) {
    throw std::invalid_argument("tc_density must be in (0, 1], got " +
                                std::to_string(options.tc_density));
  }
}

}  // namespace

std::string approach_name(Approach approach) {
  switch (approach) {
    case Approach::warp_per_nonzero:
      return "1 warp/nonzero";
    case Approach::dense_wmma:
      return "2 dense WMMA";
    case Approach::tile_grouped:
      return "3 tile-grouped WMMA";
    case Approach::hybrid:
      return "4 hybrid";
  }
  return "?";
}

Approach approach_from_number(long long number) {
  if (number < 1 || number > kApproachCount) {
    throw std::invalid_argument("approach " + std::to_string(number) +
                                " does not exist; step 5 has approaches 1 to " +
                                std::to_string(kApproachCount));
  }
  return static_cast<Approach>(number);
}

void check_operands(const DenseOperands& operands) {
  std::ostringstream problem;
  if (operands.rows < 0 || operands.cols < 0 || operands.inner < 0) {
    problem << "sizes must not be negative (M=" << operands.rows << ", N=" << operands.cols
            << ", K=" << operands.inner << ")";
  } else if (operands.lda < operands.inner || operands.lda < 1) {
    problem << "lda=" << operands.lda << " must be at least K=" << operands.inner << " and 1";
  } else if (operands.ldb < operands.inner || operands.ldb < 1) {
    problem << "ldb=" << operands.ldb << " must be at least K=" << operands.inner << " and 1";
  } else if ((operands.a == nullptr && operands.rows > 0 && operands.inner > 0) ||
             (operands.b_transposed == nullptr && operands.cols > 0 && operands.inner > 0)) {
    problem << "A or Bᵀ is a null pointer for a non-empty matrix";
  } else {
    return;
  }
  throw std::invalid_argument("SDDMM operands: " + problem.str());
}

// ---- DevicePattern ------------------------------------------------------------------
struct DevicePattern::Buffers {
  course::DeviceBuffer<int> rows;
  course::DeviceBuffer<int> cols;
  course::DeviceBuffer<float> values;
};

DevicePattern::DevicePattern(const course::CooMatrix& matrix)
    : rows_(matrix.rows), cols_(matrix.cols), buffers_(std::make_unique<Buffers>()) {
  course::validate(matrix);
  const std::size_t nnz = matrix.nnz();
  // One pass checks the order and counts the nonzeros of each 16-row panel.
  std::size_t panel_count = 0;
  int current_panel = -1;
  const auto close_panel = [&] {
    if (current_panel >= 0) {
      const int panel_rows = std::min(kPanelRows, rows_ - current_panel * kPanelRows);
      const double density = static_cast<double>(panel_count) /
                             (static_cast<double>(panel_rows) * static_cast<double>(cols_));
      max_panel_density_ = std::max(max_panel_density_, density);
    }
  };
  for (std::size_t entry = 0; entry < nnz; ++entry) {
    const int panel = matrix.row_indices[entry] / kPanelRows;
    if (panel != current_panel) {
      close_panel();
      current_panel = panel;
      panel_count = 0;
    }
    ++panel_count;
    if (entry == 0) {
      continue;
    }
    const int previous_row = matrix.row_indices[entry - 1];
    const int row = matrix.row_indices[entry];
    if (row < previous_row ||
        (row == previous_row && matrix.col_indices[entry] < matrix.col_indices[entry - 1])) {
      throw std::invalid_argument("S must be sorted row-major (course::sort_row_major); entry " +
                                  std::to_string(entry) + " comes before entry " +
                                  std::to_string(entry - 1));
    }
  }
  close_panel();
  nnz_ = static_cast<std::int64_t>(nnz);
  buffers_->rows = course::DeviceBuffer<int>(nnz, "S row indices");
  buffers_->cols = course::DeviceBuffer<int>(nnz, "S column indices");
  buffers_->values = course::DeviceBuffer<float>(nnz, "S values");
  buffers_->rows.upload(matrix.row_indices);
  buffers_->cols.upload(matrix.col_indices);
  buffers_->values.upload(matrix.values);
}

DevicePattern::~DevicePattern() = default;
const int* DevicePattern::row_indices() const {
  return buffers_->rows.data();
}
const int* DevicePattern::col_indices() const {
  return buffers_->cols.data();
}
const float* DevicePattern::values() const {
  return buffers_->values.data();
}

// ---- Plan ---------------------------------------------------------------------------
struct Plan::State {
  course::DeviceBuffer<float> dense;                   // approach 2
  int ld_dense = 0;                                    // approach 2
  TileGroups groups;                                   // approach 3
  course::DeviceBuffer<unsigned char> panel_is_dense;  // approach 4
  course::DeviceBuffer<int> dense_panels;              // approach 4
};

std::size_t dense_product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(round_up(rows, kTile)) *
         static_cast<std::size_t>(round_up(cols, kTile)) * sizeof(float);
}

Plan::Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options)
    : approach_(approach),
      pattern_(&pattern),
      inner_(inner),
      options_(options),
      state_(std::make_unique<State>()) {
  approach_from_number(static_cast<int>(approach));
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("K must not be negative, got " + std::to_string(inner));
  }
  switch (approach) {
    case Approach::warp_per_nonzero:
      break;  // nothing to prepare
    case Approach::dense_wmma: {
      const std::size_t elements =
          dense_product_bytes(pattern.rows(), pattern.cols()) / sizeof(float);
      if (elements > options.dense_limit_elements) {
        std::ostringstream message;
        message << "approach 2 stores the dense product: " << round_up(pattern.rows(), kTile)
                << " x " << round_up(pattern.cols(), kTile)
                << " floats = " << course::format_bytes(elements * sizeof(float))
                << ", more than its limit of " << options.dense_limit_elements << " elements ("
                << course::format_bytes(options.dense_limit_elements * sizeof(float))
                << "); approaches 3 and 4 need no dense storage";
        throw std::length_error(message.str());
      }
      state_->ld_dense = static_cast<int>(round_up(pattern.cols(), kTile));
      state_->dense = course::DeviceBuffer<float>(elements, "approach 2's dense M x N product");
      break;
    }
    case Approach::tile_grouped:
      state_->groups = group_by_tile(pattern);
      tensor_core_units_ = state_->groups.tile_count;
      break;
    case Approach::hybrid: {
      const int panel_count = (pattern.rows() + kPanelRows - 1) / kPanelRows;
      if (pattern.nnz() == 0 || pattern.max_panel_density() < options.tc_density) {
        break;  // no panel reaches the threshold: every nonzero goes to the CUDA cores
      }
      state_->panel_is_dense = course::DeviceBuffer<unsigned char>(panel_count, "panel flags");
      state_->dense_panels = course::DeviceBuffer<int>(panel_count, "dense panel list");
      course::DeviceBuffer<int> dense_count(1, "dense panel count");
      dense_count.zero();
      classify_panels_kernel<<<blocks_for(panel_count, kThreadsPerBlock), kThreadsPerBlock>>>(
          panel_count, pattern.rows(), pattern.cols(), pattern.row_indices(), pattern.nnz(),
          options.tc_density, state_->panel_is_dense.data(), state_->dense_panels.data(),
          dense_count.data());
      CUDA_CHECK_LAUNCH(classify_panels_kernel);
      int count = 0;
      dense_count.download(&count, 1);  // synchronises; the host sizes the launch with it
      tensor_core_units_ = count;
      break;
    }
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

Plan::~Plan() = default;

std::size_t Plan::workspace_bytes() const {
  return state_->dense.bytes() + state_->groups.bytes() + state_->panel_is_dense.bytes() +
         state_->dense_panels.bytes();
}

void Plan::run(const DenseOperands& operands, float* output) const {
  check_operands(operands);
  if (operands.rows != pattern_->rows() || operands.cols != pattern_->cols() ||
      operands.inner != inner_) {
    std::ostringstream message;
    message << "operands are " << operands.rows << "x" << operands.inner << " and "
            << operands.inner << "x" << operands.cols << " but S is " << pattern_->rows() << "x"
            << pattern_->cols() << " and the plan was made for K=" << inner_;
    throw std::invalid_argument(message.str());
  }
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  if (output == nullptr) {
    throw std::invalid_argument("SDDMM output is a null pointer for " +
                                std::to_string(pattern_->nnz()) + " nonzeros");
  }
  const bool vector_a = allows_vector_loads(operands.a, operands.lda);
  const bool vector_b = allows_vector_loads(operands.b_transposed, operands.ldb);
  switch (approach_) {
    case Approach::warp_per_nonzero:
      launch_warp_per_nonzero(operands, *pattern_, output);
      break;
    case Approach::dense_wmma: {
      launch_dense(options_, operands, state_->dense.data(), state_->ld_dense);
      sample_dense_kernel<<<blocks_for(pattern_->nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
          state_->dense.data(), state_->ld_dense, pattern_->nnz(), pattern_->row_indices(),
          pattern_->col_indices(), pattern_->values(), output);
      CUDA_CHECK_LAUNCH(sample_dense_kernel);
      break;
    }
    case Approach::tile_grouped: {
      const TileGroups& groups = state_->groups;
      const unsigned blocks = blocks_for(groups.tile_count, kTileGroupedWarps);
      const auto launch = [&](auto kernel) {
        kernel<<<blocks, 32 * kTileGroupedWarps>>>(
            operands, groups.tile_count, groups.tile_cols, groups.tile_keys.data(),
            groups.tile_offsets.data(), static_cast<int>(pattern_->nnz()),
            groups.sorted_rows.data(), groups.sorted_cols.data(), groups.sorted_values.data(),
            groups.permutation.data(), vector_a, vector_b, output);
      };
      if (options_.tile_ranges) {
        launch(tile_grouped_kernel<kTileGroupedWarps, true>);
      } else {
        launch(tile_grouped_kernel<kTileGroupedWarps, false>);
      }
      CUDA_CHECK_LAUNCH(tile_grouped_kernel);
      break;
    }
    case Approach::hybrid: {
      const bool has_dense_panels = tensor_core_units_ > 0;
      if (has_dense_panels) {
        tensor_core_panel_kernel<kPanelWarps>
            <<<static_cast<unsigned>(tensor_core_units_), 32 * kPanelWarps>>>(
                operands, state_->dense_panels.data(), pattern_->row_indices(),
                pattern_->col_indices(), pattern_->values(), pattern_->nnz(), vector_a, vector_b,
                output);
        CUDA_CHECK_LAUNCH(tensor_core_panel_kernel);
      }
      launch_lane_groups(options_.group_lanes, operands, *pattern_,
                         has_dense_panels ? state_->panel_is_dense.data() : nullptr, output);
      break;
    }
  }
}

void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options) {
  const Plan plan(approach, pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

void sampled_magnitude(const DevicePattern& pattern, const DenseOperands& operands, float* output) {
  check_operands(operands);
  if (pattern.nnz() == 0) {
    return;
  }
  magnitude_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      operands.a, operands.lda, operands.b_transposed, operands.ldb, operands.inner, pattern.nnz(),
      pattern.row_indices(), pattern.col_indices(), pattern.values(), output);
  CUDA_CHECK_LAUNCH(magnitude_kernel);
}

void fill_random_half(__half* matrix, int rows, int cols, int ld, std::uint64_t seed) {
  course::check_matrix_shape(rows, cols, ld);
  const std::int64_t count = static_cast<std::int64_t>(rows) * ld;
  if (count == 0) {
    return;
  }
  fill_random_half_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(
      matrix, rows, cols, ld, seed);
  CUDA_CHECK_LAUNCH(fill_random_half_kernel);
}

void convert_half_to_float(const __half* input, float* output, std::size_t count) {
  if (count == 0) {
    return;
  }
  half_to_float_kernel<<<blocks_for(static_cast<std::int64_t>(count), kThreadsPerBlock),
                         kThreadsPerBlock>>>(input, output, static_cast<std::int64_t>(count));
  CUDA_CHECK_LAUNCH(half_to_float_kernel);
}

void transpose_float(const float* input, float* output, int rows, int cols) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  if (count == 0) {
    return;
  }
  transpose_float_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(input, output,
                                                                                    rows, cols);
  CUDA_CHECK_LAUNCH(transpose_float_kernel);
}

}  // namespace step5
