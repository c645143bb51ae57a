#include "common/compare.hpp"

#include <cmath>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace course {
namespace {

constexpr double kFloatUnitRoundoff = 1.0 / (1 << 24);

template <typename A, typename B>
void require_same_shape(const HostMatrix<A>& first, const HostMatrix<B>& second,
                        const char* what) {
  if (first.rows() != second.rows() || first.cols() != second.cols()) {
    std::ostringstream message;
    message << "cannot compare a " << first.rows() << "x" << first.cols() << " result with a "
            << second.rows() << "x" << second.cols() << " " << what;
    throw std::invalid_argument(message.str());
  }
}

}  // namespace

Tolerance Tolerance::fp32_accumulation(int inner) {
  const double terms = inner < 1 ? 1.0 : static_cast<double>(inner);
  return {kFloatUnitRoundoff * (4.0 * std::sqrt(terms) + 4.0), 1e-30};
}

Tolerance Tolerance::tensor_core_fp32_accumulation(int inner) {
  Tolerance tolerance = fp32_accumulation(inner);
  tolerance.relative *= 16.0;
  return tolerance;
}

std::string CompareResult::summary() const {
  std::ostringstream text;
  if (ok()) {
    text << "all " << checked << " elements match (max abs error " << max_abs_error << ")";
    return text.str();
  }
  text << mismatches << " of " << checked << " elements differ";
  for (const Mismatch& item : first) {
    text << "\n  (" << item.row << ", " << item.col << "): got " << item.got << ", expected "
         << item.expected;
  }
  return text.str();
}

template <typename Expected>
CompareResult compare_matrices(const HostMatrix<float>& got, const HostMatrix<Expected>& expected,
                               const HostMatrix<double>& magnitude, Tolerance tolerance,
                               std::size_t max_reported) {
  require_same_shape(got, expected, "reference");
  require_same_shape(got, magnitude, "magnitude matrix");
  CompareResult result;
  for (int row = 0; row < got.rows(); ++row) {
    for (int col = 0; col < got.cols(); ++col) {
      const double value = got(row, col);
      const double want = static_cast<double>(expected(row, col));
      const double error = std::fabs(value - want);
      const double allowed = tolerance.absolute + tolerance.relative * magnitude(row, col);
      ++result.checked;
      if (std::isfinite(error) && error > result.max_abs_error) {
        result.max_abs_error = error;
      }
      if (!(error <= allowed)) {  // written this way so that NaN counts as a mismatch
        if (result.first.size() < max_reported) {
          result.first.push_back({row, col, value, want});
        }
        ++result.mismatches;
      }
    }
  }
  return result;
}

/// @cond EXPLICIT_INSTANTIATIONS
template CompareResult compare_matrices<float>(const HostMatrix<float>&, const HostMatrix<float>&,
                                               const HostMatrix<double>&, Tolerance, std::size_t);
template CompareResult compare_matrices<double>(const HostMatrix<float>&,
                                                const HostMatrix<double>&,
                                                const HostMatrix<double>&, Tolerance, std::size_t);
/// @endcond

CompareResult compare_with_reference(const HostMatrix<float>& got,
                                     const ReferenceProduct& reference, Tolerance tolerance) {
  return compare_matrices(got, reference.value, reference.magnitude, tolerance);
}

CompareResult verify_against_serial(const HostMatrix<float>& a, const HostMatrix<float>& b,
                                    const HostMatrix<float>& got) {
  HostMatrix<float> serial;
  matmul_serial(a, b, serial);
  // The serial product rounds too, so the bound covers two float accumulations.
  HostMatrix<double> magnitude = matmul_reference(a, b).magnitude;
  Tolerance tolerance = Tolerance::fp32_accumulation(a.cols());
  tolerance.relative *= 2.0;
  return compare_matrices(got, serial, magnitude, tolerance);
}

bool report_verification(const CompareResult& result, std::ostream& out) {
  if (result.ok()) {
    out << "DEBUG check: correct, " << result.summary() << " of the serial CPU product\n";
  } else {
    out << "wrong answer\nDEBUG check: " << result.summary() << "\n";
  }
  return result.ok();
}

}  // namespace course
