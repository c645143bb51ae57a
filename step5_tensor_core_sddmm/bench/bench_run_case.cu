// Step 5, the benchmark (lesson Part 3): one matrix, every approach, verified.
// Read first: bench.hpp, then sddmm_bench.cu's file comment (what each column measures).
/// @file bench_run_case.cu
/// @brief One case of the benchmark: S pinned and converted once (amortised), cuSPARSE's row,
/// then for each approach its "other", "prep" and kernel times and a check of its result
/// against cuSPARSE's.
#include "bench/bench.hpp"

#include "common/compare.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix_market.hpp"
#include "common/timing.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <utility>

namespace course::step5::bench {
namespace {

/// Verifies @p got against the cuSPARSE result with the fp16 tolerance.
course::CompareResult verify(const std::vector<float>& got, const std::vector<float>& expected,
                             const std::vector<float>& magnitude, const course::CsrMatrix& csr,
                             int inner) {
  const course::Tolerance tolerance = course::Tolerance::tensor_core_fp32_accumulation(inner);
  course::CompareResult result;
  int row = 0;
  for (std::size_t entry = 0; entry < got.size(); ++entry) {
    while (row + 1 < static_cast<int>(csr.row_offsets.size()) &&
           static_cast<std::size_t>(csr.row_offsets[row + 1]) <= entry) {
      ++row;
    }
    const double error = std::fabs(static_cast<double>(got[entry]) - expected[entry]);
    const double allowed = tolerance.absolute + tolerance.relative * magnitude[entry];
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

/// Pins a host vector's memory for the lifetime of the object (cudaHostRegister): uploads
/// from it then run at full bus speed, without a staging copy.
class HostRegistration {
 public:
  HostRegistration(const void* data, std::size_t bytes) {
    if (bytes > 0 &&
        cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterDefault) == cudaSuccess) {
      data_ = const_cast<void*>(data);
    } else if (bytes > 0) {
      cudaGetLastError();  // not pinned: uploads still work, only slower; say so
      std::cerr << "note: could not pin " << bytes << " bytes of S; its upload is pageable\n";
    }
  }
  ~HostRegistration() {
    if (data_ != nullptr) {
      cudaHostUnregister(data_);
    }
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

 private:
  void* data_ = nullptr;
};

template <typename T>
std::size_t vector_bytes(const std::vector<T>& values) {
  return values.size() * sizeof(T);
}

/// Adds a row to the table and echoes it on stderr at once, so a run cut short by a time
/// limit still shows the rows it finished.
class ProgressTable {
 public:
  explicit ProgressTable(course::ResultTable& table) : table_(table) {}
  void add_row(const std::vector<std::string>& cells) {
    std::string line = "|";
    for (const std::string& cell : cells) {
      line += " " + cell + " |";
    }
    std::cerr << line << std::endl;
    table_.add_row(cells);
  }

 private:
  course::ResultTable& table_;
};

/// GFLOP/s of an SDDMM with @p nnz nonzeros and inner dimension @p inner in @p ms.
double gflops(std::size_t nnz, int inner, double ms) {
  return 2.0 * static_cast<double>(nnz) * inner / (ms * 1e6);
}

/// What every approach's run on one case shares: S, its operands and cuSPARSE's figures.
struct CaseInputs {
  const BenchCase& bench_case;
  const course::CsrMatrix& csr;
  course::step5::PatternValues pattern_values;
  const course::step5::DenseOperands& operands;
  const CusparseBaseline& cusparse;
  const std::vector<float>& magnitude;
};

/// Times @p approach on the case and checks its result; returns the row's cells after the
/// approach's name (a refusal or a CUDA error fills them with "-" and a note).
std::vector<std::string> time_approach(const CaseInputs& inputs, course::step5::Approach approach,
                                       const Settings& settings,
                                       course::DeviceBuffer<float>& output, Summary& summary) {
  const BenchCase& bench_case = inputs.bench_case;
  const course::CsrMatrix& csr = inputs.csr;
  const int inner = bench_case.inner;
  const int number = static_cast<int>(approach);
  const std::optional<double>& cusparse_ms = inputs.cusparse.ms;
  try {
    const course::TimingStats other = course::time_host(
        [&] {
          const course::step5::DevicePattern pattern(csr, inputs.pattern_values);
          const course::step5::Plan plan(approach, pattern, inner, settings.options);
        },
        1, settings.other_repeats);
    std::cerr << bench_case.name << " K=" << inner << " approach " << number << ": other min "
              << other.min_ms << " median " << other.median_ms << " max " << other.max_ms
              << " ms\n";
    const course::step5::DevicePattern pattern(csr, inputs.pattern_values);
    const course::TimingStats prep = course::time_host(
        [&] { const course::step5::Plan plan(approach, pattern, inner, settings.options); }, 1,
        settings.other_repeats);
    const course::step5::Plan plan(approach, pattern, inner, settings.options);
    output.poison();
    plan.run(inputs.operands, output.data());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::string check = "no reference";
    if (!inputs.cusparse.expected.empty()) {
      const course::CompareResult result =
          verify(output.to_vector(), inputs.cusparse.expected, inputs.magnitude, csr, inner);
      check = result.ok() ? "ok" : "wrong answer";
      if (!result.ok()) {
        ++summary.failures;
        std::cerr << "wrong answer: " << bench_case.name << " approach " << number << ": "
                  << result.summary() << "\n";
      }
    }
    const course::TimingStats kernel =
        course::time_gpu([&] { plan.run(inputs.operands, output.data()); }, 1, settings.repeats);
    const double ms = kernel.median_ms;
    summary.add(number, cusparse_ms, ms, prep.median_ms, other.median_ms,
                bench_case.name + " K=" + std::to_string(inner));
    return {course::format_fixed(ms, 3),
            course::format_fixed(other.median_ms, 3),
            course::format_fixed(prep.median_ms, 3),
            course::format_fixed(ms + other.median_ms, 3),
            course::format_fixed(gflops(csr.nnz(), inner, ms), 1),
            cusparse_ms ? course::format_fixed(*cusparse_ms / ms, 2) : std::string("-"),
            check};
  } catch (const course::DeviceMemoryError& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return {"-", "-", "-", "-", "-", "-", "refused: out of memory"};
  } catch (const std::length_error& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return {"-", "-", "-", "-", "-", "-", "refused: dense M x N too large"};
  } catch (const std::invalid_argument& error) {
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return {"-", "-", "-", "-", "-", "-", "refused: see log"};
  } catch (const course::CudaError& error) {
    ++summary.failures;
    std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    return {"-", "-", "-", "-", "-", "-", "CUDA error: see log"};
  }
}

}  // namespace

void run_case(const BenchCase& bench_case, const Settings& settings, cusparseHandle_t handle,
              course::ResultTable& result_table, Summary& summary) {
  ProgressTable table(result_table);
  const auto started = std::chrono::steady_clock::now();
  std::string why_not = skip_reason(bench_case, settings);
  std::optional<course::CooMatrix> made;
  if (why_not.empty()) {
    try {
      made = bench_case.make();
    } catch (const course::MatrixMarketError& error) {
      // Malformed past its size line: the case becomes a row saying why; the run goes on.
      why_not = std::string("skipped: ") + error.what();
    }
  }
  if (!why_not.empty()) {
    std::cerr << bench_case.name << ": " << why_not << "\n";
    if (settings.cusparse_row) {  // one row per skipped matrix, in the first pass
      const auto known = [](int size) { return size > 0 ? std::to_string(size) : "-"; };
      table.add_row({bench_case.name, known(bench_case.rows), known(bench_case.cols),
                     std::to_string(bench_case.inner), std::to_string(bench_case.expected_nnz),
                     "all", "-", "-", "-", "-", "-", "-", why_not});
    }
    return;
  }
  const course::CooMatrix sampling = std::move(*made);
  const course::CsrMatrix csr = course::coo_to_csr(sampling);
  const int rows = sampling.rows;
  const int cols = sampling.cols;
  const int inner = bench_case.inner;
  const std::size_t nnz = sampling.nnz();
  const std::uint64_t seed = case_seed(bench_case.name);
  // Amortised, not timed: S's host arrays are pinned once (see sddmm_bench.cu's file comment).
  const HostRegistration pin_rows(sampling.row_indices.data(), vector_bytes(sampling.row_indices));
  const HostRegistration pin_cols(sampling.col_indices.data(), vector_bytes(sampling.col_indices));
  const HostRegistration pin_values(sampling.values.data(), vector_bytes(sampling.values));
  const HostRegistration pin_offsets(csr.row_offsets.data(), vector_bytes(csr.row_offsets));
  const HostRegistration pin_csr_cols(csr.col_indices.data(), vector_bytes(csr.col_indices));
  const HostRegistration pin_csr_values(csr.values.data(), vector_bytes(csr.values));
  // Also amortised, like the CSR conversion: whether S is a pattern matrix (all values one,
  // as a Matrix Market "pattern" file says in its header); then its values are not uploaded.
  const course::step5::PatternValues pattern_values =
      std::all_of(csr.values.begin(), csr.values.end(), [](float value) { return value == 1.0f; })
          ? course::step5::PatternValues::all_ones
          : course::step5::PatternValues::upload;

  // Dense operands: half for our kernels, float copies for cuSPARSE (same values).
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(rows) * inner, "A (half)");
  course::DeviceBuffer<__half> b_transposed(static_cast<std::size_t>(cols) * inner, "Bt (half)");
  course::step5::fill_random_half(a.data(), rows, inner, inner, seed);
  course::step5::fill_random_half(b_transposed.data(), cols, inner, inner, seed + 7);
  const course::step5::DenseOperands operands{
      rows, cols, inner, a.data(), inner, b_transposed.data(), inner};

  const CusparseBaseline cusparse =
      time_cusparse(bench_case.name, settings, handle, csr, a, b_transposed, inner);
  const std::string nnz_text = std::to_string(nnz);
  if (settings.cusparse_row) {
    const std::optional<double>& cusparse_ms = cusparse.ms;
    table.add_row(
        {bench_case.name, std::to_string(rows), std::to_string(cols), std::to_string(inner),
         nnz_text, "cuSPARSE (fp32, " + cusparse.note + ")",
         course::format_optional(cusparse_ms, 3), course::format_optional(cusparse.other_ms, 3),
         "-",
         cusparse_ms && cusparse.other_ms
             ? course::format_fixed(*cusparse_ms + *cusparse.other_ms, 3)
             : std::string("-"),
         cusparse_ms ? course::format_fixed(gflops(nnz, inner, *cusparse_ms), 1) : std::string("-"),
         cusparse_ms ? "1.00" : "-", cusparse_ms ? "reference" : "cuSPARSE failed"});
  }

  std::vector<float> magnitude;
  {
    const course::step5::DevicePattern pattern(sampling);
    course::DeviceBuffer<float> device_magnitude(nnz, "magnitudes");
    course::step5::sampled_magnitude(pattern, operands, device_magnitude.data());
    magnitude = device_magnitude.to_vector();
  }

  course::DeviceBuffer<float> output(nnz, "P");
  const CaseInputs inputs{bench_case, csr, pattern_values, operands, cusparse, magnitude};
  for (const course::step5::Approach approach : settings.approaches) {
    std::vector<std::string> row = {bench_case.name,
                                    std::to_string(rows),
                                    std::to_string(cols),
                                    std::to_string(inner),
                                    nnz_text,
                                    course::step5::approach_name(approach)};
    const std::vector<std::string> cells =
        time_approach(inputs, approach, settings, output, summary);
    row.insert(row.end(), cells.begin(), cells.end());
    table.add_row(row);
  }
  std::cerr << bench_case.name << " K=" << inner << " done in " << seconds_since(started) << " s\n";
}

}  // namespace course::step5::bench
