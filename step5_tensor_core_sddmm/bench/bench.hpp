// Step 5, the benchmark (lesson Part 3): the parts of sddmm_bench.
// Read first: step5_launchers.hpp (Plan, the API timed here), then sddmm_bench.cu.
/// @file bench.hpp
/// @brief The parts of the step 5 benchmark, one file each: the matrices (bench_cases.cpp),
/// cuSPARSE's run on a matrix (cusparse_baseline.cu, with the wrapper of cusparse_sddmm.hpp),
/// our approaches on it (bench_run_case.cu), the summary (bench_summary.cpp) and the
/// notebook's experiments (bench_experiments.cu). sddmm_bench.cu reads the command line and
/// runs them; its file comment defines the columns.
#pragma once

#include "common/matrix.hpp"
#include "common/sparse_matrix.hpp"
#include "common/table.hpp"
#include "step5_launchers.hpp"

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

/// @brief One matrix of the benchmark: a name, how to make S, and K.
struct BenchCase {
  std::string name;                         ///< the matrix's name in the table
  std::function<course::CooMatrix()> make;  ///< makes (or reads) S
  int inner = 256;                          ///< K
  std::size_t expected_nnz = 0;             ///< nonzeros of S (a file: from its size line)
  int rows = 0;                             ///< M (a file: from its size line)
  int cols = 0;                             ///< N (a file: from its size line)
  bool from_file = false;                   ///< S is read from a Matrix Market file
  std::string problem;  ///< why the case cannot run (a malformed file); empty when it can
};

/// @brief The seed of a case's random inputs, from its name.
/// @param name the case's name
/// @return an odd seed
std::uint64_t case_seed(const std::string& name);

/// @brief The note's 17 shapes as uniform random masks of exactly its M, N and nnz, K = 256.
/// @return the cases
std::vector<BenchCase> note_cases();

/// @brief K = 32 .. 1024 on the note's 37000² mask with 368 000 nonzeros.
/// @return the cases
std::vector<BenchCase> k_sweep_cases();

/// @brief The .mtx and .mtx.gz files of @p directory, sorted by name, K = 256; throws
/// course::UsageError when it is not a directory.
/// Each file's header and size line are read here (not its entries), so that a case knows
/// its sizes and nonzeros before it runs (for --max-nnz and the memory check); a file whose
/// first lines are malformed becomes a case with a problem, shown as a row saying why.
/// @param directory the folder of Matrix Market files
/// @return the cases
std::vector<BenchCase> matrix_cases(const std::string& directory);

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
  std::vector<course::step5::Approach> approaches;  ///< approaches to run
  int repeats = 10;                                 ///< timed kernel launches (median reported)
  int other_repeats = 21;                           ///< timed preprocessings (median reported)
  long long max_nnz = 0;                            ///< skip matrices above this nnz (0: none)
  course::step5::Options options;                   ///< the approaches' tuning
  std::string cusparse_layout = "auto";             ///< auto, col or row
  bool cusparse_row = true;  ///< add cuSPARSE's row (false in the second, approach-2 pass)
};

/// @brief Accumulates the figures the summary needs.
struct Summary {
  std::map<int, std::vector<double>> speedups;  ///< approach -> speedups over cuSPARSE
  std::map<int, double> worst_prep_ratio;       ///< approach -> max prep / sddmm
  std::map<int, double> worst_other_ratio;      ///< approach -> max other / sddmm
  std::map<int, std::string> slowest_case;      ///< approach -> case with the smallest speedup
  std::map<int, double> smallest_speedup;       ///< approach -> its speedup
  int failures = 0;                             ///< wrong answers and CUDA errors

  /// @brief Records one timed run of approach @p number.
  /// @param number the approach
  /// @param cusparse_ms cuSPARSE's kernel time on the case, if it ran
  /// @param ms our kernel time
  /// @param prep_ms our preprocessing time
  /// @param other_ms our "other" time
  /// @param case_label the case's name and K, for the slowest case
  void add(int number, std::optional<double> cusparse_ms, double ms, double prep_ms,
           double other_ms, const std::string& case_label);
};

/// @brief Writes the summary table (one row per approach) as Markdown.
/// @param summary the figures
/// @param out the stream
void print_summary(const Summary& summary, std::ostream& out);

/// @brief Seconds since @p start on the steady clock.
/// @param start the start
/// @return seconds
double seconds_since(std::chrono::steady_clock::time_point start);

/// @brief cuSPARSE's run on one case: its kernel and preprocessing times and its results.
struct CusparseBaseline {
  std::optional<double> ms;        ///< kernel time (median), when cuSPARSE ran
  std::optional<double> other_ms;  ///< preprocessing time (median), when cuSPARSE ran
  std::string note;                ///< the layout of B that was fastest
  std::vector<float> expected;     ///< S ∘ (A·B) in S's order (empty when cuSPARSE failed)
};

/// @brief Times cuSPARSE's fp32 SDDMM on @p csr with the layouts of B that the settings allow,
/// keeping the fastest; a layout that fails is reported on stderr and skipped.
/// @param case_name the case's name, for the log
/// @param settings repeats and layouts
/// @param handle the cuSPARSE handle
/// @param csr S
/// @param a A (M×K half, device)
/// @param b_transposed Bᵀ (N×K half, device)
/// @param inner K
/// @return the times and results
CusparseBaseline time_cusparse(const std::string& case_name, const Settings& settings,
                               cusparseHandle_t handle, const course::CsrMatrix& csr,
                               const course::DeviceBuffer<__half>& a,
                               const course::DeviceBuffer<__half>& b_transposed, int inner);

/// @brief Runs one case: cuSPARSE's row, then one row per approach of @p settings, each
/// result verified against cuSPARSE's; adds the rows to @p result_table and the figures to
/// @p summary.
/// @param bench_case the matrix and K
/// @param settings the command line's choices
/// @param handle the cuSPARSE handle
/// @param result_table the benchmark's table
/// @param summary the summary's figures
void run_case(const BenchCase& bench_case, const Settings& settings, cusparseHandle_t handle,
              course::ResultTable& result_table, Summary& summary);

/// @brief The note's experiments that need special settings, as a Markdown table.
/// @param handle the cuSPARSE handle (unused)
/// @param base the command line's choices
/// @param out the stream
void run_experiments(cusparseHandle_t handle, const Settings& base, std::ostream& out);

}  // namespace course::step5::bench
