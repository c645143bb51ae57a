/// @file sddmm_bench.cu
/// @brief Benchmark of every step 5 approach against cuSPARSE's fp32 SDDMM, on the note's
/// shapes (uniform random masks of exactly the note's M, N, nnz), a K sweep and the real
/// matrices of a directory.
///
/// Columns: `sddmm` = kernel time (median of --repeats, CUDA events around the launches
/// only); `other` = the preprocessing wall time (median of 21 after one warm-up), the note's
/// "other", defined the same way for every approach and for cuSPARSE: it starts from S on
/// the host and ends when the device is ready to run the kernel, so it includes the upload
/// of S's arrays (ours and cuSPARSE's: CSR offsets and columns; ours also the values unless
/// S is a pattern matrix, whose ones the GPU writes) and all
/// preprocessing (ours: checks of S and the plan; cuSPARSE: descriptors, buffer size,
/// buffer and cusparseSDDMM_preprocess). Amortised outside it, for both sides alike: the
/// host vectors of S are registered once per matrix (cudaHostRegister, so uploads run at
/// full bus speed), and device memory comes from the stream-ordered pool (cudaMallocAsync,
/// kept after the warm-up). The dense A and B uploads are in neither side's "other".
/// `prep` = our preprocessing alone (S already on the device); `total` = sddmm + other;
/// GFLOP/s = 2·nnz·K / sddmm; `vs cuSPARSE` = cuSPARSE's sddmm time / this sddmm time.
/// Approach 2 runs after the others, in a second pass over the matrices (its rows come last).
/// Every result is checked against cuSPARSE's output (times S's values) with the fp16
/// tolerance relative to Σ|a||b|; a failure prints `wrong answer` and the exit status is 1.
#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/sparse_generators.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "cusparse_sddmm.hpp"
#include "step5_launchers.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>
#include <cstddef>
#include <exception>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace {

/// One matrix of the benchmark: a name, how to make S, and K.
struct BenchCase {
  std::string name;
  std::function<course::CooMatrix()> make;
  int inner = 256;
  std::size_t expected_nnz = 0;  // a file: from its size line
  int rows = 0;                  // M (a file: from its size line)
  int cols = 0;                  // N (a file: from its size line)
  bool from_file = false;        // S is read from a Matrix Market file
  std::string problem;           // why the case cannot run (a malformed file); empty when it can
};

struct NoteShape {
  int rows;
  int cols;
  std::size_t nnz;
};

// The note's shapes (M, N, nnz; K = 256).
const std::vector<NoteShape> kNoteShapes = {
    {3000, 7000, 313110},      {2000, 12000, 746000},     {300000, 103000, 69000000},
    {35000, 35000, 422000},    {549000, 549000, 926000},  {426000, 426000, 1000000},
    {37000, 37000, 368000},    {4000, 4000, 88000},       {106000, 106000, 3000000},
    {685000, 685000, 8000000}, {916000, 916000, 5000000}, {326000, 326000, 1000000},
    {197000, 197000, 2000000}, {390000, 390000, 2000000}, {260000, 260000, 4000000},
    {241000, 241000, 561000},  {36000, 36000, 4000000}};

struct Settings {
  std::vector<step5::Approach> approaches;
  int repeats = 10;
  int other_repeats = 21;
  long long max_nnz = 0;
  step5::Options options;
  std::string cusparse_layout = "auto";
  bool cusparse_row = true;  ///< add cuSPARSE's row (false in the second, approach-2 pass)
};

/// Accumulates the figures the summary needs.
struct Summary {
  std::map<int, std::vector<double>> speedups;  // approach -> speedups over cuSPARSE
  std::map<int, double> worst_prep_ratio;       // approach -> max prep / sddmm
  std::map<int, double> worst_other_ratio;      // approach -> max other / sddmm
  std::map<int, std::string> slowest_case;      // approach -> case with the smallest speedup
  std::map<int, double> smallest_speedup;
  int failures = 0;
};

