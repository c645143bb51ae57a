/// @file bench_run_case.cu
/// @brief One case of the benchmark: S pinned and converted once (amortised), the baselines
/// and their rows (baseline_rows.cu), then for each approach its "other", "prep" and kernel
/// times and a check of its result against cuSPARSE fp16's.
///
/// Step 5, the benchmark (the lab): one matrix, the baselines and every approach, verified.
/// Read first: bench.hpp, case_support.hpp, then sddmm_bench.cu's file comment (the columns).
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/lab/bench/case_support.hpp"
#include "step5_tensor_core_sddmm/step5_program.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix_market.hpp"
#include "common/timing.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <stdexcept>
#include <utility>

namespace course::step5::bench {
namespace {

/// Runs @p plan once on a poisoned output and compares it with the case's reference:
/// "ok", "wrong answer" (counted in @p summary and logged) or "no reference".
std::string check_once(const CaseInputs& inputs, const course::step5::SddmmPlan& plan, int number,
                       course::DeviceBuffer<float>& output, Summary& summary) {
  output.poison();
  plan.run(inputs.operands, output.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  if (reference_result(inputs).empty()) {
    return "no reference";
  }
  const course::CompareResult result = verify(output.to_vector(), reference_result(inputs), inputs);
  if (!result.ok()) {
    ++summary.failures;
    std::cerr << "wrong answer: " << inputs.bench_case.name << " approach " << number << ": "
              << result.summary() << "\n";
  }
  return result.ok() ? "ok" : "wrong answer";
}

/// Times @p approach on the case and checks its result; returns the row's cells after the
/// approach's name (a refusal or a CUDA error fills them with "-" and a note).
std::vector<std::string> time_approach(const CaseInputs& inputs,
                                       const course::step5::ApproachEntry& approach,
                                       const Settings& settings,
                                       course::DeviceBuffer<float>& output, Summary& summary) {
  const BenchCase& bench_case = inputs.bench_case;
  const course::CsrMatrix& csr = inputs.csr;
  const int inner = bench_case.inner;
  const int number = approach.number;
  const std::vector<std::string> refused(12, "-");
  const auto with_note = [&](const std::string& note) {
    std::vector<std::string> cells = refused;
    cells.push_back(note);
    return cells;
  };
  try {
    // "other" and the kernel are timed by the program's own functions (step5_program.hpp):
    // the figures of a row are what the programs measure on the same S, with the approach's
    // own upload (ApproachEntry::upload).
    const course::TimingStats other = course::step5::time_preprocessing(
        inputs.sampling, approach, inner, 1, settings.other_repeats);
    std::cerr << bench_case.name << " inner=" << inner << " approach " << number << ": other min "
              << other.min_ms << " median " << other.median_ms << " max " << other.max_ms
              << " ms\n";
    const std::unique_ptr<course::step5::DevicePattern> pattern = approach.upload(inputs.sampling);
    const course::TimingStats prep = course::time_host(
        [&] {
          const std::unique_ptr<course::step5::SddmmPlan> plan =
              approach.make_plan(*pattern, inner);
        },
        1, settings.other_repeats);
    const std::unique_ptr<course::step5::SddmmPlan> plan = approach.make_plan(*pattern, inner);
    const std::string plan_line = plan->describe();
    if (!plan_line.empty()) {
      std::cerr << bench_case.name << " inner=" << inner << " approach " << number << " ("
                << course::pattern_values_name(inputs.sampling.values()) << "): " << plan_line
                << "\n";
    }
    const std::string check = check_once(inputs, *plan, number, output, summary);
    const course::TimingStats kernel =
        course::step5::time_sddmm(*plan, inputs.operands, output.data(), settings.repeats);
    const double ms = kernel.median_ms;
    const CaseRatios ratios = ratios_of(inputs, ms);
    summary.add(number, ratios, ms, prep.median_ms, other.median_ms);
    std::vector<std::string> cells = {course::format_fixed(ms, kMsDigits),
                                      course::format_fixed(kernel.min_ms, kMsDigits),
                                      course::format_fixed(other.median_ms, kMsDigits),
                                      course::format_fixed(prep.median_ms, kMsDigits),
                                      course::format_fixed(ms + other.median_ms, kMsDigits),
                                      course::format_fixed(gflops(csr.nnz(), inner, ms), 1)};
    const std::vector<std::string> ratio_text = ratio_cells(ratios);
    cells.insert(cells.end(), ratio_text.begin(), ratio_text.end());
    cells.push_back(check);
    return cells;
  } catch (const course::DeviceMemoryError& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return with_note("refused: out of memory");
  } catch (const std::length_error& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return with_note("refused: dense rows x cols too large");
  } catch (const std::invalid_argument& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return with_note("refused: see log");
  } catch (const course::CudaError& error) {
    ++summary.failures;
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return with_note("CUDA error: see log");
  }
}

/// Approach 4's result, untimed: what each baseline is checked against (empty if refused).
std::vector<float> our_result(const course::step5::DevicePattern& pattern,
                              const course::step5::DenseOperands& operands,
                              const Settings& settings) {
  try {
    course::DeviceBuffer<float> output(static_cast<std::size_t>(pattern.nnz()), "P (check)");
    output.poison();
    course::step5::sddmm_hybrid(pattern, operands, output.data(), settings.hybrid);
    return output.to_vector();
  } catch (const std::exception& error) {
    std::cerr << "approach 4 for the baselines' check: " << error.what() << "\n";
    return {};
  }
}

/// What approach 4's plan (with the run's options) chooses on the case: the figures the
/// LIMIT column divides (empty when the plan is refused). The combined plan's choice by cost
/// is logged on stderr (which candidate, dense panels, modelled time) for the tuning runs.
course::step5::MaskedPlanFigures plan_figures(const course::step5::DevicePattern& pattern,
                                              int inner, const Settings& settings,
                                              const std::string& case_name) {
  try {
    const course::step5::HybridPlan plan(pattern, inner, settings.hybrid);
    const course::step5::PanelPlan& panels = plan.panel_plan();
    if (!panels.name.empty()) {
      std::cerr << case_name << " inner=" << inner << " panels by cost: " << panels.name << ", "
                << std::count(panels.dense.begin(), panels.dense.end(), 1) << " of "
                << panels.dense.size() << " dense, " << panels.kernels << " kernels, modelled "
                << panels.seconds * 1e3 << " ms\n";
    }
    return plan.masked_figures();
  } catch (const std::exception& error) {
    std::cerr << "approach 4's plan for the LIMIT column: " << error.what() << "\n";
    return {};
  }
}

}  // namespace

std::vector<std::string> table_columns() {
  return {"matrix",
          "rows",
          "cols",
          "inner",
          "nnz",
          "approach",
          "sddmm",
          "min",
          "other",
          "prep",
          "total",
          "GFLOP/s",
          "vs cuSPARSE",
          "vs cuSPARSE fp32",
          "vs dense then sample",
          "x LIMIT",
          "bound",
          "check"};
}

namespace {

/// The case's matrix, or nothing when the case is skipped: then why goes to stderr and, in the
/// first pass, to a row of its own.
std::optional<course::CooMatrix> make_or_skip(const BenchCase& bench_case, const Settings& settings,
                                              ProgressTable& table) {
  std::string why_not = skip_reason(bench_case, settings);
  if (why_not.empty()) {
    try {
      return bench_case.make();
    } catch (const course::MatrixMarketError& error) {
      // Malformed past its size line: the case becomes a row saying why; the run goes on.
      why_not = std::string("skipped: ") + error.what();
    }
  }
  std::cerr << bench_case.name << ": " << why_not << "\n";
  if (settings.baseline_rows) {  // one row per skipped matrix, in the first pass
    const auto known = [](int size) { return size > 0 ? std::to_string(size) : "-"; };
    std::vector<std::string> row = {bench_case.name,
                                    known(bench_case.rows),
                                    known(bench_case.cols),
                                    std::to_string(bench_case.inner),
                                    std::to_string(bench_case.expected_nnz),
                                    "all"};
    row.resize(table_columns().size() - 1, "-");
    row.push_back(why_not);
    table.add_row(row);
  }
  return std::nullopt;
}

/// The case's baselines (cuSPARSE fp16 always; cuSPARSE fp32 and dense then sample in the
/// first pass) and its LIMIT, into @p inputs; in the first pass, their rows.
void time_baselines(CaseInputs& inputs, const Settings& settings, const Libraries& libraries,
                    const course::DeviceBuffer<__half>& a,
                    const course::DeviceBuffer<__half>& b_transposed,
                    const course::step5::DevicePattern& pattern, ProgressTable& table,
                    Summary& summary) {
  const BenchCase& bench_case = inputs.bench_case;
  const int inner = bench_case.inner;
  inputs.fp16 = time_cusparse(bench_case.name, settings, libraries.cusparse, inputs.csr, a,
                              b_transposed, inner, CusparseInputs::fp16);
  if (settings.baseline_rows) {  // the second pass needs only the reference
    if (settings.fp32_baseline) {
      inputs.fp32 = time_cusparse(bench_case.name, settings, libraries.cusparse, inputs.csr, a,
                                  b_transposed, inner, CusparseInputs::fp32);
    } else {
      inputs.fp32.note = "not run (--no-fp32)";
    }
    inputs.dense = time_dense_then_sample(settings, libraries.cublas, pattern, inputs.operands);
  }
  inputs.limit =
      case_limit(plan_figures(pattern, inner, settings, bench_case.name), inputs.csr.rows,
                 inputs.csr.cols, inner, static_cast<std::int64_t>(inputs.csr.nnz()),
                 !inputs.sampling.pattern(), settings.limit_rates);
  if (settings.baseline_rows) {
    inputs.ours = our_result(pattern, inputs.operands, settings);
    add_baseline_rows(inputs, table, summary);
    inputs.ours = {};
  }
}

/// One row per approach of the settings, each timed and checked.
void add_approach_rows(const CaseInputs& inputs, const Settings& settings, ProgressTable& table,
                       Summary& summary) {
  const course::CsrMatrix& csr = inputs.csr;
  course::DeviceBuffer<float> output(csr.nnz(), "C");
  for (const int number : settings.approaches) {
    const course::step5::ApproachEntry approach = approach_entry(number, settings);
    std::vector<std::string> row = {
        inputs.bench_case.name,    std::to_string(csr.rows),
        std::to_string(csr.cols),  std::to_string(inputs.bench_case.inner),
        std::to_string(csr.nnz()), approach.name};
    const std::vector<std::string> cells =
        time_approach(inputs, approach, settings, output, summary);
    row.insert(row.end(), cells.begin(), cells.end());
    table.add_row(row);
  }
}

}  // namespace

void run_case(const BenchCase& bench_case, const Settings& settings, const Libraries& libraries,
              course::ResultTable& result_table, Summary& summary) {
  ProgressTable table(result_table);
  const auto started = std::chrono::steady_clock::now();
  std::optional<course::CooMatrix> made = make_or_skip(bench_case, settings, table);
  if (!made) {
    return;
  }
  // Amortised, not timed (see sddmm_bench.cu's file comment): S converted to CSR and pinned
  // once, and whether it is a pattern, by the class every program uses (host_sampling.hpp).
  const course::HostSampling host_sampling(*made);
  made.reset();
  const course::CsrMatrix& csr = host_sampling.csr();
  const int inner = bench_case.inner;
  // A and Bᵀ from the structure's name: a mask with values gets its pattern twin's operands.
  const std::uint64_t seed = case_seed(
      bench_case.structure.empty() ? bench_case.name : bench_case.structure, settings.seed);
  // Dense operands in half: the same bytes for our kernels, cuSPARSE fp16 and cuBLAS.
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(csr.rows) * inner, "A (half)");
  course::DeviceBuffer<__half> b_transposed(static_cast<std::size_t>(csr.cols) * inner,
                                            "Bt (half)");
  course::step5::fill_random_half(a.data(), csr.rows, inner, inner, seed);
  course::step5::fill_random_half(b_transposed.data(), csr.cols, inner, inner, seed + 7);
  const course::step5::DenseOperands operands(course::ProductSizes{csr.rows, inner, csr.cols},
                                              a.data(), inner, b_transposed.data(), inner);
  const std::unique_ptr<course::step5::DevicePattern> uploaded =
      course::step5::upload_with_panels(host_sampling);
  const course::step5::DevicePattern& pattern = *uploaded;
  std::vector<float> magnitude;
  {
    course::DeviceBuffer<float> device_magnitude(csr.nnz(), "magnitudes");
    course::step5::sampled_magnitude(pattern, operands, device_magnitude.data());
    magnitude = device_magnitude.to_vector();
  }
  CaseInputs inputs{
      bench_case, host_sampling, csr, host_sampling.values(), operands, magnitude, {}, {}, {}, {},
      {}};
  time_baselines(inputs, settings, libraries, a, b_transposed, pattern, table, summary);
  add_approach_rows(inputs, settings, table, summary);
  std::cerr << bench_case.name << " inner=" << inner << " done in " << seconds_since(started)
            << " s\n";
}

}  // namespace course::step5::bench
