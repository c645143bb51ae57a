/// @file sddmm_register_tiles_launch.cu
/// @brief launch_register_tiles(): one warp per item, kRegisterTileWarps a block, the slices
/// per pass for inner, 16-byte loads where A and Bᵀ allow them, values (in the lanes' order)
/// or a pattern.
///
/// Step 5, going further: the launch of the masked tiles' register kernel.
/// Read first: sddmm_register_tiles.cuh (the kernel), tile_cost_model.hpp (its shape).
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/launch_variants.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/sddmm_register_tiles.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

template <int kSlices, bool kVector, bool kValues>
void launch_with(const MaskedTiles& tiles, const DenseOperands& operands,
                 const MaskedTileArgs& args, float* output, cudaStream_t stream) {
  const std::int64_t blocks = ceil_div(tiles.item_count, std::int64_t{kRegisterTileWarps});
  register_tile_kernel<kSlices, kVector, kValues>
      <<<static_cast<unsigned>(blocks), 32 * kRegisterTileWarps, 0, stream>>>(
          operands, args, static_cast<int>(tiles.item_count), output);
}

template <int kSlices>
void launch_slices(const MaskedTiles& tiles, const DenseOperands& operands,
                   const MaskedTileArgs& args, float* output, cudaStream_t stream) {
  const bool vector = allows_vector_loads(operands.a, operands.lda) &&
                      allows_vector_loads(operands.b_transposed, operands.ldb);
  // A pattern S runs the kernel without values; a valued one the kernel that reads them.
  with_load_variant(vector, args.values != nullptr, [&](auto vector_tag, auto values_tag) {
    launch_with<kSlices, decltype(vector_tag)::value, decltype(values_tag)::value>(
        tiles, operands, args, output, stream);
  });
}

}  // namespace

void launch_register_tiles(const MaskedTiles& tiles, const MaskedTileShape& shape,
                           const DenseOperands& operands, const float* values, float* output,
                           cudaStream_t stream) {
  if (tiles.item_count == 0) {
    return;  // no tile on Tensor Cores
  }
  const int slices = register_tile_slices(operands.inner);
  if (shape.kernel != MaskedTileKernel::registers || tiles.panels != 1 || shape.panels != 1 ||
      tiles.item_steps < 1 || tiles.item_steps > kMaxItemSteps ||
      shape.chunk != slices * kRegisterSliceDepth || operands.inner < 1) {
    throw std::invalid_argument(
        "the register tiles need tiles grouped by one panel with 1 to " +
        std::to_string(kMaxItemSteps) + " steps an item and the pass of inner " +
        std::to_string(operands.inner) + "; got " + std::to_string(tiles.panels) + " panels, " +
        std::to_string(tiles.item_steps) + " steps an item, a pass of " +
        std::to_string(shape.chunk));
  }
  if (ceil_div(tiles.item_count, std::int64_t{kRegisterTileWarps}) > INT_MAX) {
    throw std::invalid_argument("the register tiles need " + std::to_string(tiles.item_count) +
                                " warps, more than the grid limit of " + std::to_string(INT_MAX) +
                                " blocks of " + std::to_string(kRegisterTileWarps));
  }
  const MaskedTileArgs args = masked_tile_args(tiles, shape, values);
  if (values != nullptr &&
      tiles.lane_values.size() != static_cast<std::size_t>(tiles.tile_count) * kTileLaneValues) {
    throw std::invalid_argument(
        "the register tiles of a valued S read its values in the lanes' order: " +
        std::to_string(tiles.tile_count * kTileLaneValues) + " values expected for " +
        std::to_string(tiles.tile_count) + " tiles, " + std::to_string(tiles.lane_values.size()) +
        " made (order_tile_values)");
  }
  switch (slices) {
    case 2:
      launch_slices<2>(tiles, operands, args, output, stream);
      break;
    case 4:
      launch_slices<4>(tiles, operands, args, output, stream);
      break;
    default:
      launch_slices<kMaxRegisterSlices>(tiles, operands, args, output, stream);
      break;
  }
  CUDA_CHECK_LAUNCH(register_tile_kernel);
}

}  // namespace course::step5
