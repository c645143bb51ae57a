/// @file step3_launchers.cu
/// @brief Launch configuration of step 3's shared-memory tiled kernel.

#include "step3_shared_tiling/step3_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/launch_math.hpp"
#include "step3_shared_tiling/tiled_shared.cuh"

#include <sstream>
#include <stdexcept>

namespace course::step3 {
void check_tiled_shared_sizes(const ProductSizes& sizes) {
  const int rows = sizes.rows;
  const int inner = sizes.inner;
  const int cols = sizes.cols;
  std::ostringstream message;
  const auto shape = [&] {
    message << "got A " << rows << "x" << inner << " times B " << inner << "x" << cols;
  };
  if (rows < 1 || inner < 1 || cols < 1 || rows % kTileWidth != 0 || inner % kTileWidth != 0 ||
      cols % kTileWidth != 0) {
    message << "step 3's tiled kernel needs every size to be a positive multiple of the tile "
            << "width " << kTileWidth << " (it loads whole " << kTileWidth << "x" << kTileWidth
            << " tiles and checks no boundary, so other sizes would read and write past the "
            << "matrices), ";
    shape();
    message << ". Step 4 (step4_boundary_checks) adds the boundary checks that handle any "
            << "size.";
  } else if (!fits_int_indexing(rows, inner) || !fits_int_indexing(inner, cols) ||
             !fits_int_indexing(rows, cols)) {
    message << "each matrix must have fewer than 2^31 elements (the kernel indexes with "
            << "int), ";
    shape();
  } else if (ceil_div(rows, kTileWidth) > kMaxGridY) {
    message << "a grid has at most " << kMaxGridY << " block rows, so rows must be at most "
            << kMaxGridY * kTileWidth << ", ";
    shape();
  } else {
    return;
  }
  throw std::invalid_argument(message.str());
}

void launch_tiled_shared(const float* a, const float* b, float* c, const ProductSizes& sizes,
                         cudaStream_t stream) {
  check_tiled_shared_sizes(sizes);
  const dim3 block(kTileWidth, kTileWidth);
  // The sizes are multiples of kTileWidth, so the ceil-division is exact here (and cannot
  // overflow: the largest such int plus kTileWidth - 1 is still an int).
  const dim3 grid(ceil_div(sizes.cols, kTileWidth), ceil_div(sizes.rows, kTileWidth));
  tiled_shared_kernel<kTileWidth><<<grid, block, 0, stream>>>(a, b, c, sizes.inner, sizes.cols);
  CUDA_CHECK_LAUNCH(tiled_shared_kernel);
}

}  // namespace course::step3
