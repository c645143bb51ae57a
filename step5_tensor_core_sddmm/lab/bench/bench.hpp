/// @file bench.hpp
/// @brief The parts of the step 5 benchmark, one file each: the matrices (bench_cases.cpp,
/// and the mask and shape sets of mask_set_cases.cpp), the baselines (baselines.hpp), the
/// LIMIT column (limit_rates.hpp), our
/// approaches on a case (bench_run_case.cu), the summary (bench_summary.cpp) and the
/// notebook's experiments (bench_experiments.cu). sddmm_bench.cu reads the command line and
/// runs them; its file comment defines the columns.
///
/// Step 5, the benchmark (the lab): the parts of sddmm_bench.
/// Read first: step5_launchers.hpp (Plan, the API timed here), then sddmm_bench.cu.
#pragma once

#include "common/matrix.hpp"
#include "common/sparse_matrix.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"
#include "step5_tensor_core_sddmm/lab/bench/case_set_files.hpp"
#include "step5_tensor_core_sddmm/lab/bench/limit_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/lab/device_utilities.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cuda_fp16.h>
#include <cusparse.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

/// @brief The step 5 benchmark's parts (sddmm_bench).
namespace course::step5::bench {

/// @brief One matrix of the benchmark: a name, how to make S, and inner.
struct BenchCase {
  std::string name;                         ///< the matrix's name in the table
  std::function<course::CooMatrix()> make;  ///< makes (or reads) S
  int inner = 256;                          ///< inner
  std::size_t expected_nnz = 0;             ///< nonzeros of S (a file: from its size line)
  int rows = 0;                             ///< rows of S (a file: from its size line)
  int cols = 0;                             ///< columns of S (a file: from its size line)
  bool from_file = false;                   ///< S is read from a Matrix Market file
  std::string problem;           ///< why the case cannot run (a malformed file); empty when it can
  std::string set = "matrices";  ///< the set it comes from: the summary's groups
  bool attention = false;        ///< an attention mask (its ratios get a table of their own)
  /// the name of S's structure: the same for a mask as a pattern and with values (its seeds
  /// and the summary's valued / pattern ratio go by it); empty: the name
  std::string structure = {};
};

/// @brief The seed of a case's random inputs (and of its mask when random and not seeded by
/// its set's line): a hash of its name mixed with the run's `--seed`.
/// @param name the case's name
/// @param seed the run's seed
/// @return an odd seed
std::uint64_t case_seed(const std::string& name, std::uint64_t seed);

/// @brief The shapes of a `--shapes` file as uniform random masks of exactly their rows,
/// cols and nnz (matrix_<rows>_<cols>_<nnz>).
/// @param shapes the file's shapes
/// @param set the set's name (the file's, for the summary)
/// @param seed the run's seed
/// @return the cases
std::vector<BenchCase> shape_set_cases(const std::vector<ShapeSetEntry>& shapes,
                                       const std::string& set, std::uint64_t seed);

/// @brief The masks of a `--masks` file, each at its inner sizes in the file's order.
/// @param masks the file's masks
/// @param set the set's name (the file's, for the summary)
/// @param seed the run's seed (for masks whose line gives none)
/// @return the cases
std::vector<BenchCase> mask_set_cases(const std::vector<MaskSetEntry>& masks,
                                      const std::string& set, std::uint64_t seed);

/// @brief inner = 32 .. 1024 on the note's 37000² mask with 368 000 nonzeros.
/// @param seed the run's seed
/// @return the cases
std::vector<BenchCase> k_sweep_cases(std::uint64_t seed);

/// @brief The .mtx and .mtx.gz files of @p directory, sorted by name, each at the inner sizes
/// @p inners (the benchmark's `--matrix-inner`, 256 by default); throws
/// course::UsageError when it is not a directory.
/// Each file's header and size line are read here (not its entries), so that a case knows
/// its sizes and nonzeros before it runs (for --max-nnz and the memory check); a file whose
/// first lines are malformed becomes a case with a problem, shown as a row saying why.
/// @param directory the folder of Matrix Market files
/// @param inners the inner sizes, each file at each in turn
/// @return the cases
std::vector<BenchCase> matrix_cases(const std::string& directory,
                                    const std::vector<int>& inners = {256});

struct Settings;

/// @brief Why @p bench_case cannot run with @p settings: over --max-nnz, a malformed file, or
/// more memory than the host has available (or the GPU has free, when there is one) for S,
/// the operands, cuSPARSE's copies and the checks; empty when it can run.
/// @param bench_case the case
/// @param settings the command line's choices
/// @return the reason, for the row's check column
std::string skip_reason(const BenchCase& bench_case, const Settings& settings);

/// @brief The command line's choices that a case's run needs.
struct Settings {
  std::vector<int> approaches;           ///< approaches to run (1 to 4)
  int repeats = course::kBenchRepeats;   ///< timed kernel launches (median reported)
  int other_repeats = 21;                ///< timed preprocessings (median reported)
  long long max_nnz = 0;                 ///< skip matrices above this nnz (0: none)
  course::step5::Options options;        ///< approaches 1 to 3's tuning
  course::step5::HybridOptions hybrid;   ///< approach 4's tuning
  std::string cusparse_layout = "auto";  ///< auto, col or row
  bool baseline_rows = true;  ///< add the baselines' rows (false in the second, approach-2 pass)
  bool fp32_baseline = true;  ///< time cuSPARSE with fp32 A and B as well
  std::uint64_t seed = course::kBenchSeed;  ///< the run's seed (case_seed)
  LimitRates limit_rates;                   ///< the LIMIT column's rates, measured at start-up
};

/// @brief Approach @p number (1 to 4) with the tuning of @p settings.
/// @param number the approach
/// @param settings the command line's choices
/// @return its entry (name and plan)
course::step5::ApproachEntry approach_entry(int number, const Settings& settings);

/// @brief The name of approach @p number (1 to 4) in the tables.
/// @param number the approach
/// @return e.g. "3 tile-grouped WMMA", "4 hybrid"
std::string approach_label(int number);

/// @brief One approach's ratios on one case: each baseline's time / ours (median kernel
/// times), and ours as a multiple of the case's LIMIT.
struct CaseRatios {
  std::string case_label;          ///< the case's name and inner
  std::string set;                 ///< the set the case comes from
  bool attention = false;          ///< an attention mask
  std::optional<double> vs_fp16;   ///< over cuSPARSE with fp16 A and B (the reference)
  std::optional<double> vs_fp32;   ///< over cuSPARSE with fp32 A and B
  std::optional<double> vs_dense;  ///< over dense then sample (when the product fits)
  double ms = 0.0;                 ///< our median kernel time
  double limit_ms = 0.0;           ///< the LIMIT time
  double limit_multiple = 0.0;     ///< our time / the LIMIT time
  std::string limit_bound;         ///< the bound that sets the LIMIT (dram, gather, ...)
  /// its structure's name and inner: a valued case and its pattern twin share it
  std::string structure_label;
  bool valued = false;  ///< S has values (not a pattern)
};

/// @brief Accumulates the figures the summary needs.
struct Summary {
  std::map<int, std::vector<double>> speedups;    ///< approach -> speedups over cuSPARSE fp16
  std::map<int, double> worst_prep_ratio;         ///< approach -> max prep / sddmm
  std::map<int, double> worst_other_ratio;        ///< approach -> max other / sddmm
  std::map<int, std::string> slowest_case;        ///< approach -> case with the smallest speedup
  std::map<int, double> smallest_speedup;         ///< approach -> its speedup
  std::map<int, std::vector<CaseRatios>> ratios;  ///< approach -> its ratios, case by case
  int failures = 0;  ///< wrong answers, baselines that disagree with ours, CUDA errors

