/// @file case_support.hpp
/// @brief The parts of one case's run that the baselines' rows (baseline_rows.cu) and our
/// rows (bench_run_case.cu) share: the inputs and figures of the case, the check of one
/// result against another and the table that echoes rows.
///
/// Step 5, the benchmark (the lab): what one case's rows share.
/// Read first: bench.hpp, baselines.hpp.
#pragma once

#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/compare.hpp"
#include "common/host_sampling.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace course::step5::bench {

/// @brief Digits after the point of every time in ms in the rows (and their CSV): 0.1 µs, so
/// that two kernels of 11 µs or two rounds of one are told apart (with 3 digits, 1 µs, the
/// program against the bench on an 18 µs case read as 5.5 % apart, H200, 2026-11-29 12:29).
constexpr int kMsDigits = 4;

/// @brief What every row of one case shares: S, its operands, the baselines and the checks.
struct CaseInputs {
  const BenchCase& bench_case;                   ///< the matrix and inner
  const course::HostSampling& sampling;          ///< S as the programs upload it
  const course::CsrMatrix& csr;                  ///< S in CSR (sampling's)
  course::PatternValues pattern_values;          ///< whether S is a pattern (all ones)
  const course::step5::DenseOperands& operands;  ///< A and Bᵀ on the device
  const std::vector<float>& magnitude;           ///< Σ|a||b||s| per nonzero, for the tolerance
  BaselineRun fp16;                              ///< cuSPARSE with fp16 A and B
  BaselineRun fp32;                              ///< cuSPARSE with fp32 A and B
  BaselineRun dense;                             ///< dense then sample
  CaseLimit limit;                               ///< the case's LIMIT (approach 4's plan)
  std::vector<float> ours;                       ///< approach 4's result, for the baselines' checks
};

/// @brief The result our rows are checked against: cuSPARSE fp16's, or fp32's where it failed.
/// @param inputs the case
/// @return the result (empty when neither ran)
const std::vector<float>& reference_result(const CaseInputs& inputs);

/// @brief Compares @p got with @p expected entry by entry with the fp16 tolerance relative to
/// @p magnitude (the scale of each sampled value's rounding).
/// @param got the result to check
/// @param expected the result it must agree with
/// @param inputs the case (magnitudes, S for the rows named, inner for the tolerance)
/// @return the comparison
course::CompareResult verify(const std::vector<float>& got, const std::vector<float>& expected,
                             const CaseInputs& inputs);

/// @brief The ratios of a row whose kernel took @p ms: each baseline's time over it, and it
/// over the case's LIMIT.
/// @param inputs the case
/// @param ms the row's median kernel time
/// @return the ratios (the case label and attention flag filled in)
CaseRatios ratios_of(const CaseInputs& inputs, double ms);

/// @brief The five ratio cells of a row (vs cuSPARSE fp16, vs fp32, vs dense, x LIMIT and
/// the bound that sets the LIMIT).
/// @param ratios the ratios
/// @return the cells
std::vector<std::string> ratio_cells(const CaseRatios& ratios);

/// @brief GFLOP/s of an SDDMM with @p nnz nonzeros and inner dimension @p inner in @p ms.
/// @param nnz nonzeros
/// @param inner columns of A and Bᵀ (the dot products' length)
/// @param ms kernel time
/// @return GFLOP/s
double gflops(std::size_t nnz, int inner, double ms);

/// @brief Adds a row to the table and echoes it on stderr at once, so a run cut short by a
/// time limit still shows the rows it finished.
class ProgressTable {
 public:
  /// @brief Wraps @p table.
  /// @param table the benchmark's table
  explicit ProgressTable(course::ResultTable& table) : table_(table) {}
  /// @brief Adds and echoes a row.
  /// @param cells the row
  void add_row(const std::vector<std::string>& cells);

 private:
  course::ResultTable& table_;
};

/// @brief Adds the baselines' rows of a case (cuSPARSE fp16, fp32, dense then sample), each
/// checked against our result; a disagreement counts as a failure in @p summary.
/// @param inputs the case
/// @param table the benchmark's table
/// @param summary the summary's figures
void add_baseline_rows(const CaseInputs& inputs, ProgressTable& table, Summary& summary);

}  // namespace course::step5::bench
