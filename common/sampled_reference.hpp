/// @file sampled_reference.hpp
/// @brief The CPU reference of a sampled product (step 5's SDDMM) in double, the comparison
/// of a GPU result with it, and the half-precision operands it takes.
///
/// The reference takes the same half-precision inputs as the GPU (already rounded to fp16),
/// converts each to double and accumulates in double, so its only difference from the exact
/// product of the rounded inputs is double rounding, far below the tolerance.
#pragma once

#include "common/compare.hpp"
#include "common/matrix.hpp"
#include "common/sparse_matrix.hpp"

#include <cuda_fp16.h>

#include <cstdint>
#include <vector>
#include <cstddef>

namespace course {

/// @brief Reference values and magnitudes, one per nonzero of S, in S's order.
struct SampledReference {
  std::vector<double> value;      ///< S[e] · Σ_k A(row,k) · Bᵀ(col,k), in double
  std::vector<double> magnitude;  ///< |S[e]| · Σ_k |A(row,k)| · |Bᵀ(col,k)|, for tolerances
};

/// @brief The reference SDDMM on the host.
/// @param a A, rows×inner (HostMatrix may have ld > inner)
/// @param b_transposed Bᵀ, cols×inner
/// @param sampling S, rows×cols (any order of entries)
/// @return the reference
/// @throws std::invalid_argument when the shapes disagree or S is invalid
SampledReference sddmm_reference(const HostMatrix<__half>& a,
                                 const HostMatrix<__half>& b_transposed, const CooMatrix& sampling);

/// @brief Compares one float per nonzero with the reference; a Mismatch names the nonzero's
/// row and column in S.
/// @param got GPU result, S's order
/// @param reference result of sddmm_reference for the same inputs
/// @param sampling S
/// @param tolerance allowed error, relative to the magnitude
/// @return the comparison (NaN counts as a mismatch)
CompareResult compare_sampled(const std::vector<float>& got, const SampledReference& reference,
                              const CooMatrix& sampling, Tolerance tolerance);

/// @brief A rows×cols half matrix (leading dimension ld) with values uniform in [-1, 1),
/// rounded to half; the padding columns are zero.
/// @param rows rows
/// @param cols columns
/// @param ld leading dimension (0: cols)
/// @param seed generator seed
/// @return the matrix
HostMatrix<__half> random_half_matrix(int rows, int cols, int ld, std::uint64_t seed);

}  // namespace course
