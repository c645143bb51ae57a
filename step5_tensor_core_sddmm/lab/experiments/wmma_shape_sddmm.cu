/// @file wmma_shape_sddmm.cu
/// @brief ShapeWorkspace: the padded buffers, the built variants (three shapes × two blocks
/// with no `sparsity`; 16×16×16 × two blocks with the note's `if`, the read kept by a select,
/// the read "kept" by an empty asm, and the read left unused)
/// and their launches.
///
/// Step 5, an experiment (the lesson, approach 2's experiments):
/// the launches of wmma_shape_sddmm.cuh. Read first: wmma_shape_sddmm.hpp.
#include "step5_tensor_core_sddmm/lab/experiments/wmma_shape_sddmm.cuh"
#include "step5_tensor_core_sddmm/lab/experiments/wmma_shape_sddmm.hpp"

#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <stdexcept>
#include <string>

namespace course::step5::experiments {
namespace {

/// Sparsity is at most 1, so no tile passes this threshold (the note's never-true `if`).
constexpr float kImpossibleSparsity = 2.0f;

template <int kM, int kN, int kWarpsX, int kWarpsY, SparsityUse kUse>
void launch_product(const DenseOperands& operands, const float* dense_s, float* dense, int ld) {
  const dim3 block(32 * kWarpsX, kWarpsY);
  const dim3 grid =
      warp_tile_grid(course::ceil_div(operands.rows, kM), course::ceil_div(operands.cols, kN),
                     kWarpsX, kWarpsY, "the shape experiment");
  shape_wmma_kernel<kM, kN, kWarpsX, kWarpsY, kUse>
      <<<grid, block>>>(operands, dense_s, ld, kImpossibleSparsity, dense, ld,
                        allows_vector_loads(operands.a, operands.lda),
                        allows_vector_loads(operands.b_transposed, operands.ldb));
  CUDA_CHECK_LAUNCH(shape_wmma_kernel);
}

/// The two blocks of the note: 32×32 threads (1×32 warps) and 128×4 (4×4 warps).
template <int kM, int kN, SparsityUse kUse>
void launch_block(const ShapeVariant& variant, const DenseOperands& operands, const float* dense_s,
                  float* dense, int ld) {
  if (variant.warps_x == 1 && variant.warps_y == 32) {
    launch_product<kM, kN, 1, 32, kUse>(operands, dense_s, dense, ld);
  } else if (variant.warps_x == 4 && variant.warps_y == 4) {
    launch_product<kM, kN, 4, 4, kUse>(operands, dense_s, dense, ld);
  } else {
    throw std::invalid_argument("block of " + std::to_string(variant.warps_x) + "x" +
                                std::to_string(variant.warps_y) +
                                " warps is not built; choose 1x32 (32x32 threads) or 4x4 "
                                "(128x4)");
  }
}

void launch_variant(const ShapeVariant& variant, const DenseOperands& operands,
                    const float* dense_s, float* dense, int ld) {
  const int m = variant.tile_rows;
  const int n = variant.tile_cols;
  if (variant.sparsity_use == 0 && m == 16 && n == 16) {
    launch_block<16, 16, SparsityUse::none>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 0 && m == 32 && n == 8) {
    launch_block<32, 8, SparsityUse::none>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 0 && m == 8 && n == 32) {
    launch_block<8, 32, SparsityUse::none>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 1 && m == 16 && n == 16) {
    launch_block<16, 16, SparsityUse::branch>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 2 && m == 16 && n == 16) {
    launch_block<16, 16, SparsityUse::kept_alive>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 3 && m == 16 && n == 16) {
    launch_block<16, 16, SparsityUse::empty_asm>(variant, operands, dense_s, dense, ld);
  } else if (variant.sparsity_use == 4 && m == 16 && n == 16) {
    launch_block<16, 16, SparsityUse::unused>(variant, operands, dense_s, dense, ld);
  } else {
    throw std::invalid_argument("variant " + shape_name(variant) + " with sparsity use " +
                                std::to_string(variant.sparsity_use) +
                                " is not built: shapes 16x16x16, 32x8x16 and 8x32x16 with use "
                                "0, and 16x16x16 with uses 1 to 4");
  }
}

}  // namespace

std::string shape_name(const ShapeVariant& variant) {
  return std::to_string(variant.tile_rows) + "x" + std::to_string(variant.tile_cols) + "x16";
}

std::string block_name(const ShapeVariant& variant) {
  return std::to_string(32 * variant.warps_x) + "x" + std::to_string(variant.warps_y);
}

std::string sparsity_name(const ShapeVariant& variant) {
  switch (variant.sparsity_use) {
    case 0:
      return "(a) none";
    case 1:
      return "(b) read + if never taken";
    case 2:
      return "(c) read kept, no branch";
    case 3:
      return "(d) read, empty asm only";
    case 4:
      return "(e) read, value unused";
    default:
      return "unknown";
  }
}

ShapeWorkspace::ShapeWorkspace(const DevicePattern& pattern, bool with_dense_s)
    : pattern_(pattern), ld_(static_cast<int>(round_up(pattern.cols(), kDensePadding))) {
  const std::size_t elements =
      static_cast<std::size_t>(round_up(pattern.rows(), kDensePadding)) * ld_;
  dense_ = course::DeviceBuffer<float>(elements, "the padded dense product");
  if (!with_dense_s) {
    return;
  }
  dense_s_ = course::DeviceBuffer<float>(elements, "S stored densely");
  CUDA_CHECK(cudaMemset(dense_s_.data(), 0, elements * sizeof(float)));
  if (pattern.nnz() > 0) {
    scatter_dense_s_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
        pattern.nnz(), pattern.row_indices(), pattern.col_indices(), pattern.values(),
        dense_s_.data(), ld_);
    CUDA_CHECK_LAUNCH(scatter_dense_s_kernel);
  }
}

void ShapeWorkspace::product(const ShapeVariant& variant, const DenseOperands& operands) {
  check_operands(operands);
  if (operands.rows != pattern_.rows() || operands.cols != pattern_.cols()) {
    throw std::invalid_argument(
        "the operands are " + std::to_string(operands.rows) + "x" + std::to_string(operands.cols) +
        " but S is " + std::to_string(pattern_.rows()) + "x" + std::to_string(pattern_.cols()));
  }
  if (variant.sparsity_use != 0 && dense_s_.data() == nullptr) {
    throw std::invalid_argument("a sparsity variant needs the workspace built with dense S");
  }
  if (operands.rows == 0 || operands.cols == 0) {
    return;  // no tiles
  }
  launch_variant(variant, operands, dense_s_.data(), dense_.data(), ld_);
}

void ShapeWorkspace::sddmm(const ShapeVariant& variant, const DenseOperands& operands,
                           float* output) {
  product(variant, operands);
  if (pattern_.nnz() == 0) {
    return;
  }
  sample_dense_kernel<<<blocks_for(pattern_.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      dense_.data(), ld_, pattern_.nnz(), pattern_.row_indices(), pattern_.col_indices(),
      pattern_.values(), output);
  CUDA_CHECK_LAUNCH(sample_dense_kernel);
}

}  // namespace course::step5::experiments
