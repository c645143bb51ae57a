// Step 5, going further, tests (lesson "Tests"): approach 4 against the CPU reference.
// Read first: ../../tests/approach_checks.hpp (the shared checks), ../hybrid_plan.hpp.
/// @file hybrid_checks.hpp
/// @brief check_hybrid: approach 4 with given options through the shared check of the lesson's
/// tests (check_approach).
#pragma once

#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"

#include <cstdint>

namespace course::step5::testing {

/// Runs approach 4 with @p options on S with fresh random A, Bᵀ (leading dimension ld >=
/// inner) and compares with the CPU reference; the output is poisoned first.
void check_hybrid(const course::CooMatrix& s, int inner, int ld, std::uint64_t seed,
                  const course::step5::HybridOptions& options = {});

/// Options under which even a small S gets Tensor Cores: dense panels and full tiles from
/// the first nonzero.
course::step5::HybridOptions eager_tensor_cores();

}  // namespace course::step5::testing
