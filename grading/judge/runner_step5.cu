/// @file runner_step5.cu
/// @brief Step 5's runner: approaches 1 and 3 through the step's interface
/// (step5_launchers.hpp: DevicePattern, DenseOperands, Options, sddmm) and S as a CooMatrix
/// (common/sparse_matrix.hpp). These few names are all the grader uses of step 5.
#include "grading/judge/runner_steps.hpp"

#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <stdexcept>

namespace course::judge {

void run_gemm(const DeviceGemm&) {
  throw std::invalid_argument("step 5 has no dense product");
}

void run_sddmm(const DeviceSddmm& device) {
  const SddmmProduct& p = *device.product;
  if (p.launcher != 1 && p.launcher != 3) {
    throw std::invalid_argument("step 5's runner has approaches 1 and 3");
  }
  course::CooMatrix sampling;
  sampling.rows = p.rows;
  sampling.cols = p.cols;
  sampling.row_indices.assign(p.row.begin(), p.row.end());
  sampling.col_indices.assign(p.col.begin(), p.col.end());
  sampling.values = p.value;
  const course::step5::DevicePattern pattern(sampling);
  course::step5::DenseOperands operands;
  operands.rows = p.rows;
  operands.cols = p.cols;
  operands.inner = p.inner;
  operands.a = device.a;
  operands.lda = p.lda;
  operands.b_transposed = device.b_transposed;
  operands.ldb = p.ldb;
  course::step5::Options options;
  options.tile_ranges = p.variant != 1;
  course::step5::sddmm(p.launcher == 1 ? course::step5::Approach::warp_per_nonzero
                                       : course::step5::Approach::tile_grouped,
                       pattern, operands, device.output, options);
}

}  // namespace course::judge