std::uint64_t case_seed(const std::string& name) {
  return std::hash<std::string>{}(name) | 1u;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

/// Why @p bench_case cannot run with @p settings: over --max-nnz, a malformed file, or more
/// memory than the host has available (or the GPU has free) for S, the operands, cuSPARSE's
/// copies and the checks; empty when it can run.
std::string skip_reason(const BenchCase& bench_case, const Settings& settings) {
  if (!bench_case.problem.empty()) {
    return "skipped: " + bench_case.problem;
  }
  if (settings.max_nnz > 0 &&
      bench_case.expected_nnz > static_cast<std::size_t>(settings.max_nnz)) {
    return "skipped (--max-nnz)";
  }
  const auto rows = static_cast<std::uint64_t>(bench_case.rows);
  const auto cols = static_cast<std::uint64_t>(bench_case.cols);
  const auto inner = static_cast<std::uint64_t>(bench_case.inner);
  const auto nnz = static_cast<std::uint64_t>(bench_case.expected_nnz);
  course::MemoryEstimate estimate = course::sampled_product_estimate(
      rows, cols, inner, nnz,
      bench_case.from_file ? course::SamplingSource::file : course::SamplingSource::random_mask,
      false);
  // The benchmark's own: S as CSR, cuSPARSE's result and ours read back, the magnitudes; on
  // the device cuSPARSE's float copies of A and Bᵀ (and B row-major), its CSR and result,
  // the magnitudes and the approach's plan.
  estimate.host("S as CSR", course::saturating_add(course::array_bytes(nnz, 1, 8),
                                                   course::array_bytes(rows + 1, 1, 4)));
  estimate.host("results read back and magnitudes", course::array_bytes(nnz, 3, sizeof(float)));
  estimate.device("A and B in float for cuSPARSE",
                  course::array_bytes(rows + 2 * cols, inner, sizeof(float)));
  estimate.device("cuSPARSE's CSR and result, magnitudes, plan",
                  course::array_bytes(nnz, 1, 12 + 4 + 4 + 16));
  try {
    course::require_memory(estimate, "--max-nnz or --filter leaves it out");
  } catch (const course::OutOfMemoryError& error) {
    return std::string("skipped: ") + error.what();
  }
  return "";
}

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
  // Amortised, not timed: S's host arrays are pinned once (see the file comment).
  const HostRegistration pin_rows(sampling.row_indices.data(), vector_bytes(sampling.row_indices));
  const HostRegistration pin_cols(sampling.col_indices.data(), vector_bytes(sampling.col_indices));
  const HostRegistration pin_values(sampling.values.data(), vector_bytes(sampling.values));
  const HostRegistration pin_offsets(csr.row_offsets.data(), vector_bytes(csr.row_offsets));
  const HostRegistration pin_csr_cols(csr.col_indices.data(), vector_bytes(csr.col_indices));
  const HostRegistration pin_csr_values(csr.values.data(), vector_bytes(csr.values));
  // Also amortised, like the CSR conversion: whether S is a pattern matrix (all values one,
  // as a Matrix Market "pattern" file says in its header); then its values are not uploaded.
  const step5::PatternValues pattern_values =
      std::all_of(csr.values.begin(), csr.values.end(), [](float value) { return value == 1.0f; })
          ? step5::PatternValues::all_ones
          : step5::PatternValues::upload;

  // Dense operands: half for our kernels, float copies for cuSPARSE (same values).
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(rows) * inner, "A (half)");
  course::DeviceBuffer<__half> b_transposed(static_cast<std::size_t>(cols) * inner, "Bt (half)");
  step5::fill_random_half(a.data(), rows, inner, inner, seed);
  step5::fill_random_half(b_transposed.data(), cols, inner, inner, seed + 7);
  const step5::DenseOperands operands{rows, cols, inner, a.data(), inner, b_transposed.data(),
                                      inner};

  std::optional<double> cusparse_ms;
  std::optional<double> cusparse_other_ms;
  std::string cusparse_note;
  std::vector<float> expected;
  {
    course::DeviceBuffer<float> a_float(a.size(), "A (float, cuSPARSE)");
    course::DeviceBuffer<float> bt_float(b_transposed.size(), "Bt (float, cuSPARSE)");
    step5::convert_half_to_float(a.data(), a_float.data(), a.size());
    step5::convert_half_to_float(b_transposed.data(), bt_float.data(), b_transposed.size());
    std::vector<step5::CusparseBLayout> layouts;
    if (settings.cusparse_layout != "row") {
      layouts.push_back(step5::CusparseBLayout::column_major);
    }
    if (settings.cusparse_layout != "col") {
      layouts.push_back(step5::CusparseBLayout::row_major);
    }
    for (const step5::CusparseBLayout layout : layouts) {
      try {
        course::DeviceBuffer<float> b_row_major;
        const float* b = bt_float.data();
        if (layout == step5::CusparseBLayout::row_major) {
          b_row_major = course::DeviceBuffer<float>(bt_float.size(), "B row-major (cuSPARSE)");
          step5::transpose_float(bt_float.data(), b_row_major.data(), cols, inner);
          b = b_row_major.data();
        }
        const course::TimingStats other = course::time_host(
            [&] { step5::CusparseSddmm prepared(handle, csr, a_float.data(), b, inner, layout); },
            1, settings.other_repeats);
        std::cerr << bench_case.name << " K=" << inner << " cuSPARSE: other min " << other.min_ms
                  << " median " << other.median_ms << " max " << other.max_ms << " ms\n";
        step5::CusparseSddmm reference(handle, csr, a_float.data(), b, inner, layout);
        const course::TimingStats kernel =
            course::time_gpu([&] { reference.run(); }, 1, settings.repeats);
        if (!cusparse_ms || kernel.median_ms < *cusparse_ms) {
          cusparse_ms = kernel.median_ms;
          cusparse_other_ms = other.median_ms;
          cusparse_note = step5::layout_name(layout);
          expected = reference.results(csr);
        }
      } catch (const std::exception& error) {
        std::cerr << bench_case.name << ": cuSPARSE with " << step5::layout_name(layout)
                  << " failed: " << error.what() << "\n";
        cudaGetLastError();  // clear a sticky launch error, if any, for the next attempt
      }
    }
  }
  const std::string nnz_text = std::to_string(nnz);
  const auto flops = [&](double ms) { return 2.0 * static_cast<double>(nnz) * inner / (ms * 1e6); };
  if (settings.cusparse_row) {
    table.add_row({bench_case.name, std::to_string(rows), std::to_string(cols),
                   std::to_string(inner), nnz_text, "cuSPARSE (fp32, " + cusparse_note + ")",
                   course::format_optional(cusparse_ms, 3),
                   course::format_optional(cusparse_other_ms, 3), "-",
                   cusparse_ms && cusparse_other_ms
                       ? course::format_fixed(*cusparse_ms + *cusparse_other_ms, 3)
                       : std::string("-"),
                   cusparse_ms ? course::format_fixed(flops(*cusparse_ms), 1) : std::string("-"),
                   cusparse_ms ? "1.00" : "-", cusparse_ms ? "reference" : "cuSPARSE failed"});
  }

  std::vector<float> magnitude;
  {
    const step5::DevicePattern pattern(sampling);
    course::DeviceBuffer<float> device_magnitude(nnz, "magnitudes");
    step5::sampled_magnitude(pattern, operands, device_magnitude.data());
    magnitude = device_magnitude.to_vector();
  }

  course::DeviceBuffer<float> output(nnz, "P");
  for (const step5::Approach approach : settings.approaches) {
    const int number = static_cast<int>(approach);
    std::vector<std::string> row = {
        bench_case.name, std::to_string(rows),          std::to_string(cols), std::to_string(inner),
        nnz_text,        step5::approach_name(approach)};
    try {
      const course::TimingStats other = course::time_host(
          [&] {
            const step5::DevicePattern pattern(csr, pattern_values);
            const step5::Plan plan(approach, pattern, inner, settings.options);
          },
          1, settings.other_repeats);
      std::cerr << bench_case.name << " K=" << inner << " approach " << number << ": other min "
                << other.min_ms << " median " << other.median_ms << " max " << other.max_ms
                << " ms\n";
      const step5::DevicePattern pattern(csr, pattern_values);
      const course::TimingStats prep = course::time_host(
          [&] { const step5::Plan plan(approach, pattern, inner, settings.options); }, 1,
          settings.other_repeats);
      const step5::Plan plan(approach, pattern, inner, settings.options);
      output.poison();
      plan.run(operands, output.data());
      CUDA_CHECK(cudaDeviceSynchronize());
      std::string check = "no reference";
      if (!expected.empty()) {
        const course::CompareResult result =
            verify(output.to_vector(), expected, magnitude, csr, inner);
        check = result.ok() ? "ok" : "wrong answer";
        if (!result.ok()) {
          ++summary.failures;
          std::cerr << "wrong answer: " << bench_case.name << " approach " << number << ": "
                    << result.summary() << "\n";
        }
      }
      const course::TimingStats kernel =
          course::time_gpu([&] { plan.run(operands, output.data()); }, 1, settings.repeats);
      const double ms = kernel.median_ms;
      row.insert(
          row.end(),
          {course::format_fixed(ms, 3), course::format_fixed(other.median_ms, 3),
           course::format_fixed(prep.median_ms, 3), course::format_fixed(ms + other.median_ms, 3),
           course::format_fixed(flops(ms), 1),
           cusparse_ms ? course::format_fixed(*cusparse_ms / ms, 2) : std::string("-"), check});
      if (cusparse_ms) {
        const double speedup = *cusparse_ms / ms;
        summary.speedups[number].push_back(speedup);
        if (!summary.smallest_speedup.count(number) || speedup < summary.smallest_speedup[number]) {
          summary.smallest_speedup[number] = speedup;
          summary.slowest_case[number] = bench_case.name + " K=" + std::to_string(inner);
        }
      }
      summary.worst_prep_ratio[number] =
          std::max(summary.worst_prep_ratio[number], prep.median_ms / ms);
      summary.worst_other_ratio[number] =
          std::max(summary.worst_other_ratio[number], other.median_ms / ms);
    } catch (const course::DeviceMemoryError& error) {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "refused: out of memory"});
      std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    } catch (const std::length_error& error) {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "refused: dense M x N too large"});
      std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    } catch (const std::invalid_argument& error) {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "refused: see log"});
      std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    } catch (const course::CudaError& error) {
      ++summary.failures;
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "CUDA error: see log"});
      std::cerr << bench_case.name << " approach " << number << ": " << error.what() << "\n";
    }
    table.add_row(row);
  }
  std::cerr << bench_case.name << " K=" << inner << " done in " << seconds_since(started) << " s\n";
}

