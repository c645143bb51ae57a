/// @file device_utilities.cuh
/// @brief Small kernels around the SDDMM: random half inputs generated on the GPU, format
/// conversions for the cuSPARSE reference, and the per-nonzero magnitude for tolerances.
///
/// Step 5, tests and benchmark (the lab): small kernels around the SDDMM.
/// Read first: step5_launchers.hpp; device_utilities.cu launches these kernels.
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

/// @brief A well-mixed 64-bit hash (splitmix64's finaliser).
/// @param value input
/// @return hashed value
__host__ __device__ inline std::uint64_t mix64(std::uint64_t value) {
  value += 0x9E3779B97F4A7C15ull;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
  return value ^ (value >> 31);
}

/// @brief matrix(row, col) = uniform in [-1, 1) from hash(seed, row * cols + col); padding
/// columns [cols, ld) = 0. One thread per stored element.
/// @param matrix device matrix
/// @param rows rows
/// @param cols columns
/// @param ld leading dimension
/// @param seed seed
__global__ void fill_random_half_kernel(__half* matrix, int rows, int cols, int ld,
                                        std::uint64_t seed) {
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<std::int64_t>(rows) * ld) {
    return;  // threads past the last element
  }
  const int row = static_cast<int>(index / ld);
  const int col = static_cast<int>(index % ld);
  if (col >= cols) {
    matrix[index] = __float2half(0.0f);  // padding of the leading dimension
    return;
  }
  const std::uint64_t bits = mix64(seed ^ mix64(static_cast<std::uint64_t>(row) * cols + col));
  const float unit = static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);  // [0, 1)
  matrix[index] = __float2half(2.0f * unit - 1.0f);
}

/// @brief output[i] = float(input[i]).
/// @param input halves
/// @param output floats
/// @param count number of elements
__global__ void half_to_float_kernel(const __half* input, float* output, std::int64_t count) {
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index < count) {  // threads past the last element do nothing
    output[index] = __half2float(input[index]);
  }
}

/// @brief output(col, row) = input(row, col), one thread per element.
/// @param input rows×cols
/// @param output cols×rows
/// @param rows rows of input
/// @param cols columns of input
__global__ void transpose_float_kernel(const float* input, float* output, int rows, int cols) {
  const std::int64_t index = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= static_cast<std::int64_t>(rows) * cols) {
    return;  // threads past the last element
  }
  const std::int64_t row = index / cols;
  const std::int64_t col = index % cols;
  output[col * rows + row] = input[index];
}

/// @brief output[e] = |S[e]| · Σ_k |A(row,k)| · |Bᵀ(col,k)|, one thread per nonzero.
/// @param a A
/// @param lda its leading dimension
/// @param b_transposed Bᵀ
/// @param ldb its leading dimension
/// @param inner the inner size (length of each dot product)
/// @param nnz number of nonzeros
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero
/// @param output one float per nonzero
__global__ void magnitude_kernel(const __half* a, int lda, const __half* b_transposed, int ldb,
                                 int inner, std::int64_t nnz, const int* row_indices,
                                 const int* col_indices, const float* values, float* output) {
  const std::int64_t nonzero = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (nonzero >= nnz) {
    return;  // threads past the last nonzero
  }
  const __half* a_row = a + static_cast<std::int64_t>(row_indices[nonzero]) * lda;
  const __half* b_row = b_transposed + static_cast<std::int64_t>(col_indices[nonzero]) * ldb;
  float sum = 0.0f;
  for (int k = 0; k < inner; ++k) {
    sum += fabsf(__half2float(a_row[k])) * fabsf(__half2float(b_row[k]));
  }
  output[nonzero] = fabsf(values[nonzero]) * sum;
}

}  // namespace course::step5
