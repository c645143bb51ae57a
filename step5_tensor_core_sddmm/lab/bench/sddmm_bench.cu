/// @file sddmm_bench.cu
/// @brief Benchmark of every step 5 approach against three baselines on the same inputs, on
/// sets of shapes (`--shapes FILE`: uniform random masks of exactly rows, cols, nnz, such as the
/// note's, lab/sets/note_shapes.txt), an inner sweep, the real matrices of a directory and sets
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
/// Every result is checked against cuSPARSE fp16's output (times S's values) with the fp16
/// tolerance relative to Σ|a||b|; a failure prints `wrong answer` and the exit status is 1.
///
/// The parts: the matrices in bench_cases.cpp and mask_set_cases.cpp (the set files read by
/// case_set_files.cpp), the baselines in cusparse_baseline.cu and dense_then_sample.cu, the
/// LIMIT in limit_rates.cu, their rows in
/// baseline_rows.cu, ours in bench_run_case.cu, the summary in bench_summary.cpp,
/// `--experiments` in bench_experiments.cu. This file reads the command line and runs them.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/cli.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/output_file.hpp"
#include "common/table.hpp"
#include "step5_tensor_core_sddmm/device_pattern/host_sampling.hpp"

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
using course::step5::bench::print_summary;
using course::step5::bench::run_case;
using course::step5::bench::run_experiments;
using course::step5::bench::Settings;
using course::step5::bench::Summary;

/// What the command line asks for besides the Settings.
struct Request {
  std::string shapes;
  std::string masks;
  std::string matrices;
  std::string csv_path;
  std::string markdown_path;
  std::string filter;
  std::vector<int> matrix_inners = {256};
  bool k_sweep = false;
  bool experiments = false;
};

/// The file name of @p path without its folders and its extension: a set's name.
std::string set_name(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

/// Approach 4's switches of the masked-tile plan, checked.
void apply_tile_options(const std::string& tiles, long long panels, long long group_steps,
                        long long min_entries, bool no_dense_path,
                        course::step5::HybridOptions& hybrid) {
  if (tiles == "combined") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::combined;
  } else if (tiles == "masked16") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  } else if (tiles == "panels64") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::panels64;
  } else {
    throw course::UsageError("--tiles must be combined, masked16 or panels64, got '" + tiles + "'");
  }
  if (panels != 0 && panels != 1 && panels != 2 && panels != 4) {
    throw course::UsageError("--tile-panels must be 0 (choose), 1, 2 or 4, got " +
                             std::to_string(panels));
  }
  hybrid.masked.panels = static_cast<int>(panels);
  hybrid.masked.group_steps = static_cast<int>(group_steps);
  hybrid.masked.min_entries = static_cast<int>(min_entries);
  hybrid.masked.dense_path = !no_dense_path;
}

