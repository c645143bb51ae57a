// Step 5, the interface (lesson "Reading path"): the entry points that belong to no approach.
// Read first: step5_launchers.hpp; each approach's launch is in its *_launch.cu, Plan in plan.cu.
/// @file step5_launchers.cu
/// @brief Approach names and numbers, the operand checks that every launch runs, and sddmm(),
/// the one-call preprocess-and-run of the tests and the step program.
#include "step5_launchers.hpp"

#include "common/cuda_check.hpp"

#include <sstream>
#include <stdexcept>
#include <string>

namespace course::step5 {

std::string approach_name(Approach approach) {
  switch (approach) {
    case Approach::warp_per_nonzero:
      return "1 warp/nonzero";
    case Approach::dense_wmma:
      return "2 dense WMMA";
    case Approach::tile_grouped:
      return "3 tile-grouped WMMA";
    case Approach::hybrid:
      return "4 hybrid";
  }
  return "?";
}

Approach approach_from_number(long long number) {
  if (number < 1 || number > kApproachCount) {
    throw std::invalid_argument("approach " + std::to_string(number) +
                                " does not exist; step 5 has approaches 1 to " +
                                std::to_string(kApproachCount));
  }
  return static_cast<Approach>(number);
}

namespace {

/// Throws std::invalid_argument "SDDMM operands: " followed by @p parts. The message is
/// built only here: run() checks the operands on every launch, and an std::ostringstream
/// built up front cost about a microsecond of every launch.
template <typename... Parts>
[[noreturn]] void throw_operand_problem(const Parts&... parts) {
  std::ostringstream problem;
  (problem << ... << parts);
  throw std::invalid_argument("SDDMM operands: " + problem.str());
}

}  // namespace

void check_operands(const DenseOperands& operands) {
  if (operands.rows < 0 || operands.cols < 0 || operands.inner < 0) {
    throw_operand_problem("sizes must not be negative (rows=", operands.rows,
                          ", cols=", operands.cols, ", inner=", operands.inner, ")");
  }
  if (operands.lda < operands.inner || operands.lda < 1) {
    throw_operand_problem("lda=", operands.lda, " must be at least inner=", operands.inner,
                          " and 1");
  }
  if (operands.ldb < operands.inner || operands.ldb < 1) {
    throw_operand_problem("ldb=", operands.ldb, " must be at least inner=", operands.inner,
                          " and 1");
  }
  if ((operands.a == nullptr && operands.rows > 0 && operands.inner > 0) ||
      (operands.b_transposed == nullptr && operands.cols > 0 && operands.inner > 0)) {
    throw_operand_problem("A or Bᵀ is a null pointer for a non-empty matrix");
  }
}

void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options) {
  const Plan plan(approach, pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace course::step5
