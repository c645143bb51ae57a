/// @file sddmm_masked_tiles_launch.cu
/// @brief launch_masked_tiles(): the ring's (register_tile_kernel's launch is in
/// sddmm_register_tiles_launch.cu) with one block per item, the shape's panels and stages, 16-byte
/// copies where A and Bᵀ allow them; and whether the kernel was compiled with cp.async.
///
/// Step 5, going further: the launch of the masked-tile kernel.
/// Read first: sddmm_masked_tiles.cuh (the kernel), tile_cost_model.hpp (its shape).
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/launch_variants.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/sddmm_masked_tiles.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <climits>
#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

/// Dynamic shared memory above 48 KiB must be asked for, once per kernel and size.
template <typename Kernel>
void allow_shared_bytes(Kernel kernel, int bytes) {
  constexpr int kDefaultLimit = 48 * 1024;
  if (bytes > kDefaultLimit) {
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
}

template <int kPanels, bool kVector, bool kValues>
void launch_with(const MaskedTiles& tiles, const MaskedTileShape& shape,
                 const DenseOperands& operands, const MaskedTileArgs& args, float* output,
                 cudaStream_t stream) {
  auto kernel = masked_tile_kernel<kPanels, kVector, kValues>;
  allow_shared_bytes(kernel, shape.shared_bytes);
  kernel<<<static_cast<unsigned>(tiles.item_count), 32 * kPanels, shape.shared_bytes, stream>>>(
      operands, args, output);
}

template <int kPanels>
void launch_panels(const MaskedTiles& tiles, const MaskedTileShape& shape,
                   const DenseOperands& operands, const MaskedTileArgs& args, float* output,
                   cudaStream_t stream) {
  const bool vector = allows_vector_loads(operands.a, operands.lda) &&
                      allows_vector_loads(operands.b_transposed, operands.ldb);
  // A pattern S runs the kernel without values; a valued one the kernel that prefetches them.
  with_load_variant(vector, args.values != nullptr, [&](auto vector_tag, auto values_tag) {
    launch_with<kPanels, decltype(vector_tag)::value, decltype(values_tag)::value>(
        tiles, shape, operands, args, output, stream);
  });
}

}  // namespace

void launch_masked_tiles(const MaskedTiles& tiles, const MaskedTileShape& shape,
                         const DenseOperands& operands, const float* values, float* output,
                         cudaStream_t stream) {
  if (tiles.item_count == 0) {
    return;  // no tile on Tensor Cores
  }
  if (shape.kernel == MaskedTileKernel::registers) {
    launch_register_tiles(tiles, shape, operands, values, output, stream);
    return;
  }
  if (tiles.item_count > INT_MAX) {
    throw std::invalid_argument("masked tiles need " + std::to_string(tiles.item_count) +
                                " blocks, more than the grid limit of " + std::to_string(INT_MAX));
  }
  if (shape.panels != tiles.panels || shape.stages < 2 || shape.stages > 4 ||
      shape.shared_bytes != masked_tile_shared_bytes(shape.panels, shape.stages, operands.inner,
                                                     tiles.item_steps, shape.group_steps) ||
      shape.chunk != masked_tile_chunk(operands.inner) || shape.group_steps < 1 ||
      shape.group_steps > kMaxGroupSteps ||
      (shape.group_steps > 1 && shape.chunk < wmma_padded(operands.inner))) {
    throw std::invalid_argument("the masked tiles' launch shape does not match their grouping: " +
                                std::to_string(shape.panels) + " panels for tiles grouped by " +
                                std::to_string(tiles.panels) + ", " + std::to_string(shape.stages) +
                                " stages");
  }
  const MaskedTileArgs args = masked_tile_args(tiles, shape, values);
  switch (shape.panels) {
    case 1:
      launch_panels<1>(tiles, shape, operands, args, output, stream);
      break;
    case 2:
      launch_panels<2>(tiles, shape, operands, args, output, stream);
      break;
    case 4:
      launch_panels<4>(tiles, shape, operands, args, output, stream);
      break;
    default:
      throw std::invalid_argument("masked tiles are built for 1, 2 or 4 panels per block, got " +
                                  std::to_string(shape.panels));
  }
  CUDA_CHECK_LAUNCH(masked_tile_kernel);
}

bool masked_tiles_compiled_with_async_copy() {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, masked_tile_kernel<1, true, false>));
  // ptxVersion is the virtual architecture the kernel's code was compiled for (75 for a
  // compute_75 PTX, even when the driver compiled it for an sm_90 GPU).
  return attributes.ptxVersion >= 80;
}

}  // namespace course::step5