/// Parses the command line into @p settings and @p request; false after --help.
bool parse_command_line(int argc, char** argv, Settings& settings, Request& request) {
  long long other_repeats = 21;
  std::vector<long long> approach_numbers = {1, 2, 3, 4};
  long long repeats = 10;
  long long max_nnz = 0;
  long long seed = 1;
  long long group_lanes = 0;
  long long lane_iterations = 0;
  long long tc_min_nnz = course::step5::HybridOptions{}.tc_min_nnz;
  long long dense_limit_log2 = 32;
  double tc_density = course::step5::HybridOptions{}.tc_density;
  std::string tiles = "combined";
  std::string panel_choice = "cost";
  long long tile_panels = 0;
  long long tile_group_steps = 0;
  long long tile_min_entries = 0;
  bool no_dense_path = false;
  bool no_fp32 = false;
  course::ArgParser parser(
      "sddmm_bench",
      "Times the step 5 SDDMM approaches against cuSPARSE's SDDMM (CSR) with fp16 and with fp32 "
      "A and B, and against a dense cuBLAS fp16 product sampled at the nonzeros, on sets of "
      "uniform shapes and of attention masks (files), an inner sweep and real Matrix Market "
      "matrices; verifies every result against cuSPARSE fp16 and every baseline against ours; "
      "reports each time as a multiple of its LIMIT. Prints Markdown; --csv and --markdown "
      "write the table.");
  parser.add_input_file("--shapes", &request.shapes,
                        "a file of the shapes to measure, one a line ('rows cols nnz inner', a "
                        "uniform mask each; e.g. lab/sets/note_shapes.txt)");
  parser.add_input_file("--masks", &request.masks,
                        "a file of the attention masks to measure, one a line (e.g. "
                        "lab/sets/attention_public.txt)");
  parser.add_flag("--ksweep", &request.k_sweep, "inner = 32..1024 on matrix_37000_37000_368000");
  parser.add_flag("--experiments", &request.experiments,
                  "block shape, COO v1/v2, lanes per nonzero, Tensor Core threshold");
  parser.add_input_folder("--matrices", &request.matrices,
                          "directory of .mtx/.mtx.gz files to add");
  std::vector<long long> matrix_inners = {256};
  parser.add_integer_list("--matrix-inner", &matrix_inners, 1, 1 << 16,
                          "inner sizes of the --matrices files, e.g. 64,256 (default 256)");
  parser.add_output_file("--csv", &request.csv_path, "also write the table as CSV to this file");
  parser.add_output_file(
      "--markdown", &request.markdown_path,
      "also write the report as Markdown to this file (the table and the summary)");
  parser.add_seed(&seed,
                  "seed of the random inputs (A and B, and the masks whose set gives no seed)");
  parser.add_integer_list("--approaches", &approach_numbers, 1, course::step5::kHybridApproach,
                          "approaches to run, e.g. 1,3,4");
  parser.add_integer("--repeats", &repeats, 1, 1000,
                     "timed runs (the median and the minimum are reported)");
  parser.add_integer("--other-repeats", &other_repeats, 1, 1000,
                     "timed preprocessings (median reported, default 21)");
  parser.add_integer("--max-nnz", &max_nnz, 0, 1LL << 40, "skip matrices above this nnz (0: none)");
  parser.add_flag("--no-fp32", &no_fp32, "do not time cuSPARSE with fp32 A and B");
  parser.add_integer(
      "--group-lanes", &group_lanes, 0, 32,
      "approach 4: lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling with inner)");
  parser.add_integer("--dense-limit-log2", &dense_limit_log2, 10, 40,
                     "approach 2: refuse dense products above 2^this elements");
  parser.add_text("--tiles", &tiles,
                  "approach 4's Tensor Cores: combined (the default: 64x64 full tiles and dense "
                  "64-row panels, then 16x16 masked tiles by the cost model), masked16 (masked "
                  "tiles only) or panels64 (full tiles and dense panels only)");
  parser.add_text("--panel-choice", &panel_choice,
                  "combined: dense 64-row panels by modelled kernel times (cost, the default) or "
                  "from 15 % of their span (density, the earlier rule)");
  parser.add_integer("--tile-panels", &tile_panels, 0, 4,
                     "masked tiles: 16-row panels per block (0: the plan's choice, 1, 2, 4)");
  parser.add_integer("--tile-group-steps", &tile_group_steps, 0, 4,
                     "masked tiles: tile columns per stage of Bt (0: the plan's choice, 1 to 4)");
  parser.add_integer(
      "--tile-min-entries", &tile_min_entries, 0, 257,
      "masked tiles: entries from which a tile goes to Tensor Cores (0: the model's)");
  parser.add_flag("--no-dense-path", &no_dense_path,
                  "never take the dense product, even where the model prefers it");
  parser.add_real("--tc-density", &tc_density, {0.0, 1.0, true},
                  "full tiles and dense panels: a panel's density for Tensor Cores");
  parser.add_integer("--tc-min-nnz", &tc_min_nnz, 0, 1LL << 40,
                     "full tiles and dense panels: dense panels only from this many nonzeros");
  parser.add_integer("--lane-iterations", &lane_iterations, 0, 64,
                     "approach 4: runs of nonzeros per lane-group block (0: automatic)");
  parser.add_text("--filter", &request.filter,
                  "run only the matrices whose name contains this text");
  parser.add_text("--cusparse-layout", &settings.cusparse_layout,
                  "auto (fastest of both), col or row");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  const std::string& layout = settings.cusparse_layout;
  if (layout != "auto" && layout != "col" && layout != "row") {
    throw course::UsageError("--cusparse-layout must be auto, col or row, got '" + layout + "'");
  }
  if (group_lanes != 0 && group_lanes != 4 && group_lanes != 8 && group_lanes != 16 &&
      group_lanes != 32) {
    throw course::UsageError("--group-lanes must be 0, 4, 8, 16 or 32, got " +
                             std::to_string(group_lanes));
  }
  for (const long long number : approach_numbers) {
    settings.approaches.push_back(static_cast<int>(number));
  }
  request.matrix_inners.assign(matrix_inners.begin(), matrix_inners.end());
  settings.repeats = static_cast<int>(repeats);
  settings.other_repeats = static_cast<int>(other_repeats);
  settings.max_nnz = max_nnz;
  settings.seed = static_cast<std::uint64_t>(seed);
  settings.fp32_baseline = !no_fp32;
  settings.hybrid.group_lanes = static_cast<int>(group_lanes);
  settings.hybrid.lane_iterations = static_cast<int>(lane_iterations);
  settings.hybrid.tc_min_nnz = tc_min_nnz;
  settings.hybrid.tc_density = tc_density;
  if (panel_choice == "cost") {
    settings.hybrid.panel_choice = course::step5::PanelChoice::cost;
  } else if (panel_choice == "density") {
    settings.hybrid.panel_choice = course::step5::PanelChoice::density;
  } else {
    throw course::UsageError("--panel-choice must be cost or density, got '" + panel_choice + "'");
  }
  if (parser.given("--panel-choice") && tiles != "combined") {
    throw course::UsageError(
        "--panel-choice chooses the combined plan's panels: it needs --tiles "
        "combined, got --tiles " +
        tiles);
  }
  apply_tile_options(tiles, tile_panels, tile_group_steps, tile_min_entries, no_dense_path,
                     settings.hybrid);
  settings.options.dense_limit_elements = std::size_t{1} << dense_limit_log2;
  return true;
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
       << course::format_fixed(rates.launch_seconds * 1e6, 2) << " us (an empty kernel).\n\n";
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
  course::step5::give_large_vectors_their_own_pages();
  Libraries libraries;
  CUSPARSE_CHECK(cusparseCreate(&libraries.cusparse));
  CUBLAS_CHECK(cublasCreate(&libraries.cublas));
  settings.limit_rates = course::step5::bench::measure_limit_rates(libraries.cublas);
  std::ostringstream preamble;
  preamble << course::benchmark_header() << "\n\n"
           << "SDDMM C = S o (A*B): A rows x inner and B inner x cols in fp16 (B stored as Bt, "
              "cols x inner row-major), C fp32. Baselines on the same values: cuSPARSE with fp16 "
              "A and B (the reference of 'vs cuSPARSE'), cuSPARSE with fp32 A and B, and dense "
              "then sample (cuBLAS fp16 GEMM of rows x cols, then a gather). Times in ms; seed "
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
