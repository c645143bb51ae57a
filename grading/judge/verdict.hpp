/// @file verdict.hpp
/// @brief The judge's reference (double precision, on the CPU) and its comparison with what
/// the runner wrote.
#pragma once

#include "grading/judge/case_file.hpp"
#include "grading/judge/cases.hpp"

#include <string>
#include <vector>

namespace course::judge {

/// @brief The verdict on one product of a case.
struct ProductVerdict {
  bool ok = false;      ///< every value within the tolerance, status 0, nothing missing
  std::string message;  ///< what is wrong (the first mismatches), empty when ok
};

/// @brief Compares product @p index of the runner's @p outputs with the reference computed
/// from @p inputs (the judge's own copy).
/// @param compare the case's comparison
/// @param inputs the case's inputs
/// @param outputs what the runner wrote (may be short: a product it never reached fails)
/// @param index the product
/// @return the verdict
ProductVerdict check_product(Compare compare, const CaseInputs& inputs,
                             const std::vector<ProductOutput>& outputs, std::size_t index);

/// @brief The reference values of product @p index, rounded to float: what an exact kernel
/// would write (the judge's self-test feeds them back as a runner's outputs).
/// @param inputs the case
/// @param index the product
/// @return rows·cols or nnz values
std::vector<float> reference_values(const CaseInputs& inputs, std::size_t index);

}  // namespace course::judge
