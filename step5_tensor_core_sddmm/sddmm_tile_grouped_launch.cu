/// @file sddmm_tile_grouped_launch.cu
/// @brief Approach 3's launch: one warp per non-empty tile, 4 warps per block.
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

// The kernel a student writes, named with its step folder so that COURSE_KERNELS can swap
// it (course_add_kernel_library in cmake/Course.cmake).
#include "step5_tensor_core_sddmm/sddmm_tile_grouped.cuh"

namespace course::step5 {
namespace {

constexpr int kTileGroupedWarps = 4;  // 128 threads: many small blocks (the note's lesson)

}  // namespace

void launch_tile_grouped(const TileGroups& groups, bool tile_ranges, const DenseOperands& operands,
                         std::int64_t nnz, float* output, cudaStream_t stream) {
  const bool vector_a = allows_vector_loads(operands.a, operands.lda);
  const bool vector_b = allows_vector_loads(operands.b_transposed, operands.ldb);
  const unsigned blocks = blocks_for(groups.tile_count, kTileGroupedWarps);
  const auto launch = [&](auto kernel) {
    kernel<<<blocks, 32 * kTileGroupedWarps, 0, stream>>>(
        operands, groups.tile_count, groups.tile_cols, groups.tile_keys.data(),
        groups.tile_offsets.data(), static_cast<int>(nnz), groups.sorted_rows.data(),
        groups.sorted_cols.data(), groups.sorted_values.data(), groups.permutation.data(), vector_a,
        vector_b, output);
  };
  if (tile_ranges) {
    launch(sddmm_tile_grouped_kernel<kTileGroupedWarps, true>);
  } else {
    launch(sddmm_tile_grouped_kernel<kTileGroupedWarps, false>);
  }
  CUDA_CHECK_LAUNCH(sddmm_tile_grouped_kernel);
}

}  // namespace course::step5
