#include "common/cpu_reference.hpp"

#include "common/progress.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace course {

void check_inner_dimensions(const HostMatrix<float>& a, const HostMatrix<float>& b) {
  if (a.cols() != b.rows()) {
    throw std::invalid_argument("inner dimensions differ: A is " + std::to_string(a.rows()) + "x" +
                                std::to_string(a.cols()) + " but B is " + std::to_string(b.rows()) +
                                "x" + std::to_string(b.cols()));
  }
}

void matmul_serial(const HostMatrix<float>& a, const HostMatrix<float>& b, HostMatrix<float>& c) {
  check_inner_dimensions(a, b);
  if (c.rows() != a.rows() || c.cols() != b.cols()) {
    c = HostMatrix<float>(a.rows(), b.cols());
  }
  ProgressMeter progress("serial CPU product", static_cast<std::uint64_t>(a.rows()), "rows");
  for (int row = 0; row < a.rows(); ++row) {
    progress.update(static_cast<std::uint64_t>(row));
    for (int col = 0; col < b.cols(); ++col) {
      c(row, col) = 0.0f;
    }
    for (int inner = 0; inner < a.cols(); ++inner) {
      const float a_value = a(row, inner);
      for (int col = 0; col < b.cols(); ++col) {
        c(row, col) += a_value * b(inner, col);
      }
    }
  }
  progress.finish(static_cast<std::uint64_t>(a.rows()));
}

ReferenceProduct matmul_reference(const HostMatrix<float>& a, const HostMatrix<float>& b) {
  check_inner_dimensions(a, b);
  ReferenceProduct result{HostMatrix<double>(a.rows(), b.cols()),
                          HostMatrix<double>(a.rows(), b.cols())};
  ProgressMeter progress("CPU reference product", static_cast<std::uint64_t>(a.rows()), "rows");
  for (int row = 0; row < a.rows(); ++row) {
    progress.update(static_cast<std::uint64_t>(row));
    for (int inner = 0; inner < a.cols(); ++inner) {
      const double a_value = a(row, inner);
      for (int col = 0; col < b.cols(); ++col) {
        const double b_value = b(inner, col);
        result.value(row, col) += a_value * b_value;
        result.magnitude(row, col) += std::fabs(a_value) * std::fabs(b_value);
      }
    }
  }
  progress.finish(static_cast<std::uint64_t>(a.rows()));
  return result;
}

}  // namespace course
