/// @file device_utilities.hpp
/// @brief The small GPU helpers that only the benchmark and the experiments use: random half
/// inputs made on the device, the conversions for the cuSPARSE baseline, and the per-nonzero
/// magnitude of the benchmark's tolerance.
///
/// Step 5, the lab (benchmark and experiments): inputs and tolerances made on the GPU.
/// Read first: device_utilities.cuh (the kernels), then device_utilities.cu (their launches).
#pragma once

#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>

namespace course::step5 {

/// @brief Σ_k |A(row_e,k)|·|B(k,col_e)|·|S_e| for every nonzero (CUDA cores, float): the
/// scale of each sampled value's rounding, used by the benchmark's tolerance.
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @param output device array of pattern.nnz() floats
void sampled_magnitude(const DevicePattern& pattern, const DenseOperands& operands, float* output);

/// @brief Fills a device rows×cols half matrix (leading dimension ld) with values uniform in
/// [-1, 1) derived from a hash of (seed, index): big inputs without host-side generation.
/// @param matrix device pointer
/// @param rows number of rows
/// @param cols number of columns
/// @param ld leading dimension (>= cols); the padding is set to zero
/// @param seed seed
void fill_random_half(__half* matrix, int rows, int cols, int ld, std::uint64_t seed);

/// @brief Converts @p count halves to floats on the device (inputs of the fp32 cuSPARSE run).
/// @param input device halves
/// @param output device floats
/// @param count number of elements
void convert_half_to_float(const __half* input, float* output, std::size_t count);

/// @brief Transposes a rows×cols float matrix (row-major, contiguous) on the device.
/// @param input device rows×cols
/// @param output device cols×rows
/// @param rows rows of @p input
/// @param cols columns of @p input
void transpose_float(const float* input, float* output, int rows, int cols);

}  // namespace course::step5
