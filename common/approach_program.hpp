/// @file approach_program.hpp
/// @brief The program of a step with numbered approaches (steps 2 and 3): its command line,
/// one timed product of the chosen approach, or the square-size benchmark of the note's
/// Tables 1 and 2.
///
/// Steps 2 and 3 take the same options and run the same way; what makes each one its step
/// (its texts, its approaches with their size checks and launchers, the rows of its
/// benchmark) is an ApproachStep that the step's program file fills in.
#pragma once

#include "common/cli.hpp"
#include "common/memory_estimate.hpp"
#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// @brief Largest size along any dimension the programs accept: three 16384×16384 float
/// matrices take 3 GiB, and the DEBUG check of one on the CPU takes hours already.
constexpr int kMaxProductSize = 16384;
/// @brief Largest benchmark size (the notes' largest is 4096).
constexpr int kMaxBenchSize = 8192;

/// @brief What the command line of a step with approaches asked for.
struct ApproachOptions {
  ProductSizes sizes{1024, 1024, 1024};  ///< sizes of the single product
  int approach = 1;                      ///< approach to run
  long long seed = kFreshSeed;  ///< seed of the inputs: a real one once parsed (default fresh)
  int repeats = 5;              ///< timed runs (the median is printed)
  bool bench = false;           ///< run the benchmark instead of one product
  std::vector<int> bench_sizes{1024, 2048, 4096};  ///< benchmark sizes, ascending
  int serial_max = 4096;                           ///< largest size the serial CPU is timed at
  std::string csv_path;                            ///< where the benchmark writes its CSV
};

/// @brief Launches approach @p number: c = a·b for device matrices of these @p sizes, on
/// @p stream (a step's `launch_approach`).
using ApproachLaunch = std::function<void(int number, const float* a, const float* b, float* c,
                                          const ProductSizes& sizes, cudaStream_t stream)>;

/// @brief One GPU row of the benchmark table: an approach and its label.
struct BenchApproach {
  std::string name;   ///< row label, e.g. "approach 2"
  int number = 1;     ///< the approach
  bool slow = false;  ///< true for a single-block kernel: fewer runs at large sizes
};

/// @brief What makes a program with approaches the program of its step.
struct ApproachStep {
  std::string program;           ///< program name, for --help and messages
  std::string label;             ///< starts the report of a single run, e.g. "step 2"
  std::string description;       ///< the --help paragraph
  std::string size_help;         ///< help line of --size
  int max_approach = 3;          ///< largest value of --approach
  std::string approach_help;     ///< help line of --approach
  std::string table;             ///< the note's table the benchmark reproduces, e.g. "Table 1"
  std::string bench_sizes_help;  ///< help line of --bench-sizes
  std::string bench_times;       ///< what --bench times, e.g. "every approach"
  /// @brief A short description of an approach for the report, e.g. "approach 2: ...".
  std::function<std::string(int number)> describe;
  /// @brief Throws std::invalid_argument unless approach @p number can multiply @p sizes.
  std::function<void(int number, const ProductSizes& sizes)> check_sizes;
  /// @brief Throws std::invalid_argument unless the benchmark can run at this square size
  /// (empty: every size can).
  std::function<void(int size)> check_bench_size;
  ApproachLaunch launch;                  ///< launches an approach
  std::string bench_title;                ///< title of the benchmark table
  std::vector<BenchApproach> bench_rows;  ///< the GPU rows of the benchmark, in table order
};

/// @brief Parses and validates the command line. Everything is checked here, before any GPU
/// call, so a bad value is refused even on a machine without a GPU.
///
/// Throws course::UsageError for a missing, non-numeric, zero, negative or out-of-range value,
/// for --size with one of the sizes it sets, for single-run options with --bench and
/// benchmark options without it, and for sizes the chosen approach (or the benchmark) cannot
/// launch, with the step's message.
/// @param step the step whose program this is
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param default_approach the approach when --approach is absent (main.cu's APPROACH)
/// @param options receives the values
/// @return false when --help was given (the usage text is already printed)
bool parse_approach_options(const ApproachStep& step, int argc, char** argv, int default_approach,
                            ApproachOptions& options);

/// @brief What a run of @p options allocates: the single product of its sizes, or (with
/// --bench) the largest benchmark size with its check.
/// @param options validated options
/// @param verify whether the DEBUG check runs
/// @return the estimate, for course::require_memory
MemoryEstimate approach_memory_estimate(const ApproachOptions& options, bool verify);

/// @brief Runs the chosen approach on random inputs, prints its time and, when @p verify is
/// true, checks the result with course::debug_verify before device memory is freed.
/// @param step the step whose approach it is
/// @param options validated options
/// @param verify true when the program was built with DEBUG
/// @param out where the report is printed
/// @return the exit code: 0, or 1 for a wrong answer
int run_approach(const ApproachStep& step, const ApproachOptions& options, bool verify,
                 std::ostream& out);

/// @brief The step's benchmark table: the serial CPU product, the step's rows and cuBLAS at
/// the benchmark sizes (course::run_square_benchmark).
/// @param step the step whose benchmark it is
/// @param options validated options (bench_sizes, serial_max, repeats, seed, csv_path)
/// @param out where the table is printed
/// @param progress where progress lines are printed
/// @return the exit code
int run_approach_benchmark(const ApproachStep& step, const ApproachOptions& options,
                           std::ostream& out, std::ostream& progress);

/// @brief The whole program, as main() runs it: parses the options (refusing bad ones before
/// looking for a GPU), checks that the run fits in memory, requires a GPU, then runs one
/// product or the benchmark, turning errors into messages and exit codes (run_program).
/// @param step the step whose program this is
/// @param argc argument count
/// @param argv arguments
/// @param default_approach main.cu's APPROACH
/// @param verify main.cu's DEBUG (course::kDebugCheck)
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int run_approach_program(const ApproachStep& step, int argc, char** argv, int default_approach,
                         bool verify);

}  // namespace course
