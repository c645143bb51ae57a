/// @file sddmm_bench.cu
/// @brief Benchmark of every step 5 approach against three baselines on the same inputs, on
/// sets of shapes (`--shapes FILE`, one `rows inner cols nnz` a line: uniform random masks of
/// exactly rows × cols with nnz entries, such as the note's, lab/sets/note_shapes.txt), an
/// inner sweep, the real matrices of a directory and sets
/// of attention masks (`--masks FILE`: lab/sets/attention_public.txt and attention_other.txt).
///
/// Step 5, the benchmark (the lab): the program sddmm_bench.
/// Read first: step5_launchers.hpp (the API it times), then bench.hpp (its parts).
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
/// `vs cuSPARSE fp32` and `vs dense then sample` likewise; `x LIMIT` = this sddmm time / the
/// case's LIMIT (limit_rates.hpp), the largest of: the least DRAM bytes (A and Bᵀ once in
/// fp16, S's offsets and columns, its values unless a pattern, the nnz fp32 outputs, and the
/// dense path's product when approach 4's plan takes it) over the copy bandwidth, the L2
/// bytes approach 4's plan gathers (rows of Bᵀ for the lane groups' entries, 16 rows of Bᵀ per
/// tile column and the rows of A of the masked tiles) over the gather bandwidth, its Tensor
/// Core FLOPs over cuBLAS's fp16 rate, and the launch floor; the four rates are measured at
/// start-up and printed above the table, and `bound` names the one that sets the LIMIT.
/// Approach 2 runs after the others, in a second pass over the matrices (its rows come last).
/// The baselines and the launch floor are timed call by call and captured as a CUDA graph
/// (graph_timing.hpp), the faster median counted, since approach 4 runs every plan as a
/// graph (going_further/run_graph.hpp).
/// Every result is checked against cuSPARSE fp16's output (times S's values) with the fp16
/// tolerance relative to Σ|a||b|; a failure prints `wrong answer` and the exit status is 1.
///
/// The parts: the matrices in bench_cases.cpp and mask_set_cases.cpp (the set files read by
/// case_set_files.cpp), the baselines in cusparse_baseline.cu and dense_then_sample.cu, the
/// LIMIT in limit_rates.cu, their rows in
/// baseline_rows.cu (their timing in graph_timing.cu), ours in bench_run_case.cu, the summary in
/// bench_summary.cpp,
/// `--experiments` in bench_experiments.cu, the command line in bench_command_line.cpp. This
/// file runs them.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench_command_line.hpp"

#include "common/cli.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/output_file.hpp"
#include "common/table.hpp"
#include "common/host_sampling.hpp"

#include <algorithm>
#include <cstddef>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::step5::bench::BenchCase;
using course::step5::bench::Libraries;
using course::step5::bench::parse_command_line;
using course::step5::bench::print_summary;
using course::step5::bench::Request;
using course::step5::bench::run_case;
using course::step5::bench::run_experiments;
using course::step5::bench::Settings;
using course::step5::bench::Summary;

/// The file name of @p path without its folders and its extension: a set's name.
std::string set_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

/// The cases the request names (a file's size line included), listed before looking for a
/// GPU; a --filter that keeps none is refused.
std::vector<BenchCase> list_cases(const Request& request, const Settings& settings) {
  namespace bench = course::step5::bench;
  std::vector<BenchCase> cases;
  const auto add = [&cases](const std::vector<BenchCase>& more) {
    cases.insert(cases.end(), more.begin(), more.end());
  };
  if (!request.shapes.empty()) {
    add(bench::shape_set_cases(bench::read_shape_set(request.shapes), set_name(request.shapes),
                               settings.seed));
  }
  if (request.k_sweep) {
    add(bench::k_sweep_cases(settings.seed));
  }
  if (!request.matrices.empty()) {
    add(bench::matrix_cases(request.matrices, request.matrix_inners));
  }
  if (!request.masks.empty()) {
    add(bench::mask_set_cases(bench::read_mask_set(request.masks), set_name(request.masks),
                              settings.seed));
  }
  if (cases.empty()) {
    throw course::UsageError(
        "nothing to run: give --shapes FILE, --masks FILE, --matrices DIR "
        "or --ksweep");
  }
  if (!request.filter.empty()) {
    std::vector<BenchCase> kept;
    std::copy_if(cases.begin(), cases.end(), std::back_inserter(kept),
                 [&](const BenchCase& bench_case) {
                   return bench_case.name.find(request.filter) != std::string::npos;
                 });
    if (kept.empty()) {
      throw course::UsageError("--filter '" + request.filter + "' matches none of the " +
                               std::to_string(cases.size()) + " cases");
    }
    cases = kept;
  }
  return cases;
}