  /// @brief Records one timed run of approach @p number.
  /// @param number the approach
  /// @param ratios its ratios on the case (vs_fp16 feeds the first table)
  /// @param ms our kernel time
  /// @param prep_ms our preprocessing time
  /// @param other_ms our "other" time
  void add(int number, const CaseRatios& ratios, double ms, double prep_ms, double other_ms);
};

/// @brief Writes the summary as Markdown: the first table (one row per approach, against
/// cuSPARSE fp16, in the format the results pages read), then every baseline's geometric mean
/// and the speed-of-light multiple, then (when the run had them) the attention masks' ratios.
/// @param summary the figures
/// @param out the stream
void print_summary(const Summary& summary, std::ostream& out);

/// @brief Seconds since @p start on the steady clock.
/// @param start the start
/// @return seconds
double seconds_since(std::chrono::steady_clock::time_point start);

/// @brief Runs one case: the baselines' rows (each checked against our approach 4), then one
/// row per approach of @p settings, each result verified against cuSPARSE fp16's (or, where
/// that failed, fp32's); adds the rows to @p result_table and the figures to @p summary.
/// @param bench_case the matrix and inner
/// @param settings the command line's choices
/// @param libraries the cuSPARSE and cuBLAS handles
/// @param result_table the benchmark's table
/// @param summary the summary's figures
void run_case(const BenchCase& bench_case, const Settings& settings, const Libraries& libraries,
              course::ResultTable& result_table, Summary& summary);

/// @brief The benchmark's columns, in order (sddmm_bench.cu's file comment defines them).
/// @return the column names
std::vector<std::string> table_columns();

/// @brief The note's experiments that need special settings, as a Markdown table.
/// @param handle the cuSPARSE handle (unused)
/// @param base the command line's choices
/// @param out the stream
void run_experiments(cusparseHandle_t handle, const Settings& base, std::ostream& out);

}  // namespace course::step5::bench
