/// @file step4_launchers.cu
/// @brief Launch configurations of step 4's kernels, with size validation.
#include "step4_boundary_checks/step4_launchers.hpp"

#include "common/cuda_check.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/rect_tiles.cuh"
#include "step4_boundary_checks/tiled_checked.cuh"
#include "step4_boundary_checks/tiled_unchecked.cuh"

#include <stdexcept>

namespace step4 {
namespace {

void require_pointers(const float* m_matrix, const float* n_matrix, const float* p_matrix,
                      const std::string& approach) {
  if (m_matrix == nullptr || n_matrix == nullptr || p_matrix == nullptr) {
    throw std::invalid_argument(approach + ": M, N and P must be device pointers, not null");
  }
}

ProblemShape checked_shape(const float* m_matrix, const float* n_matrix, const float* p_matrix,
                           int rows, int inner, int cols, int tile_rows,
                           const std::string& approach) {
  require_pointers(m_matrix, n_matrix, p_matrix, approach);
  const ProblemShape shape = validate_shape(rows, inner, cols);
  validate_grid_rows(shape, tile_rows, approach);
  return shape;
}

template <int TILE>
void launch_checked(const float* m_matrix, const float* n_matrix, float* p_matrix,
                    const ProblemShape& shape) {
  const dim3 block(TILE, TILE);
  const dim3 grid(ceil_div(shape.cols, TILE), ceil_div(shape.rows, TILE));
  tiled_checked_kernel<TILE>
      <<<grid, block>>>(m_matrix, n_matrix, p_matrix, shape.rows, shape.inner, shape.cols);
  CUDA_CHECK_LAUNCH(tiled_checked_kernel);
}

template <int TILE>
void launch_unchecked(const float* m_matrix, const float* n_matrix, float* p_matrix,
                      const ProblemShape& shape) {
  const dim3 block(TILE, TILE);
  const dim3 grid(ceil_div(shape.cols, TILE), ceil_div(shape.rows, TILE));
  tiled_unchecked_kernel<TILE>
      <<<grid, block>>>(m_matrix, n_matrix, p_matrix, shape.inner, shape.cols);
  CUDA_CHECK_LAUNCH(tiled_unchecked_kernel);
}

}  // namespace

std::vector<Approach> all_approaches() {
  return {Approach::tiled_checked, Approach::padded, Approach::rect_tiles, Approach::fast};
}

std::string approach_name(Approach approach) {
  switch (approach) {
    case Approach::tiled_checked:
      return "tiled checked 32x32";
    case Approach::padded:
      return "padded + unchecked 32x32";
    case Approach::rect_tiles:
      return "rect tiles 64x16 by 16x64";
    case Approach::fast:
      return "fast (register tiled)";
  }
  return "unknown";
}

Approach approach_from_number(long long number) {
  if (number < 1 || number > 4) {
    throw std::invalid_argument("approach must be 1 (tiled checked), 2 (padded), 3 (rect tiles)" +
                                std::string(" or 4 (fast), got ") + std::to_string(number));
  }
  return static_cast<Approach>(number);
}

void matmul_tiled_checked(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                          int inner, int cols, int tile) {
  const std::string name = "tiled checked (tile " + std::to_string(tile) + ")";
  if (tile != 2 && tile != 16 && tile != 32) {
    throw std::invalid_argument("tiled checked: tile width must be 2, 16 or 32, got " +
                                std::to_string(tile));
  }
  const ProblemShape shape =
      checked_shape(m_matrix, n_matrix, p_matrix, rows, inner, cols, tile, name);
  if (tile == 2) {
    launch_checked<2>(m_matrix, n_matrix, p_matrix, shape);
  } else if (tile == 16) {
    launch_checked<16>(m_matrix, n_matrix, p_matrix, shape);
  } else {
    launch_checked<32>(m_matrix, n_matrix, p_matrix, shape);
  }
}

void matmul_tiled_unchecked(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                            int inner, int cols, int tile) {
  if (tile != 2 && tile != 32) {
    throw std::invalid_argument("tiled unchecked: tile width must be 2 or 32, got " +
                                std::to_string(tile));
  }
  const ProblemShape shape =
      checked_shape(m_matrix, n_matrix, p_matrix, rows, inner, cols, tile, "tiled unchecked");
  if (rows % tile != 0 || inner % tile != 0 || cols % tile != 0) {
    throw std::invalid_argument("tiled unchecked: I, J and K must be multiples of the tile width " +
                                std::to_string(tile) + " (this kernel has no boundary checks), " +
                                "got " + shape.text());
  }
  if (tile == 2) {
    launch_unchecked<2>(m_matrix, n_matrix, p_matrix, shape);
  } else {
    launch_unchecked<32>(m_matrix, n_matrix, p_matrix, shape);
  }
}

void demo_unchecked_tile2(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                          int inner, int cols) {
  const ProblemShape shape =
      checked_shape(m_matrix, n_matrix, p_matrix, rows, inner, cols, 2, "unchecked demo");
  launch_unchecked<2>(m_matrix, n_matrix, p_matrix, shape);  // deliberately no multiple check
}

void matmul_padded(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                   int inner, int cols) {
  PaddedWorkspace workspace;
  matmul_padded(m_matrix, n_matrix, p_matrix, rows, inner, cols, workspace);
}

void matmul_padded(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                   int inner, int cols, PaddedWorkspace& workspace) {
  const ProblemShape shape = checked_shape(m_matrix, n_matrix, p_matrix, rows, inner, cols,
                                           PaddedWorkspace::kTile, "padded tiling");
  workspace.multiply(m_matrix, n_matrix, p_matrix, shape);
}

void matmul_rect_tiles(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                       int inner, int cols) {
  using Tiling = DefaultRectTiling;
  const ProblemShape shape = checked_shape(m_matrix, n_matrix, p_matrix, rows, inner, cols,
                                           Tiling::kTileRows, "rect tiles");
  const dim3 block(Tiling::kBlockCols, Tiling::kBlockRows);
  const dim3 grid(ceil_div(shape.cols, Tiling::kTileCols), ceil_div(shape.rows, Tiling::kTileRows));
  rect_tiles_kernel<Tiling>
      <<<grid, block>>>(m_matrix, n_matrix, p_matrix, shape.rows, shape.inner, shape.cols);
  CUDA_CHECK_LAUNCH(rect_tiles_kernel);
}

void run_approach(Approach approach, const float* m_matrix, const float* n_matrix, float* p_matrix,
                  int rows, int inner, int cols) {
  switch (approach) {
    case Approach::tiled_checked:
      matmul_tiled_checked(m_matrix, n_matrix, p_matrix, rows, inner, cols);
      return;
    case Approach::padded:
      matmul_padded(m_matrix, n_matrix, p_matrix, rows, inner, cols);
      return;
    case Approach::rect_tiles:
      matmul_rect_tiles(m_matrix, n_matrix, p_matrix, rows, inner, cols);
      return;
    case Approach::fast:
      matmul_fast(m_matrix, n_matrix, p_matrix, rows, inner, cols);
      return;
  }
  throw std::invalid_argument("unknown approach");
}

}  // namespace step4