/// The rates above the table.
std::string rates_text(const course::step5::bench::LimitRates& rates) {
  std::ostringstream text;
  text << "LIMIT rates measured at start-up: DRAM copy "
       << course::format_fixed(rates.dram_bytes_per_second / 1e9, 1)
       << " GB/s (read + write, best of 20 copies of 512 MiB); L2 gather "
       << course::format_fixed(rates.l2_gather_bytes_per_second / 1e9, 1)
       << " GB/s (512-byte rows at random, 4 lanes a row, from half the L2); cuBLAS fp16 "
       << course::format_fixed(rates.dense_flops_per_second / 1e12, 1)
       << " TFLOP/s (8192 x 8192 x 4096, fp32 output); launch floor "
       << course::format_fixed(rates.launch_seconds * 1e6, 2)
       << " us (an empty kernel, the faster of a launch and a graph's).\n\n";
  return text.str();
}

/// Runs every case: approaches other than 2 first, then approach 2 in a pass of its own.
void run_cases(const std::vector<BenchCase>& cases, const Settings& settings,
               const Libraries& libraries, course::ResultTable& table, Summary& summary) {
  // Approach 2 runs last: on the H200, after it freed a dense product of several GB, every
  // preprocessing measured next (ours and cuSPARSE's) took a fixed 1.09 ms more for a while,
  // which is not the cost of the next matrix.
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
}

int run(int argc, char** argv) {
  Settings settings;
  Request request;
  if (!parse_command_line(argc, argv, settings, request)) {
    return 0;
  }
  const std::vector<BenchCase> cases = list_cases(request, settings);
  course::require_cuda_device(7, 5, "Tensor Cores (WMMA) with CUDA 13");
  // Every vector of 64 KiB or more gets its own pages, so that pinning S's vectors
  // (HostSampling) never fails on a page another pinned vector shares, as in the program.
  course::give_large_vectors_their_own_pages();
  Libraries libraries;
  CUSPARSE_CHECK(cusparseCreate(&libraries.cusparse));
  CUBLAS_CHECK(cublasCreate(&libraries.cublas));
  settings.limit_rates = course::step5::bench::measure_limit_rates(libraries.cublas);
  std::ostringstream preamble;
  preamble
      << course::benchmark_header() << "\n\n"
      << "SDDMM C = S o (A*B): A rows x inner and B inner x cols in fp16 (B stored as Bt, "
         "cols x inner row-major), C fp32. Baselines on the same values: cuSPARSE with fp16 "
         "A and B (the reference of 'vs cuSPARSE'), cuSPARSE with fp32 A and B, and dense "
         "then sample (cuBLAS fp16 GEMM of rows x cols, then a gather), each timed call by call "
         "and as a CUDA graph, the faster counted. Times in ms; seed "
      << settings.seed << ".\n\n"
      << rates_text(settings.limit_rates);
  std::cout << preamble.str() << std::flush;
  course::ResultTable table(course::step5::bench::table_columns());
  Summary summary;
  run_cases(cases, settings, libraries, table, summary);
  std::ostringstream results;
  results << table.markdown() << "\n";
  print_summary(summary, results);
  if (request.experiments) {
    run_experiments(libraries.cusparse, settings, results);
  }
  cublasDestroy(libraries.cublas);
  cusparseDestroy(libraries.cusparse);
  if (summary.failures > 0) {
    results << "\nwrong answer: " << summary.failures
            << " results differ from cuSPARSE or a baseline from ours\n";
  }
  std::cout << results.str();
  if (!request.csv_path.empty()) {
    table.write_csv(request.csv_path);
  }
  if (!request.markdown_path.empty()) {
    course::write_output_file(request.markdown_path, preamble.str() + results.str());
  }
  return summary.failures > 0 ? 1 : 0;
}

}  // namespace

/// @brief Runs the SDDMM benchmark: every approach and the baselines on the chosen matrices.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 on a wrong result or an error, 2 on a bad command line
int main(int argc, char** argv) {
  return course::run_program("sddmm_bench", [&] { return run(argc, argv); });
}
