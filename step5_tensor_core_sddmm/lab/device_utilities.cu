/// @file device_utilities.cu
/// @brief Launches of the small kernels around the SDDMM: random half inputs, the conversions
/// for the cuSPARSE reference, and the per-nonzero magnitude of the benchmark's tolerance.
///
/// Step 5, tests and benchmark (the lab): inputs and tolerances on the GPU.
/// Read first: device_utilities.cuh (the kernels), step5_launchers.hpp (the declarations).
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/lab/device_utilities.cuh"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/lab/device_utilities.hpp"

#include <cstddef>
#include <cstdint>

namespace course::step5 {

void sampled_magnitude(const DevicePattern& pattern, const DenseOperands& operands, float* output) {
  check_operands(operands);
  if (pattern.nnz() == 0) {
    return;
  }
  magnitude_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      operands.a, operands.lda, operands.b_transposed, operands.ldb, operands.inner, pattern.nnz(),
      pattern.row_indices(), pattern.col_indices(), pattern.values(), output);
  CUDA_CHECK_LAUNCH(magnitude_kernel);
}

void fill_random_half(__half* matrix, int rows, int cols, int ld, std::uint64_t seed) {
  course::check_matrix_shape(rows, cols, ld);
  const std::int64_t count = static_cast<std::int64_t>(rows) * ld;
  if (count == 0) {
    return;
  }
  fill_random_half_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(
      matrix, rows, cols, ld, seed);
  CUDA_CHECK_LAUNCH(fill_random_half_kernel);
}

void convert_half_to_float(const __half* input, float* output, std::size_t count) {
  if (count == 0) {
    return;
  }
  half_to_float_kernel<<<blocks_for(static_cast<std::int64_t>(count), kThreadsPerBlock),
                         kThreadsPerBlock>>>(input, output, static_cast<std::int64_t>(count));
  CUDA_CHECK_LAUNCH(half_to_float_kernel);
}

void transpose_float(const float* input, float* output, int rows, int cols) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  if (count == 0) {
    return;
  }
  transpose_float_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(input, output,
                                                                                    rows, cols);
  CUDA_CHECK_LAUNCH(transpose_float_kernel);
}

}  // namespace course::step5