std::vector<BenchCase> note_cases() {
  std::vector<BenchCase> cases;
  for (const NoteShape& shape : kNoteShapes) {
    cases.push_back({course::uniform_mask_name(shape.rows, shape.cols, shape.nnz),
                     [shape] {
                       return course::random_uniform_mask(
                           shape.rows, shape.cols, shape.nnz,
                           case_seed(course::uniform_mask_name(shape.rows, shape.cols, shape.nnz)));
                     },
                     256, shape.nnz, shape.rows, shape.cols, false, ""});
  }
  return cases;
}

std::vector<BenchCase> k_sweep_cases() {
  std::vector<BenchCase> cases;
  const NoteShape shape{37000, 37000, 368000};
  const std::string name = course::uniform_mask_name(shape.rows, shape.cols, shape.nnz);
  for (const int inner : {32, 64, 128, 256, 512, 1024}) {
    cases.push_back({name,
                     [shape, name] {
                       return course::random_uniform_mask(shape.rows, shape.cols, shape.nnz,
                                                          case_seed(name));
                     },
                     inner, shape.nnz, shape.rows, shape.cols, false, ""});
  }
  return cases;
}

std::vector<BenchCase> matrix_cases(const std::string& directory) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(directory)) {
    throw course::UsageError("--matrices " + directory + " is not a directory");
  }
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    const auto ends_with = [&](const std::string& suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (entry.is_regular_file() && (ends_with(".mtx") || ends_with(".mtx.gz"))) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<BenchCase> cases;
  for (const fs::path& file : files) {
    std::string name = file.filename().string();
    name = name.substr(0, name.find(".mtx"));
    // The size line is read now, for --max-nnz and the memory check; a malformed start of
    // the file becomes a row saying why.
    BenchCase bench_case{
        name, [file] { return course::read_matrix_market(file.string()); }, 256, 0, 0, 0, true, ""};
    try {
      const course::MatrixMarketSize size = course::read_matrix_market_size(file.string());
      bench_case.expected_nnz = static_cast<std::size_t>(size.max_nonzeros());
      bench_case.rows = static_cast<int>(size.rows);
      bench_case.cols = static_cast<int>(size.cols);
    } catch (const course::MatrixMarketError& error) {
      bench_case.problem = error.what();
    }
    cases.push_back(bench_case);
  }
  return cases;
}

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0.0;
  for (const double value : values) {
    log_sum += std::log(value);
  }
  return values.empty() ? 0.0 : std::exp(log_sum / static_cast<double>(values.size()));
}

