/// @file wide_tile_launch.cu
/// @brief Launcher of the wide-tile kernels (wide_tile_gemm.cuh): the dynamic shared memory
/// opt-in, the grid, and the kernel compiled for the float4 paths the operands allow.
/// Read wide_tile_gemm.cuh first; fast_gemm_launch.cu calls this for one split-K pass.
#include "step4_boundary_checks/wide_tile_launch.hpp"

#include "common/cuda_check.hpp"
#include "step4_boundary_checks/float4_paths.hpp"
#include "step4_boundary_checks/wide_tile_gemm.cuh"

#include <stdexcept>
#include <string>

namespace course::step4 {
namespace {

using Wide128x256 = WideTiling<128, 256, 16, 8, 16, 3>;
using Wide128x256Deep = WideTiling<128, 256, 32, 8, 16, 3>;
using Wide256x128 = WideTiling<256, 128, 16, 8, 16, 3>;
using Wide128x128 = WideTiling<128, 128, 16, 8, 16, 3>;
using Ring128x128 = WideTiling<128, 128, 16, 8, 8, 4>;
using Wide128x256Ring4 = WideTiling<128, 256, 16, 8, 16, 4>;
using Wide64x256 = WideTiling<64, 256, 16, 8, 16, 3>;
using Ring64x128 = WideTiling<64, 128, 16, 8, 8, 3>;

/// Lets @p kernel use @p bytes of dynamic shared memory: above 48 KiB a kernel must opt in,
/// up to the device's per-block limit, which is checked first so the error names it.
template <typename Kernel>
void allow_shared_bytes(Kernel kernel, int bytes) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int most = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (bytes > most) {
    throw std::runtime_error("wide-tile kernel: its ring needs " + std::to_string(bytes) +
                             " bytes of shared memory per block; this device allows " +
                             std::to_string(most));
  }
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

/// The kernel for @p Tiling and the float4 paths, allowed its ring (once per kernel).
template <typename Tiling, bool VECTOR_A, bool VECTOR_BC>
auto ready_kernel() {
  constexpr auto kernel = wide_tile_gemm_kernel<Tiling, VECTOR_A, VECTOR_BC>;
  static const bool allowed = (allow_shared_bytes(kernel, Tiling::kSharedBytes), true);
  (void)allowed;
  return kernel;
}

template <typename Tiling>
TileFacts describe(FastVariant variant, double efficiency, double ragged_efficiency) {
  TileFacts facts;
  facts.tile = variant;
  facts.block_rows = Tiling::kBlockRows;
  facts.block_cols = Tiling::kBlockCols;
  facts.depth = Tiling::kDepth;
  facts.threads = Tiling::kThreads;
  facts.efficiency = efficiency;
  facts.ragged_efficiency = ragged_efficiency;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&facts.blocks_per_multiprocessor,
                                                           ready_kernel<Tiling, true, true>(),
                                                           Tiling::kThreads, Tiling::kSharedBytes));
  return facts;
}

template <typename Tiling>
void launch(const float* a, const float* b, float* out, const ProductSizes& sizes, int splits,
            int group_rows, cudaStream_t stream) {
  const int inner_tiles = ceil_div(sizes.inner, Tiling::kDepth);
  const dim3 block(Tiling::kThreads);
  const dim3 grid(ceil_div(sizes.cols, Tiling::kBlockCols),
                  ceil_div(sizes.rows, Tiling::kBlockRows), splits);
  with_float4_paths(a, b, out, sizes, [&](auto vector_a, auto vector_bc) {
    ready_kernel<Tiling, decltype(vector_a)::value,
                 decltype(vector_bc)::value>()<<<grid, block, Tiling::kSharedBytes, stream>>>(
        a, b, out, sizes.rows, sizes.inner, sizes.cols, ceil_div(inner_tiles, splits), group_rows);
    CUDA_CHECK_LAUNCH(wide_tile_gemm_kernel);
  });
}

}  // namespace

TileFacts describe_wide_tile(FastVariant variant, double efficiency, double ragged_efficiency) {
  switch (variant) {
    case FastVariant::bm128_bn256_bk16_t8x16:
      return describe<Wide128x256>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm128_bn256_bk32_t8x16:
      return describe<Wide128x256Deep>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm256_bn128_bk16_t8x16:
      return describe<Wide256x128>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm128_bn128_bk16_t8x16:
      return describe<Wide128x128>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm128_bn128_bk16_t8x8:
      return describe<Ring128x128>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm128_bn256_bk16_t8x16_s4:
      return describe<Wide128x256Ring4>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm64_bn256_bk16_t8x16:
      return describe<Wide64x256>(variant, efficiency, ragged_efficiency);
    case FastVariant::bm64_bn128_bk16_t8x8:
      return describe<Ring64x128>(variant, efficiency, ragged_efficiency);
    default:
      throw std::invalid_argument("wide-tile kernel: " + fast_variant_name(variant) +
                                  " is not a wide tile");
  }
}

void launch_wide_tile(FastVariant variant, const float* a, const float* b, float* out,
                      const ProductSizes& sizes, int splits, int group_rows, cudaStream_t stream) {
  switch (variant) {
    case FastVariant::bm128_bn256_bk16_t8x16:
      return launch<Wide128x256>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm128_bn256_bk32_t8x16:
      return launch<Wide128x256Deep>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm256_bn128_bk16_t8x16:
      return launch<Wide256x128>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm128_bn128_bk16_t8x16:
      return launch<Wide128x128>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm128_bn128_bk16_t8x8:
      return launch<Ring128x128>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm128_bn256_bk16_t8x16_s4:
      return launch<Wide128x256Ring4>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm64_bn256_bk16_t8x16:
      return launch<Wide64x256>(a, b, out, sizes, splits, group_rows, stream);
    case FastVariant::bm64_bn128_bk16_t8x8:
      return launch<Ring64x128>(a, b, out, sizes, splits, group_rows, stream);
    default:
      throw std::invalid_argument("wide-tile kernel: " + fast_variant_name(variant) +
                                  " is not a wide tile");
  }
}

}  // namespace course::step4
