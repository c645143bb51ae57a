// Step 5, the benchmark (lesson Part 3): the program sddmm_bench.
// Read first: step5_launchers.hpp (the API it times), then bench.hpp (its parts).
/// @file sddmm_bench.cu
/// @brief Benchmark of every step 5 approach against three baselines on the same inputs, on
/// the note's shapes (uniform random masks of exactly the note's rows, cols, nnz), an inner sweep,
/// the real matrices of a directory and the attention masks (`--attention`).
///
/// The baselines, each a row of its own before ours: cuSPARSE's SDDMM with fp16 A and B (fp32
/// output and compute; the reference every speedup is quoted against, since it reads the same
/// bytes as our kernels); cuSPARSE with fp32 A and B (the same values, twice the bytes); and
/// "dense then sample", cuBLAS's fp16 Tensor Core GEMM of the whole rows×cols product and a gather
/// at the nonzeros (skipped, with the reason, where the product does not fit on the device).
/// Each baseline's result is checked against our approach 4's (`agrees with ours`), so a
/// baseline that computes something else is caught.
///
/// Columns: `sddmm` = kernel time (median of --repeats, CUDA events around the launches
/// only), `min` = the fastest repeat; `other` = the preprocessing wall time (median of
/// --other-repeats after one warm-up), the note's "other", defined the same way for every
/// approach and for cuSPARSE: it starts from S on the host and ends when the device is ready
/// to run the kernel, so it includes the upload of S's arrays (ours and cuSPARSE's: CSR
/// offsets and columns; ours also the values unless S is a pattern matrix, whose ones the GPU
/// writes) and all preprocessing (ours: checks of S and the plan; cuSPARSE: descriptors,
/// buffer size, buffer and cusparseSDDMM_preprocess). Amortised outside it, for both sides
/// alike: the host vectors of S are registered once per matrix (cudaHostRegister, so uploads
/// run at full bus speed), and device memory comes from the stream-ordered pool
/// (cudaMallocAsync, kept after the warm-up). The dense A and B uploads are in neither side's
/// "other"; dense then sample has no "other" (nothing depends on S before its kernels).
/// `prep` = our preprocessing alone (S already on the device); `total` = sddmm + other;
/// GFLOP/s = 2·nnz·inner / sddmm; `vs cuSPARSE` = cuSPARSE fp16's sddmm time / this sddmm time;
/// `vs cuSPARSE fp32` and `vs dense then sample` likewise; `x SOL` = this sddmm time / the
/// speed-of-light time: the least bytes that must move (A and Bᵀ once in fp16, S's offsets
/// and columns, its values unless a pattern, the nnz fp32 outputs) at the device-to-device
/// copy bandwidth measured at start-up (printed above the table).
/// Approach 2 runs after the others, in a second pass over the matrices (its rows come last).
/// Every result is checked against cuSPARSE fp16's output (times S's values) with the fp16
/// tolerance relative to Σ|a||b|; a failure prints `wrong answer` and the exit status is 1.
///
/// The parts: the matrices in bench_cases.cpp and attention_cases.cpp, the baselines in
/// cusparse_baseline.cu, dense_then_sample.cu and speed_of_light.cu, their rows in
/// baseline_rows.cu, ours in bench_run_case.cu, the summary in bench_summary.cpp,
/// `--experiments` in bench_experiments.cu. This file reads the command line and runs them.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/cli.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/table.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::step5::bench::BenchCase;
using course::step5::bench::Libraries;
using course::step5::bench::print_summary;
using course::step5::bench::run_case;
using course::step5::bench::run_experiments;
using course::step5::bench::Settings;
using course::step5::bench::Summary;