/// The note's experiments that need special settings: block shape of approach 2, COO
/// version 1 against version 2, lanes per nonzero and Tensor Core density of approach 4.
void run_experiments(cusparseHandle_t handle, const Settings& base, std::ostream& out) {
  (void)handle;
  course::ResultTable table({"experiment", "matrix", "setting", "sddmm ms", "other ms", "check"});
  const auto time_setting = [&](const std::string& experiment, const course::CooMatrix& sampling,
                                const std::string& matrix_name, step5::Approach approach,
                                const step5::Options& options, const std::string& setting,
                                int inner) {
    course::DeviceBuffer<__half> a(static_cast<std::size_t>(sampling.rows) * inner, "A");
    course::DeviceBuffer<__half> bt(static_cast<std::size_t>(sampling.cols) * inner, "Bt");
    step5::fill_random_half(a.data(), sampling.rows, inner, inner, 11);
    step5::fill_random_half(bt.data(), sampling.cols, inner, inner, 12);
    const step5::DenseOperands operands{sampling.rows, sampling.cols, inner, a.data(),
                                        inner,         bt.data(),     inner};
    const step5::DevicePattern pattern(sampling);
    course::DeviceBuffer<float> output(sampling.nnz(), "P");
    course::DeviceBuffer<float> check_output(sampling.nnz(), "P check");
    try {
      const auto started = std::chrono::steady_clock::now();
      const step5::Plan plan(approach, pattern, inner, options);
      const double other_ms = seconds_since(started) * 1e3;
      const course::TimingStats kernel =
          course::time_gpu([&] { plan.run(operands, output.data()); }, 1, base.repeats);
      step5::sddmm(step5::Approach::warp_per_nonzero, pattern, operands, check_output.data());
      const std::vector<float> got = output.to_vector();
      const std::vector<float> want = check_output.to_vector();
      double worst = 0.0;
      for (std::size_t index = 0; index < got.size(); ++index) {
        worst = std::max(worst, static_cast<double>(std::fabs(got[index] - want[index])));
      }
      table.add_row({experiment, matrix_name, setting, course::format_fixed(kernel.median_ms, 3),
                     course::format_fixed(other_ms, 3),
                     worst < 1e-2 ? "ok" : "wrong answer (vs approach 1)"});
    } catch (const std::exception& error) {
      table.add_row({experiment, matrix_name, setting, "-", "-", error.what()});
    }
  };
  {
    const course::CooMatrix sampling = course::random_uniform_mask(37000, 37000, 368000, 5);
    for (const auto& [x, y, label] : std::vector<std::tuple<int, int, std::string>>{
             {1, 32, "block 32x32 (1x32 warps)"}, {4, 4, "block 128x4 (4x4 warps)"}}) {
      step5::Options options = base.options;
      options.dense_warps_x = x;
      options.dense_warps_y = y;
      time_setting("approach 2 block shape", sampling, "matrix_37000_37000_368000",
                   step5::Approach::dense_wmma, options, label, 256);
    }
  }
  {
    const course::CooMatrix sampling = course::random_uniform_mask(4000, 4000, 88000, 6);
    for (const bool ranges : {false, true}) {
      step5::Options options = base.options;
      options.tile_ranges = ranges;
      time_setting("approach 3 COO v1 vs v2", sampling, "matrix_4000_4000_88000",
                   step5::Approach::tile_grouped, options,
                   ranges ? "v2: tile range per warp" : "v1: every warp scans all nnz", 256);
    }
  }
  for (const auto& [rows, cols, nnz] : std::vector<std::tuple<int, int, std::size_t>>{
           {3000, 7000, 313110}, {106000, 106000, 3000000}, {36000, 36000, 4000000}}) {
    const course::CooMatrix sampling = course::random_uniform_mask(rows, cols, nnz, 7);
    for (const int lanes : {4, 8, 16, 32}) {
      step5::Options options = base.options;
      options.group_lanes = lanes;
      time_setting("approach 4 lanes per nonzero", sampling,
                   course::uniform_mask_name(rows, cols, nnz), step5::Approach::hybrid, options,
                   std::to_string(lanes) + " lanes", 256);
    }
  }
  {
    // A band of half-width 30 around the diagonal (like bcsstk16: 4884 rows, about 60
    // nonzeros per row): neighbouring rows share columns, so runs of nonzeros per block can
    // find rows of Bᵀ in L1.
    course::CooMatrix banded;
    banded.rows = 4884;
    banded.cols = 4884;
    for (int row = 0; row < banded.rows; ++row) {
      for (int col = std::max(0, row - 30); col <= std::min(banded.cols - 1, row + 30); ++col) {
        banded.row_indices.push_back(row);
        banded.col_indices.push_back(col);
        banded.values.push_back(1.0f);
      }
    }
    std::vector<std::pair<std::string, course::CooMatrix>> matrices;
    matrices.emplace_back("band_4884_61", banded);
    matrices.emplace_back(course::uniform_mask_name(3000, 7000, 313110),
                          course::random_uniform_mask(3000, 7000, 313110, 9));
    matrices.emplace_back(course::uniform_mask_name(36000, 36000, 4000000),
                          course::random_uniform_mask(36000, 36000, 4000000, 10));
    for (const auto& [name, sampling] : matrices) {
      for (const int iterations : {1, 2, 4, 8, 0}) {
        step5::Options options = base.options;
        options.lane_iterations = iterations;
        time_setting("approach 4 runs of nonzeros per block", sampling, name,
                     step5::Approach::hybrid, options,
                     iterations == 0 ? std::string("automatic (default)")
                                     : std::to_string(iterations) + " runs",
                     256);
      }
    }
  }
  for (const auto& [rows, cols, nnz] : std::vector<std::tuple<int, int, std::size_t>>{
           {2048, 1024, 1048576}, {2048, 512, 104857}, {512, 512, 26214}, {8000, 8000, 640000}}) {
    const course::CooMatrix sampling = course::random_uniform_mask(rows, cols, nnz, 8);
    for (const double density : {1.0, 0.25, 0.1, 0.05, 0.02}) {
      step5::Options options = base.options;
      options.tc_density = density;
      options.tc_min_nnz = 0;  // the density alone decides here
      std::ostringstream setting;
      setting << "Tensor Cores from density " << density << (density >= 1.0 ? " (never)" : "");
      time_setting("approach 4 Tensor Core density (tc_min_nnz 0)", sampling,
                   course::uniform_mask_name(rows, cols, nnz), step5::Approach::hybrid, options,
                   setting.str(), 256);
    }
  }
  out << "\n## Experiments\n\n" << table.markdown();
}

