// Step 5, going further, tests (lesson "Tests"): approach 4 against the CPU reference.
// Read first: hybrid_checks.hpp.
/// @file hybrid_checks.cpp
/// @brief check_hybrid, and approach 4's registration with the lesson's shared checks:
/// check_all and check_csr_upload also run approach 4, with its defaults and with Tensor
/// Cores even for a small S.
#include "step5_tensor_core_sddmm/going_further/tests/hybrid_checks.hpp"

#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

namespace course::step5::testing {

void check_hybrid(const course::CooMatrix& s, int inner, int ld, std::uint64_t seed,
                  const course::step5::HybridOptions& options) {
  check_approach(course::step5::hybrid_approach(options), s, inner, ld, seed);
}

course::step5::HybridOptions eager_tensor_cores() {
  course::step5::HybridOptions options;
  options.tc_min_nnz = 0;         // dense panels go to Tensor Cores even in a small S
  options.full_tile_min_nnz = 0;  // and full tiles too
  return options;
}

namespace {

/// Approach 4 with its defaults, for every shape of check_all.
const ExtraApproach kHybridDefaults{course::step5::hybrid_approach()};

/// Approach 4 with Tensor Cores from the first nonzero.
ExtraApproach eager_hybrid() {
  course::step5::ApproachEntry entry = course::step5::hybrid_approach(eager_tensor_cores());
  entry.name += " (Tensor Cores even for a small S)";
  return ExtraApproach{entry};
}
const ExtraApproach kHybridEager = eager_hybrid();

}  // namespace

}  // namespace course::step5::testing
