/// @file step4_launchers.cu
/// @brief Launch configurations of step 4's kernels, with size validation.
#include "step4_boundary_checks/step4_launchers.hpp"

#include "common/cuda_check.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/rect_tiles.cuh"
#include "step4_boundary_checks/tiled_checked.cuh"
#include "step4_boundary_checks/tiled_unchecked.cuh"

#include <stdexcept>

namespace course::step4 {
namespace {

void require_pointers(const float* a, const float* b, const float* c, const std::string& approach) {
  if (a == nullptr || b == nullptr || c == nullptr) {
    throw std::invalid_argument(approach + ": A, B and C must be device pointers, not null");
  }
}

/// The checks in front of every launch: pointers, sizes (validate_shape) and the grid.
ProductSizes checked_sizes(const float* a, const float* b, const float* c,
                           const ProductSizes& sizes, int tile_rows, const std::string& approach) {
  require_pointers(a, b, c, approach);
  const ProductSizes checked = validate_shape(sizes.rows, sizes.inner, sizes.cols);
  validate_grid_rows(checked, tile_rows, approach);
  return checked;
}

template <int TILE>
void launch_checked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                    cudaStream_t stream) {
  const dim3 block(TILE, TILE);
  const dim3 grid(ceil_div(sizes.cols, TILE), ceil_div(sizes.rows, TILE));
  tiled_checked_kernel<TILE>
      <<<grid, block, 0, stream>>>(a, b, c, sizes.rows, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(tiled_checked_kernel);
}

template <int TILE>
void launch_unchecked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                      cudaStream_t stream) {
  const dim3 block(TILE, TILE);
  const dim3 grid(ceil_div(sizes.cols, TILE), ceil_div(sizes.rows, TILE));
  tiled_unchecked_kernel<TILE><<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(tiled_unchecked_kernel);
}

}  // namespace

void launch_tiled_checked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                          cudaStream_t stream, int tile) {
  const std::string name = "tiled checked (tile " + std::to_string(tile) + ")";
  if (tile != 2 && tile != 16 && tile != 32) {
    throw std::invalid_argument("tiled checked: tile width must be 2, 16 or 32, got " +
                                std::to_string(tile));
  }
  const ProductSizes checked = checked_sizes(a, b, c, sizes, tile, name);
  if (tile == 2) {
    launch_checked<2>(a, b, c, checked, stream);
  } else if (tile == 16) {
    launch_checked<16>(a, b, c, checked, stream);
  } else {
    launch_checked<32>(a, b, c, checked, stream);
  }
}

void launch_tiled_unchecked(const float* a, const float* b, float* c, const ProductSizes& sizes,
                            cudaStream_t stream, int tile) {
  if (tile != 2 && tile != 32) {
    throw std::invalid_argument("tiled unchecked: tile width must be 2 or 32, got " +
                                std::to_string(tile));
  }
  const ProductSizes checked = checked_sizes(a, b, c, sizes, tile, "tiled unchecked");
  if (checked.rows % tile != 0 || checked.inner % tile != 0 || checked.cols % tile != 0) {
    throw std::invalid_argument(
        "tiled unchecked: rows, inner and cols must be multiples of the tile width " +
        std::to_string(tile) + " (this kernel has no boundary checks), got " + checked.text());
  }
  if (tile == 2) {
    launch_unchecked<2>(a, b, c, checked, stream);
  } else {
    launch_unchecked<32>(a, b, c, checked, stream);
  }
}

void launch_unchecked_tile2_demo(const float* a, const float* b, float* c,
                                 const ProductSizes& sizes, cudaStream_t stream) {
  const ProductSizes checked = checked_sizes(a, b, c, sizes, 2, "unchecked demo");
  launch_unchecked<2>(a, b, c, checked, stream);  // deliberately no multiple check
}

void launch_padded(const float* a, const float* b, float* c, const ProductSizes& sizes,
                   cudaStream_t stream) {
  PaddedWorkspace workspace;
  launch_padded(a, b, c, sizes, stream, workspace);
}

void launch_padded(const float* a, const float* b, float* c, const ProductSizes& sizes,
                   cudaStream_t stream, PaddedWorkspace& workspace) {
  const ProductSizes checked =
      checked_sizes(a, b, c, sizes, PaddedWorkspace::kTileWidth, "padded tiling");
  workspace.multiply(a, b, c, checked, stream);
}

void launch_rect_tiles(const float* a, const float* b, float* c, const ProductSizes& sizes,
                       cudaStream_t stream) {
  using Tiling = DefaultRectTiling;
  const ProductSizes checked = checked_sizes(a, b, c, sizes, Tiling::kTileRows, "rect tiles");
  const dim3 block(Tiling::kBlockCols, Tiling::kBlockRows);
  const dim3 grid(ceil_div(checked.cols, Tiling::kTileCols),
                  ceil_div(checked.rows, Tiling::kTileRows));
  rect_tiles_kernel<Tiling>
      <<<grid, block, 0, stream>>>(a, b, c, checked.rows, checked.inner, checked.cols);
  CUDA_CHECK_LAUNCH(rect_tiles_kernel);
}

}  // namespace course::step4
