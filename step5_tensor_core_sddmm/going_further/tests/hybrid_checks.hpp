/// @file hybrid_checks.hpp
/// @brief check_hybrid: approach 4 with given options through the shared check of the lesson's
/// tests (check_approach); and the inputs of the tests that run approach 4's parts on their own
/// (HalfOperands, block_mask).
///
/// Step 5, going further, tests (lesson "Tests"): approach 4 against the CPU reference.
/// Read first: ../../tests/approach_checks.hpp (the shared checks), ../hybrid_plan.hpp.
#pragma once

#include "common/matrix.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5::testing {

/// Fresh random A and Bᵀ with leading dimension @p ld, on the host and the device.
struct HalfOperands {
  HalfOperands(int rows, int cols, int inner, int ld, std::uint64_t seed);
  course::HostMatrix<__half> a;            ///< A, rows × inner
  course::HostMatrix<__half> bt;           ///< Bᵀ, cols × inner
  course::DeviceMatrix<__half> device_a;   ///< A on the device
  course::DeviceMatrix<__half> device_bt;  ///< Bᵀ on the device
  course::step5::DenseOperands operands;   ///< both, as the kernels take them
};

/// An attention mask of @p block × @p block blocks at @p density (causal: none above the
/// diagonal), sorted row-major, values random.
course::CooMatrix block_mask(int rows, int cols, int block, double density, bool causal,
                             std::uint64_t seed);

/// A 330×340 S with something for every path of approach 4: a dense first panel, 128-blocks
/// (full tiles), 24-blocks (masked tiles) and scattered entries (lane groups); values random
/// from @p seed.
course::CooMatrix every_path_mask(std::uint64_t seed);

/// Runs approach 4 with @p options on S with fresh random A, Bᵀ (leading dimension ld >=
/// inner) and compares with the CPU reference; the output is poisoned first.
void check_hybrid(const course::CooMatrix& s, int inner, int ld, std::uint64_t seed,
                  const course::step5::HybridOptions& options = {},
                  RunOn run_on = RunOn::default_stream);

/// Approach 4's earlier plan (TensorCoreTiles::panels64: dense 64-row panels and 64×64 full
/// tiles) with its default thresholds: the tests of those paths.
course::step5::HybridOptions panels64();

/// The earlier plan (panels64) under which even a small S gets Tensor Cores: dense panels
/// and full tiles from the first nonzero.
course::step5::HybridOptions eager_tensor_cores();

/// The combined plan with full tiles, dense panels and masked tiles from the first entries
/// (dense panels by the density rule, PanelChoice::density, so that all kernels run together).
course::step5::HybridOptions eager_combined();

/// The masked-tile plan (masked16) with every tile that has a row of two entries on Tensor
/// Cores, kept even where the model says it does not pay: the tiles of small masks.
/// @param panels 0: the plan's kernel and shape; 1, 2 or 4: the ring's kernel
/// (masked_tile_kernel) with that many 16-row panels per block
course::step5::HybridOptions eager_masked_tiles(int panels = 0);

}  // namespace course::step5::testing
