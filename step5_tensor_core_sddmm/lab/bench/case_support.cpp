/// @file case_support.cpp
/// @brief The check of one result against another, the ratios of a row, the echoing table (see
/// case_support.hpp), and the approaches by number (bench.hpp).
///
/// Step 5, the benchmark (the lab): what one case's rows share.
/// Read first: case_support.hpp.
#include "step5_tensor_core_sddmm/lab/bench/case_support.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace course::step5::bench {

course::step5::ApproachEntry approach_entry(int number, const Settings& settings) {
  if (number == course::step5::kHybridApproach) {
    return course::step5::hybrid_approach(settings.hybrid);
  }
  return course::step5::lesson_approaches(settings.options)
      .at(static_cast<std::size_t>(course::step5::approach_from_number(number)) - 1);
}

std::string approach_label(int number) {
  return approach_entry(number, Settings{}).name;
}

const std::vector<float>& reference_result(const CaseInputs& inputs) {
  return inputs.fp16.result.empty() ? inputs.fp32.result : inputs.fp16.result;
}

course::CompareResult verify(const std::vector<float>& got, const std::vector<float>& expected,
                             const CaseInputs& inputs) {
  const course::CsrMatrix& csr = inputs.csr;
  const course::Tolerance tolerance =
      course::Tolerance::tensor_core_fp32_accumulation(inputs.bench_case.inner);
  course::CompareResult result;
  int row = 0;
  for (std::size_t entry = 0; entry < got.size(); ++entry) {
    while (row + 1 < static_cast<int>(csr.row_offsets.size()) &&
           static_cast<std::size_t>(csr.row_offsets[row + 1]) <= entry) {
      ++row;
    }
    const double error = std::fabs(static_cast<double>(got[entry]) - expected[entry]);
    const double allowed = tolerance.absolute + tolerance.relative * inputs.magnitude[entry];
    ++result.checked;
    if (std::isfinite(error)) {
      result.max_abs_error = std::max(result.max_abs_error, error);
    }
    if (!(error <= allowed)) {
      if (result.first.size() < 3) {
        result.first.push_back({row, csr.col_indices[entry], got[entry], expected[entry]});
      }
      ++result.mismatches;
    }
  }
  return result;
}

CaseRatios ratios_of(const CaseInputs& inputs, double ms) {
  CaseRatios ratios;
  const BenchCase& bench_case = inputs.bench_case;
  const std::string inner = " inner=" + std::to_string(bench_case.inner);
  ratios.case_label = bench_case.name + inner;
  ratios.structure_label =
      (bench_case.structure.empty() ? bench_case.name : bench_case.structure) + inner;
  ratios.valued = !inputs.sampling.pattern();
  ratios.set = inputs.bench_case.set;
  ratios.attention = inputs.bench_case.attention;
  const auto over = [ms](const BaselineRun& baseline) -> std::optional<double> {
    return baseline.ms ? std::optional<double>(*baseline.ms / ms) : std::nullopt;
  };
  ratios.vs_fp16 = over(inputs.fp16);
  ratios.vs_fp32 = over(inputs.fp32);
  ratios.vs_dense = over(inputs.dense);
  ratios.ms = ms;
  ratios.limit_ms = inputs.limit.seconds() * 1e3;
  ratios.limit_multiple = ms / ratios.limit_ms;
  ratios.limit_bound = inputs.limit.bound();
  return ratios;
}

std::vector<std::string> ratio_cells(const CaseRatios& ratios) {
  return {course::format_optional(ratios.vs_fp16, 2), course::format_optional(ratios.vs_fp32, 2),
          course::format_optional(ratios.vs_dense, 2),
          course::format_fixed(ratios.limit_multiple, 2), ratios.limit_bound};
}

double gflops(std::size_t nnz, int inner, double ms) {
  return 2.0 * static_cast<double>(nnz) * inner / (ms * 1e6);
}

void ProgressTable::add_row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const std::string& cell : cells) {
    line += " " + cell + " |";
  }
  std::cerr << line << std::endl;
  table_.add_row(cells);
}

}  // namespace course::step5::bench
