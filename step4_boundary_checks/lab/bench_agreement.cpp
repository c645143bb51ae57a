/// @file bench_agreement.cpp
/// @brief The benchmarks' agreement check with cuBLAS (see bench_agreement.hpp).
#include "step4_boundary_checks/lab/bench_agreement.hpp"

#include <cmath>
#include <cstddef>

namespace course::step4 {

Agreement agree(const std::vector<float>& got, const std::vector<float>& reference) {
  double sum_squares = 0.0;
  for (float value : reference) {
    sum_squares += static_cast<double>(value) * value;
  }
  const double rms = std::sqrt(sum_squares / static_cast<double>(reference.size()));
  Agreement result;
  for (std::size_t index = 0; index < got.size(); ++index) {
    const double want = reference[index];
    const double error = std::fabs(static_cast<double>(got[index]) - want);
    const double relative = error / (std::fabs(want) + rms + 1e-30);
    if (!(relative <= result.worst)) {  // NaN makes this true and the next line infinite
      result.worst = std::isnan(relative) ? INFINITY : relative;
    }
  }
  result.ok = result.worst <= kAgreementTolerance;
  return result;
}

}  // namespace course::step4