int run(int argc, char** argv) {
  std::string shapes = "note";
  bool k_sweep = false;
  bool experiments = false;
  std::string matrices;
  std::string csv_path;
  std::vector<long long> approach_numbers = {1, 2, 3, 4};
  long long repeats = 10;
  long long max_nnz = 0;
  long long group_lanes = 0;
  long long lane_iterations = 0;
  long long tc_min_nnz = step5::Options{}.tc_min_nnz;
  long long dense_limit_log2 = 32;
  double tc_density = step5::Options{}.tc_density;
  std::string cusparse_layout = "auto";
  std::string filter;
  course::ArgParser parser(
      "sddmm_bench",
      "Times the step 5 SDDMM approaches and cuSPARSE's fp32 SDDMM (CSR) on the note's shapes "
      "(uniform masks, K=256), a K sweep and real Matrix Market matrices; verifies every "
      "result against cuSPARSE. Prints Markdown; --csv writes the table.");
  parser.add_text("--shapes", &shapes, "note (the note's 17 shapes) or none");
  parser.add_flag("--ksweep", &k_sweep, "K = 32..1024 on matrix_37000_37000_368000");
  parser.add_flag("--experiments", &experiments,
                  "block shape, COO v1/v2, lanes per nonzero, Tensor Core threshold");
  parser.add_path("--matrices", &matrices, "directory of .mtx/.mtx.gz files to add", true);
  parser.add_path("--csv", &csv_path, "also write the table as CSV to this file");
  parser.add_integer_list("--approaches", &approach_numbers, 1, step5::kApproachCount,
                          "approaches to run, e.g. 1,3,4");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed repeats (median reported)");
  parser.add_integer("--max-nnz", &max_nnz, 0, 1LL << 40, "skip matrices above this nnz (0: none)");
  parser.add_integer(
      "--group-lanes", &group_lanes, 0, 32,
      "approach 4: lanes per nonzero (4, 8, 16, 32; 0: 4 up to K=256, doubling with K)");
  parser.add_integer("--dense-limit-log2", &dense_limit_log2, 10, 40,
                     "approach 2: refuse dense products above 2^this elements");
  parser.add_real("--tc-density", &tc_density, {0.0, 1.0, true},
                  "approach 4: panel density for Tensor Cores");
  parser.add_integer("--tc-min-nnz", &tc_min_nnz, 0, 1LL << 40,
                     "approach 4: Tensor Cores only when dense panels hold this many nonzeros");
  parser.add_integer("--lane-iterations", &lane_iterations, 0, 64,
                     "approach 4: runs of nonzeros per lane-group block (0: automatic)");
  parser.add_text("--filter", &filter, "run only the matrices whose name contains this text");
  parser.add_text("--cusparse-layout", &cusparse_layout, "auto (fastest of both), col or row");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  if (shapes != "note" && shapes != "none") {
    throw course::UsageError("--shapes must be note or none, got '" + shapes + "'");
  }
  if (cusparse_layout != "auto" && cusparse_layout != "col" && cusparse_layout != "row") {
    throw course::UsageError("--cusparse-layout must be auto, col or row, got '" + cusparse_layout +
                             "'");
  }
  if (group_lanes != 0 && group_lanes != 4 && group_lanes != 8 && group_lanes != 16 &&
      group_lanes != 32) {
    throw course::UsageError("--group-lanes must be 0, 4, 8, 16 or 32, got " +
                             std::to_string(group_lanes));
  }
  Settings settings;
  for (const long long number : approach_numbers) {
    settings.approaches.push_back(step5::approach_from_number(number));
  }
  settings.repeats = static_cast<int>(repeats);
  settings.max_nnz = max_nnz;
  settings.cusparse_layout = cusparse_layout;
  settings.options.group_lanes = static_cast<int>(group_lanes);
  settings.options.lane_iterations = static_cast<int>(lane_iterations);
  settings.options.tc_min_nnz = tc_min_nnz;
  settings.options.dense_limit_elements = std::size_t{1} << dense_limit_log2;
  settings.options.tc_density = tc_density;

  // The cases (a file's size line included) are listed before looking for a GPU.
  std::vector<BenchCase> cases;
  if (shapes == "note") {
    cases = note_cases();
  }
  if (k_sweep) {
    const std::vector<BenchCase> sweep = k_sweep_cases();
    cases.insert(cases.end(), sweep.begin(), sweep.end());
  }
  if (!matrices.empty()) {
    const std::vector<BenchCase> real = matrix_cases(matrices);
    cases.insert(cases.end(), real.begin(), real.end());
  }

  if (!filter.empty()) {
    std::vector<BenchCase> kept;
    for (const BenchCase& bench_case : cases) {
      if (bench_case.name.find(filter) != std::string::npos) {
        kept.push_back(bench_case);
      }
    }
    cases = kept;
  }
  course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  // Every vector of 64 KiB or more gets its own pages (mmap), so that pinning one vector's
  // pages (HostRegistration) never overlaps another's: glibc would otherwise raise this
  // threshold after frees and pack big vectors side by side, and a second cudaHostRegister
  // of a shared page fails, leaving that upload on the slow pageable path.
  mallopt(M_MMAP_THRESHOLD, 1 << 16);
  std::cout << course::benchmark_header() << "\n\n"
            << "SDDMM P = S o (A*B): A MxK and B KxN in fp16 (B stored as Bt, N x K row-major), "
               "P fp32; cuSPARSE gets the same values in fp32. Times in ms.\n\n";
  cusparseHandle_t handle = nullptr;
  CUSPARSE_CHECK(cusparseCreate(&handle));
  course::ResultTable table({"matrix", "M", "N", "K", "nnz", "approach", "sddmm", "other", "prep",
                             "total", "GFLOP/s", "vs cuSPARSE", "check"});
  Summary summary;
  // Approach 2 runs last, in a pass of its own: on the H200, after it freed a dense product
  // of several GB, every preprocessing measured next (ours and cuSPARSE's) took a fixed
  // 1.09 ms more for a while, which is not the cost of the next matrix.
  Settings first_pass = settings;
  first_pass.approaches.erase(std::remove(first_pass.approaches.begin(),
                                          first_pass.approaches.end(), step5::Approach::dense_wmma),
                              first_pass.approaches.end());
  for (const BenchCase& bench_case : cases) {
    run_case(bench_case, first_pass, handle, table, summary);
  }
  if (first_pass.approaches.size() < settings.approaches.size()) {
    Settings dense_pass = settings;
    dense_pass.approaches = {step5::Approach::dense_wmma};
    dense_pass.cusparse_row = false;  // cuSPARSE runs again for the ratio, without a new row
    for (const BenchCase& bench_case : cases) {
      run_case(bench_case, dense_pass, handle, table, summary);
    }
  }
  std::cout << table.markdown() << "\n";
  if (!csv_path.empty()) {
    table.write_csv(csv_path);
  }
  std::cout << "## Summary\n\n| approach | rows | geomean speedup vs cuSPARSE | smallest (case) | "
               "max prep/sddmm | max other/sddmm |\n|---|---|---|---|---|---|\n";
  for (const auto& [number, speedups] : summary.speedups) {
    std::cout << "| " << step5::approach_name(static_cast<step5::Approach>(number)) << " | "
              << speedups.size() << " | " << course::format_fixed(geometric_mean(speedups), 2)
              << " | " << course::format_fixed(summary.smallest_speedup[number], 2) << " ("
              << summary.slowest_case[number] << ") | "
              << course::format_fixed(summary.worst_prep_ratio[number], 2) << " | "
              << course::format_fixed(summary.worst_other_ratio[number], 2) << " |\n";
  }
  if (experiments) {
    run_experiments(handle, settings, std::cout);
  }
  cusparseDestroy(handle);
  if (summary.failures > 0) {
    std::cout << "\nwrong answer: " << summary.failures << " results differ from cuSPARSE\n";
    return 1;
  }
  return 0;
}

}  // namespace

/// @brief Runs the SDDMM benchmark: every approach and cuSPARSE on the chosen matrices.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error or a wrong result
int main(int argc, char** argv) {
  return course::run_program("sddmm_bench", [&] { return run(argc, argv); });
}
