/// @file cases.hpp
/// @brief The judge's graded cases: for each, the step, the launchers it runs and how its
/// inputs are drawn from a seed.
///
/// These are the items the grading plan (grading/gradelib/plan.py) weighs; they belong to the
/// judge, not to the steps' Catch2 suites. A case holds one or more products of one step;
/// each product names the launcher (runner_steps.hpp) that must compute it. The inputs are a
/// function of (seed, case name) only, so a run is replayed exactly by its seed.
#pragma once

#include "grading/judge/case_file.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace course::judge {

/// @brief How the outputs of a case are compared with the double-precision reference.
enum class Compare {
  exact,            ///< small integers: every sum is exact in float, so must be equal
  fp32,             ///< float accumulation: |error| <= u·(8√n + 8)·Σ|a·b|
  tensor_core_fp32  ///< half inputs, float accumulation in any order: 16 times fp32's bound
};

/// @brief One graded case of the judge.
struct CaseSpec {
  std::string name;                        ///< the name the plan and the reports use
  std::string step;                        ///< "step1" ... "step5"
  Compare compare;                         ///< how outputs are compared
  CaseInputs (*make)(std::uint64_t seed);  ///< draws the inputs
};

/// @brief Every case, in step order.
/// @return the catalogue
const std::vector<CaseSpec>& case_catalogue();

/// @brief The case named @p name, or nullptr.
/// @param name a case name
/// @return the case
const CaseSpec* find_case(const std::string& name);

/// @brief The inputs of @p spec for the run seed @p seed (the case name is mixed in, so the
/// cases of one run draw different numbers).
/// @param spec the case
/// @param seed the run's seed
/// @return the inputs
CaseInputs generate_case(const CaseSpec& spec, std::uint64_t seed);

/// @brief A file name for a case (letters, digits and '-' only).
/// @param name the case name
/// @return e.g. "step1-small-integers-on-every-side-from-1-to-32"
std::string case_file_stem(const std::string& name);

}  // namespace course::judge
