/// @file baseline_rows.cu
/// @brief One row per baseline (cuSPARSE fp16, cuSPARSE fp32, dense then sample), with the
/// same ratio columns as ours and an agreement check against our approach 4: a baseline that
/// computes something else (another layout of B, a transposed product) is caught here.
///
/// Step 5, the benchmark (the lab): the baselines' rows of one case.
/// Read first: case_support.hpp, baselines.hpp.
#include "step5_tensor_core_sddmm/lab/bench/case_support.hpp"

#include <iostream>

namespace course::step5::bench {
namespace {

/// The check cell of a baseline: its agreement with ours, or why it has none.
std::string agreement(const std::string& label, const BaselineRun& baseline,
                      const CaseInputs& inputs, Summary& summary) {
  if (baseline.result.empty()) {
    return baseline.note.empty() ? "did not run" : baseline.note;
  }
  if (inputs.ours.empty()) {
    return "not checked: approach 4 did not run";
  }
  const course::CompareResult result = verify(baseline.result, inputs.ours, inputs);
  if (result.ok()) {
    return "agrees with ours";
  }
  ++summary.failures;
  std::cerr << "disagreement: " << inputs.bench_case.name << " " << label
            << " vs approach 4: " << result.summary() << "\n";
  return "differs from ours";
}

}  // namespace

void add_baseline_rows(const CaseInputs& inputs, ProgressTable& table, Summary& summary) {
  const BenchCase& bench_case = inputs.bench_case;
  const std::size_t nnz = inputs.csr.nnz();
  const int inner = bench_case.inner;
  const struct {
    std::string label;
    const BaselineRun& run;
  } baselines[] = {
      {"cuSPARSE fp16 (" + inputs.fp16.note + ")", inputs.fp16},
      {"cuSPARSE fp32 (" + inputs.fp32.note + ")", inputs.fp32},
      {"dense then sample (cuBLAS fp16)", inputs.dense},
  };
  for (const auto& baseline : baselines) {
    std::vector<std::string> row = {bench_case.name,
                                    std::to_string(inputs.operands.rows),
                                    std::to_string(inputs.operands.cols),
                                    std::to_string(inner),
                                    std::to_string(nnz),
                                    baseline.label};
    const BaselineRun& run = baseline.run;
    const std::string check = agreement(baseline.label, run, inputs, summary);
    if (!run.ms) {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", check});
      table.add_row(row);
      continue;
    }
    const std::string other = course::format_optional(run.other_ms, kMsDigits);
    const std::string total =
        run.other_ms ? course::format_fixed(*run.ms + *run.other_ms, kMsDigits) : std::string("-");
    row.insert(row.end(), {course::format_fixed(*run.ms, kMsDigits),
                           course::format_optional(run.min_ms, kMsDigits), other, "-", total,
                           course::format_fixed(gflops(nnz, inner, *run.ms), 1)});
    const std::vector<std::string> ratios = ratio_cells(ratios_of(inputs, *run.ms));
    row.insert(row.end(), ratios.begin(), ratios.end());
    row.push_back(check);
    table.add_row(row);
  }
}

}  // namespace course::step5::bench
