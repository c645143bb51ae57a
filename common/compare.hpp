/// @file compare.hpp
/// @brief Result comparison with a tolerance that scales with the inner dimension and the
/// magnitude of the terms, and the DEBUG-mode verification that prints `wrong answer`.
#pragma once

#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// @brief Allowed error: |got - expected| <= absolute + relative * magnitude, where
/// magnitude is the sum of |a_k| |b_k| over the dot product (the scale of its rounding).
struct Tolerance {
  double relative = 0.0;  ///< multiplies the magnitude of the dot product
  double absolute = 0.0;  ///< floor, for results near zero

  /// @brief Bit-exact comparison (for small-integer inputs).
  static Tolerance exact() { return {0.0, 0.0}; }

  /// @brief Float accumulation of @p inner products in any order: grows like sqrt(inner)
  /// unit roundoffs (with a safety factor of 4) plus a constant.
  /// @param inner length of each dot product
  static Tolerance fp32_accumulation(int inner);

  /// @brief Half-precision inputs already rounded in the reference, fp32 accumulation on
  /// Tensor Cores (looser than fp32_accumulation by a factor of 16).
  /// @param inner length of each dot product
  static Tolerance tensor_core_fp32_accumulation(int inner);
};

/// @brief One element that differs from the reference.
struct Mismatch {
  int row = 0;            ///< row of the element
  int col = 0;            ///< column of the element
  double got = 0.0;       ///< value computed by the kernel
  double expected = 0.0;  ///< reference value
};

/// @brief Outcome of a comparison: counts and the first few mismatches.
struct CompareResult {
  std::size_t checked = 0;           ///< elements compared
  std::size_t mismatches = 0;        ///< elements outside the tolerance (NaN included)
  double max_abs_error = 0.0;        ///< largest |got - expected| among finite values
  std::vector<Mismatch> first;       ///< up to max_reported mismatches, in row-major order

  /// @brief True when no element differs.
  bool ok() const { return mismatches == 0; }
  /// @brief One line, or several lines with the first mismatches, for messages.
  std::string summary() const;
};

/// @brief Compares @p got with @p expected element by element.
/// @tparam Expected float or double
/// @param got computed matrix
/// @param expected reference of the same shape
/// @param magnitude sum of |a||b| for each element (same shape), scales the tolerance
/// @param tolerance allowed error
/// @param max_reported how many mismatches to keep in CompareResult::first
template <typename Expected>
CompareResult compare_matrices(const HostMatrix<float>& got, const HostMatrix<Expected>& expected,
                               const HostMatrix<double>& magnitude, Tolerance tolerance,
                               std::size_t max_reported = 5);

/// @brief Compares a GPU product with the double reference (the tests' check).
/// @param got computed product
/// @param reference result of matmul_reference
/// @param tolerance allowed error
CompareResult compare_with_reference(const HostMatrix<float>& got,
                                     const ReferenceProduct& reference, Tolerance tolerance);

/// @brief DEBUG verification: recomputes a·b with matmul_serial and compares with @p got.
/// @param a left factor
/// @param b right factor
/// @param got the GPU's product
CompareResult verify_against_serial(const HostMatrix<float>& a, const HostMatrix<float>& b,
                                    const HostMatrix<float>& got);

/// @brief Prints the DEBUG verdict: `wrong answer` with the first mismatches, or a line
/// saying every element matches. Returns result.ok().
/// @param result outcome of verify_against_serial
/// @param out stream to print to
bool report_verification(const CompareResult& result, std::ostream& out);

}  // namespace course