int run(int argc, char** argv) {
  std::string shapes = "note";
  bool k_sweep = false;
  bool experiments = false;
  bool attention = false;
  long long other_repeats = 21;
  std::string matrices;
  std::string csv_path;
  std::vector<long long> approach_numbers = {1, 2, 3, 4};
  long long repeats = 10;
  long long max_nnz = 0;
  long long group_lanes = 0;
  long long lane_iterations = 0;
  long long tc_min_nnz = course::step5::HybridOptions{}.tc_min_nnz;
  long long dense_limit_log2 = 32;
  double tc_density = course::step5::HybridOptions{}.tc_density;
  std::string cusparse_layout = "auto";
  std::string filter;
  course::ArgParser parser(
      "sddmm_bench",
      "Times the step 5 SDDMM approaches against cuSPARSE's SDDMM (CSR) with fp16 and with fp32 "
      "A and B, and against a dense cuBLAS fp16 product sampled at the nonzeros, on the note's "
      "shapes (uniform masks, inner=256), an inner sweep, real Matrix Market matrices and "
      "attention "
      "masks; verifies every result against cuSPARSE fp16 and every baseline against ours. "
      "Prints Markdown; --csv writes the table.");
  parser.add_text("--shapes", &shapes, "note (the note's 17 shapes) or none");
  parser.add_flag("--ksweep", &k_sweep, "inner = 32..1024 on matrix_37000_37000_368000");
  parser.add_flag("--experiments", &experiments,
                  "block shape, COO v1/v2, lanes per nonzero, Tensor Core threshold");
  parser.add_flag("--attention", &attention,
                  "the attention masks (block-sparse, sliding window, BigBird; 4096^2 to "
                  "32768^2) at inner = 64, 128 and 256");
  parser.add_input_folder("--matrices", &matrices, "directory of .mtx/.mtx.gz files to add");
  parser.add_output_file("--csv", &csv_path, "also write the table as CSV to this file");
  parser.add_integer_list("--approaches", &approach_numbers, 1, course::step5::kHybridApproach,
                          "approaches to run, e.g. 1,3,4");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed repeats (median and min reported)");
  parser.add_integer("--other-repeats", &other_repeats, 1, 1000,
                     "timed preprocessings (median reported, default 21)");
  parser.add_integer("--max-nnz", &max_nnz, 0, 1LL << 40, "skip matrices above this nnz (0: none)");
  parser.add_integer(
      "--group-lanes", &group_lanes, 0, 32,
      "approach 4: lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling with inner)");
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
    settings.approaches.push_back(static_cast<int>(number));
  }
  settings.repeats = static_cast<int>(repeats);
  settings.other_repeats = static_cast<int>(other_repeats);
  settings.max_nnz = max_nnz;
  settings.cusparse_layout = cusparse_layout;
  settings.hybrid.group_lanes = static_cast<int>(group_lanes);
  settings.hybrid.lane_iterations = static_cast<int>(lane_iterations);
  settings.hybrid.tc_min_nnz = tc_min_nnz;
  settings.options.dense_limit_elements = std::size_t{1} << dense_limit_log2;
  settings.hybrid.tc_density = tc_density;

  // The cases (a file's size line included) are listed before looking for a GPU.
  std::vector<BenchCase> cases;
  if (shapes == "note") {
    cases = course::step5::bench::note_cases();
  }
  if (k_sweep) {
    const std::vector<BenchCase> sweep = course::step5::bench::k_sweep_cases();
    cases.insert(cases.end(), sweep.begin(), sweep.end());
  }
  if (!matrices.empty()) {
    const std::vector<BenchCase> real = course::step5::bench::matrix_cases(matrices);
    cases.insert(cases.end(), real.begin(), real.end());
  }
  if (attention) {
    const std::vector<BenchCase> masks = course::step5::bench::attention_cases();
    cases.insert(cases.end(), masks.begin(), masks.end());
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
  settings.copy_bandwidth = course::step5::bench::measure_copy_bandwidth();
  std::cout << course::benchmark_header() << "\n\n"
            << "SDDMM C = S o (A*B): A rows x inner and B inner x cols in fp16 (B stored as Bt, "
               "cols x inner row-major), C fp32. Baselines on the same values: cuSPARSE with fp16 "
               "A and B (the reference "
               "of 'vs cuSPARSE'), cuSPARSE with fp32 A and B, and dense then sample (cuBLAS "
               "fp16 GEMM of rows x cols, then a gather). Times in ms.\n\n"
            << "Device-to-device copy bandwidth (read + write, best of 20 copies of 512 MiB): "
            << course::format_fixed(settings.copy_bandwidth / 1e9, 1)
            << " GB/s; the speed of light (x SOL) moves the least bytes at this rate.\n\n";
  Libraries libraries;
  CUSPARSE_CHECK(cusparseCreate(&libraries.cusparse));
  CUBLAS_CHECK(cublasCreate(&libraries.cublas));
  course::ResultTable table(course::step5::bench::table_columns());
  Summary summary;
  // Approach 2 runs last, in a pass of its own: on the H200, after it freed a dense product
  // of several GB, every preprocessing measured next (ours and cuSPARSE's) took a fixed
  // 1.09 ms more for a while, which is not the cost of the next matrix.
  Settings first_pass = settings;
  first_pass.approaches.erase(
      std::remove(first_pass.approaches.begin(), first_pass.approaches.end(),
                  static_cast<int>(course::step5::Approach::dense_wmma)),
      first_pass.approaches.end());
  for (const BenchCase& bench_case : cases) {
    run_case(bench_case, first_pass, libraries, table, summary);
  }
  if (first_pass.approaches.size() < settings.approaches.size()) {
    Settings dense_pass = settings;
    dense_pass.approaches = {static_cast<int>(course::step5::Approach::dense_wmma)};
    dense_pass.baseline_rows = false;  // cuSPARSE fp16 runs again for the ratio, without a row
    for (const BenchCase& bench_case : cases) {
      run_case(bench_case, dense_pass, libraries, table, summary);
    }
  }
  std::cout << table.markdown() << "\n";
  if (!csv_path.empty()) {
    table.write_csv(csv_path);
  }
  print_summary(summary, std::cout);
  if (experiments) {
    run_experiments(libraries.cusparse, settings, std::cout);
  }
  cublasDestroy(libraries.cublas);
  cusparseDestroy(libraries.cusparse);
  if (summary.failures > 0) {
    std::cout << "\nwrong answer: " << summary.failures
              << " results differ from cuSPARSE or a baseline from ours\n";
    return 1;
  }
  return 0;
}

}  // namespace

/// @brief Runs the SDDMM benchmark: every approach and the baselines on the chosen matrices.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error or a wrong result
int main(int argc, char** argv) {
  return course::run_program("sddmm_bench", [&] { return run(argc, argv); });
}
