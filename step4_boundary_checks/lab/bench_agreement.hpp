/// @file bench_agreement.hpp
/// @brief How step 4's benchmarks decide that a result agrees with cuBLAS's before timing it.
/// Read approach_benchmark.cu or shape_benchmark.cu, which use it.
#pragma once

#include <vector>

namespace course::step4 {

/// @brief Relative tolerance of the agreement check: |got - cuBLAS| <= tol · (|cuBLAS| + rms).
/// Reordered fp32 sums differ by ~1e-6 of rms; one missing term differs by ~1e-2.
constexpr double kAgreementTolerance = 1e-4;

/// @brief The verdict of agree().
struct Agreement {
  double worst = 0.0;  ///< largest |got - ref| / (|ref| + rms(ref)); infinity for NaN
  bool ok = false;     ///< worst <= kAgreementTolerance
};

/// @brief Compares @p got with @p reference element by element (NaN never agrees).
/// @param got the kernel's result
/// @param reference cuBLAS's result, same size
Agreement agree(const std::vector<float>& got, const std::vector<float>& reference);

}  // namespace course::step4
