/// @file sampled_reference.cpp
/// @brief CPU reference SDDMM and the per-nonzero comparison.
#include "common/sampled_reference.hpp"

#include "common/random_fill.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace course {

SampledReference sddmm_reference(const HostMatrix<__half>& a,
                                 const HostMatrix<__half>& b_transposed,
                                 const CooMatrix& sampling) {
  validate(sampling);
  if (a.rows() != sampling.rows || b_transposed.rows() != sampling.cols ||
      a.cols() != b_transposed.cols()) {
    std::ostringstream message;
    message << "SDDMM reference: A is " << a.rows() << "x" << a.cols() << ", Bᵀ is "
            << b_transposed.rows() << "x" << b_transposed.cols() << " and S is " << sampling.rows
            << "x" << sampling.cols << "; need A rows×inner, Bᵀ cols×inner, S rows×cols";
    throw std::invalid_argument(message.str());
  }
  const int inner = a.cols();
  SampledReference reference;
  reference.value.resize(sampling.nnz());
  reference.magnitude.resize(sampling.nnz());
  for (std::size_t entry = 0; entry < sampling.nnz(); ++entry) {
    const int row = sampling.row_indices[entry];
    const int col = sampling.col_indices[entry];
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < inner; ++k) {
      const double a_value = static_cast<double>(__half2float(a(row, k)));
      const double b_value = static_cast<double>(__half2float(b_transposed(col, k)));
      sum += a_value * b_value;
      magnitude += std::fabs(a_value * b_value);
    }
    const double scale = static_cast<double>(sampling.values[entry]);
    reference.value[entry] = scale * sum;
    reference.magnitude[entry] = std::fabs(scale) * magnitude;
  }
  return reference;
}

CompareResult compare_sampled(const std::vector<float>& got, const SampledReference& reference,
                              const CooMatrix& sampling, Tolerance tolerance) {
  if (got.size() != sampling.nnz() || reference.value.size() != sampling.nnz() ||
      reference.magnitude.size() != sampling.nnz()) {
    throw std::invalid_argument("compare_sampled: " + std::to_string(got.size()) + " results and " +
                                std::to_string(reference.value.size()) + " reference values for " +
                                std::to_string(sampling.nnz()) + " nonzeros");
  }
  constexpr std::size_t kReported = 5;
  CompareResult result;
  for (std::size_t entry = 0; entry < got.size(); ++entry) {
    const double value = got[entry];
    const double expected = reference.value[entry];
    const double error = std::fabs(value - expected);
    const double allowed = tolerance.absolute + tolerance.relative * reference.magnitude[entry];
    ++result.checked;
    if (std::isfinite(error) && error > result.max_abs_error) {
      result.max_abs_error = error;
    }
    if (!(error <= allowed)) {  // NaN (a poisoned, unwritten result) counts as a mismatch
      if (result.first.size() < kReported) {
        result.first.push_back(
            {sampling.row_indices[entry], sampling.col_indices[entry], value, expected});
      }
      ++result.mismatches;
    }
  }
  return result;
}

HostMatrix<__half> random_half_matrix(int rows, int cols, int ld, std::uint64_t seed) {
  HostMatrix<float> values(rows, cols, ld);
  fill_uniform(values, seed);
  HostMatrix<__half> matrix(rows, cols, ld);
  for (int row = 0; row < rows; ++row) {
    for (int col = 0; col < matrix.ld(); ++col) {
      matrix(row, col) = __float2half(col < cols ? values(row, col) : 0.0f);
    }
  }
  return matrix;
}

}  // namespace course
