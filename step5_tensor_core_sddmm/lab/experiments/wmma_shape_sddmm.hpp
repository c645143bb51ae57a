/// @file wmma_shape_sddmm.hpp
/// @brief Runs approach 2 (dense product, then sampling at S) with a chosen WMMA shape, block
/// of warps and use of the note's `sparsity`, on buffers the caller keeps between runs.
///
/// Step 5, an experiment (the lesson, approach 2's experiments):
/// the host side of wmma_shape_sddmm.cuh. Read first: wmma_shape_sddmm.cuh.
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cstdint>
#include <string>

namespace course::step5::experiments {

/// @brief One built variant of the experiment's product kernel.
struct ShapeVariant {
  int tile_rows = 16;    ///< WMMA M: 16, 32 or 8
  int tile_cols = 16;    ///< WMMA N: 16, 8 or 32
  int warps_x = 4;       ///< warps per block along the tile columns (1 or 4)
  int warps_y = 4;       ///< warps per block along the tile rows (32 or 4)
  int sparsity_use = 0;  ///< 0 none, 1 never-true `if`, 2 read kept by a select, 3 empty
                         ///< asm, 4 read unused (the order of SparsityUse)
};

/// @brief "16x16x16", "32x8x16" or "8x32x16".
/// @param variant the variant
/// @return its WMMA shape
std::string shape_name(const ShapeVariant& variant);

/// @brief "32x32" or "128x4" (threads per block).
/// @param variant the variant
/// @return its block of threads
std::string block_name(const ShapeVariant& variant);

/// @brief "(a) none" … "(e) read, value unused": what the variant does with `sparsity`.
/// @param variant the variant
/// @return what it does with `sparsity`
std::string sparsity_name(const ShapeVariant& variant);

/// @brief The device buffers of the experiment for one S and one operand shape: the padded
/// dense product and, on request, S stored densely (zeros outside the pattern).
class ShapeWorkspace {
 public:
  /// @brief Allocates the padded product (and dense S when @p with_dense_s) for S's shape.
  /// @param pattern S on the device
  /// @param with_dense_s whether the `sparsity` variants will run
  /// @throws course::DeviceMemoryError when the dense matrices do not fit
  ShapeWorkspace(const DevicePattern& pattern, bool with_dense_s);

  /// @brief The product kernel alone (what the experiment times).
  /// @param variant which kernel
  /// @param operands A and Bᵀ, of S's shape
  /// @throws std::invalid_argument for a variant that is not built, or a `sparsity` variant
  /// without dense S
  void product(const ShapeVariant& variant, const DenseOperands& operands);

  /// @brief The product, then one thread per nonzero samples it: a whole SDDMM.
  /// @param variant which kernel
  /// @param operands A and Bᵀ
  /// @param output one float per nonzero of S
  void sddmm(const ShapeVariant& variant, const DenseOperands& operands, float* output);

 private:
  const DevicePattern& pattern_;
  int ld_ = 0;
  course::DeviceBuffer<float> dense_;
  course::DeviceBuffer<float> dense_s_;
};

}  // namespace course::step5::experiments
