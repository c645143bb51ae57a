/// @file cpu_reference.hpp
/// @brief CPU matrix products: the plain serial product and the double-precision reference.
///
/// Shapes follow the course's notation: A is rows×inner, B is inner×cols, C is rows×cols,
/// all row-major (for step 4's M, N, P: rows = I, inner = J, cols = K).
#pragma once

#include "common/matrix.hpp"

namespace course {

/// @brief The plain single-threaded product in float, as a student would first write it.
///
/// Used by DEBUG verification and for the benchmarks' "serial" column. The loop order
/// (row, inner, col) streams rows of B, which keeps it cache-friendly without any tricks.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
/// @param c result, rows×cols (resized if its shape differs)
void matmul_serial(const HostMatrix<float>& a, const HostMatrix<float>& b, HostMatrix<float>& c);

/// @brief The product accumulated in double, with the magnitude that bounds its rounding.
struct ReferenceProduct {
  HostMatrix<double> value;      ///< sum over k of a(row,k) * b(k,col), in double
  HostMatrix<double> magnitude;  ///< sum over k of |a(row,k)| * |b(k,col)|, for tolerances
};

/// @brief Independent reference for the tests: accumulates every product in double.
/// @param a left factor, rows×inner
/// @param b right factor, inner×cols
ReferenceProduct matmul_reference(const HostMatrix<float>& a, const HostMatrix<float>& b);

/// @brief Throws std::invalid_argument unless a.cols() == b.rows().
/// @param a left factor
/// @param b right factor
void check_inner_dimensions(const HostMatrix<float>& a, const HostMatrix<float>& b);

}  // namespace course
