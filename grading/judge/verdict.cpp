/// @file verdict.cpp
/// @brief The double-precision reference of the judge and its tolerances.

#include "grading/judge/verdict.hpp"

#include "grading/judge/half_float.hpp"

#include <cmath>
#include <sstream>

namespace course::judge {
namespace {

constexpr double kFloatUnitRoundoff = 5.9604644775390625e-08;  // 2^-24
constexpr int kShownMismatches = 4;

struct Reference {
  std::vector<double> value;      // the exact result of the inputs, in double
  std::vector<double> magnitude;  // Σ |terms|: the scale of float rounding
  int inner = 0;
};

Reference gemm_reference(const GemmProduct& product) {
  Reference reference;
  reference.inner = product.inner;
  const std::size_t count = static_cast<std::size_t>(product.rows) * product.cols;
  reference.value.assign(count, 0.0);
  reference.magnitude.assign(count, 0.0);
  for (int row = 0; row < product.rows; ++row) {
    for (int k = 0; k < product.inner; ++k) {
      const double a = product.a[static_cast<std::size_t>(row) * product.inner + k];
      const float* b_row = &product.b[static_cast<std::size_t>(k) * product.cols];
      double* value = &reference.value[static_cast<std::size_t>(row) * product.cols];
      double* magnitude = &reference.magnitude[static_cast<std::size_t>(row) * product.cols];
      for (int col = 0; col < product.cols; ++col) {
        value[col] += a * b_row[col];
        magnitude[col] += std::fabs(a * b_row[col]);
      }
    }
  }
  return reference;
}

Reference sddmm_reference(const SddmmProduct& product) {
  Reference reference;
  reference.inner = product.inner;
  for (std::size_t entry = 0; entry < product.value.size(); ++entry) {
    const std::uint16_t* a = &product.a[static_cast<std::size_t>(product.row[entry]) * product.lda];
    const std::uint16_t* b =
        &product.b_transposed[static_cast<std::size_t>(product.col[entry]) * product.ldb];
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < product.inner; ++k) {
      const double term = half_to_double(a[k]) * half_to_double(b[k]);
      sum += term;
      magnitude += std::fabs(term);
    }
    reference.value.push_back(product.value[entry] * sum);
    reference.magnitude.push_back(std::fabs(product.value[entry]) * magnitude);
  }
  return reference;
}

Reference reference_of(const CaseInputs& inputs, std::size_t index) {
  return index < inputs.gemm.size() ? gemm_reference(inputs.gemm[index])
                                    : sddmm_reference(inputs.sddmm.at(index - inputs.gemm.size()));
}

double relative_tolerance(Compare compare, int inner) {
  if (compare == Compare::exact) {
    return 0.0;
  }
  const double bound = kFloatUnitRoundoff * (8.0 * std::sqrt(std::max(inner, 1)) + 8.0);
  return compare == Compare::tensor_core_fp32 ? 16.0 * bound : bound;
}

std::string describe(const CaseInputs& inputs, std::size_t index) {
  std::ostringstream text;
  if (index < inputs.gemm.size()) {
    const GemmProduct& p = inputs.gemm[index];
    text << "product " << index << " (launcher " << p.launcher
         << (p.variant != 0 ? ", variant " + std::to_string(p.variant) : std::string()) << ", "
         << p.rows << "x" << p.inner << "x" << p.cols << ")";
  } else {
    const SddmmProduct& p = inputs.sddmm[index - inputs.gemm.size()];
    text << "SDDMM " << index << " (approach " << p.launcher << (p.variant != 0 ? " version 1" : "")
         << ", " << p.rows << "x" << p.inner << "x" << p.cols << ", lda " << p.lda << ", "
         << p.value.size() << " nonzeros)";
  }
  return text.str();
}

/// "C(row, col)" for a dense product, "nonzero e at (row, col)" for an SDDMM.
std::string element(const CaseInputs& inputs, std::size_t index, std::size_t position) {
  std::ostringstream text;
  if (index < inputs.gemm.size()) {
    const int cols = inputs.gemm[index].cols;
    text << "C(" << position / cols << ", " << position % cols << ")";
  } else {
    const SddmmProduct& p = inputs.sddmm[index - inputs.gemm.size()];
    text << "nonzero " << position << " at (" << p.row[position] << ", " << p.col[position] << ")";
  }
  return text.str();
}

}  // namespace

ProductVerdict check_product(Compare compare, const CaseInputs& inputs,
                             const std::vector<ProductOutput>& outputs, std::size_t index) {
  ProductVerdict verdict;
  const std::string what = describe(inputs, index);
  if (index >= outputs.size()) {
    verdict.message = what + ": no output (the runner stopped before it)";
    return verdict;
  }
  const ProductOutput& output = outputs[index];
  if (output.status != 0) {
    verdict.message = what + ": the launcher failed (status " + std::to_string(output.status) + ")";
    return verdict;
  }
  const std::size_t expected = expected_values(inputs, index);
  if (output.values.size() != expected) {
    verdict.message = what + ": " + std::to_string(output.values.size()) + " values, expected " +
                      std::to_string(expected);
    return verdict;
  }
  const Reference reference = reference_of(inputs, index);
  const double relative = relative_tolerance(compare, reference.inner);
  std::ostringstream mismatches;
  std::size_t wrong = 0;
  for (std::size_t position = 0; position < expected; ++position) {
    const double got = output.values[position];
    const double allowed = 1e-30 + relative * reference.magnitude[position];
    if (std::fabs(got - reference.value[position]) <= allowed) {
      continue;  // a NaN fails this test and lands below
    }
    if (++wrong <= kShownMismatches) {
      mismatches << "\n  " << element(inputs, index, position) << ": got " << got << ", expected "
                 << reference.value[position] << " (allowed error " << allowed << ")";
    }
  }
  verdict.ok = wrong == 0;
  if (!verdict.ok) {
    verdict.message = what + ": " + std::to_string(wrong) + " of " + std::to_string(expected) +
                      " values wrong" + mismatches.str() +
                      (wrong > kShownMismatches ? "\n  ..." : "");
  }
  return verdict;
}

std::vector<float> reference_values(const CaseInputs& inputs, std::size_t index) {
  const Reference reference = reference_of(inputs, index);
  return std::vector<float>(reference.value.begin(), reference.value.end());
}

}  // namespace course::judge
