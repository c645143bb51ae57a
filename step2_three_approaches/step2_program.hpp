/// @file step2_program.hpp
/// @brief Step 2's program, apart from main(): options, the DEBUG check, one run and the
/// benchmark of Table 1.
///
/// Kept out of main.cu so that the tests can call the option validation and the DEBUG check
/// without a GPU, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/memory_estimate.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace course::step2 {

/// @brief Largest size along any dimension the program accepts: three 16384×16384 float
/// matrices take 3 GiB, and the DEBUG check of one on the CPU takes hours already.
constexpr int kMaxSize = 16384;
/// @brief Largest benchmark size (the note's largest is 4096).
constexpr int kMaxBenchSize = 8192;

/// @brief What the command line asked for.
struct Options {
  int rows = 1024;                                 ///< rows of A and C
  int inner = 1024;                                ///< columns of A, rows of B
  int cols = 1024;                                 ///< columns of B and C
  int approach = 3;                                ///< approach to run (step 3 adds 4)
  long long seed = -1;                             ///< seed of the inputs; -1 draws a fresh one
  int repeats = 5;                                 ///< timed runs (the median is printed)
  bool bench = false;                              ///< run the benchmark instead of one product
  std::vector<int> bench_sizes{1024, 2048, 4096};  ///< benchmark sizes, ascending
  int serial_max = 4096;                           ///< largest size the serial CPU is timed at
  std::string csv_path;                            ///< where the benchmark writes its CSV
};

/// @brief What a run of @p options allocates: the single product of its sizes, or (with
/// --bench) the largest benchmark size with its check.
/// @param options validated options
/// @param verify whether the DEBUG check runs
/// @return the estimate, for course::require_memory
MemoryEstimate memory_estimate(const Options& options, bool verify);

/// @brief What differs between the command lines of steps 2 and 3, which otherwise take the
/// same options.
struct CommandLine {
  std::string program;           ///< program name, for --help and messages
  std::string description;       ///< the --help paragraph
  std::string size_help;         ///< help line of --size
  int max_approach = 3;          ///< largest value of --approach
  std::string approach_help;     ///< help line of --approach
  std::string repeats_help;      ///< help line of --repeats
  std::string bench_help;        ///< help line of --bench
  std::string bench_sizes_help;  ///< help line of --bench-sizes
  std::string bench_times;       ///< what --bench times, e.g. "every approach"
};

/// @brief Parses the options steps 2 and 3 share into @p options, applies --size to the
/// dimensions not given, and refuses single-run options with --bench and benchmark options
/// without it. Size limits of the approaches are left to the caller.
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param line the program's texts and approach range
/// @param default_approach the approach when --approach is absent (main.cu's APPROACH)
/// @param options receives the values
/// @return false when --help was given (the usage text is already printed)
bool parse_command_line(int argc, char** argv, const CommandLine& line, int default_approach,
                        Options& options);

/// @brief Parses and validates the command line. Everything is checked here, before any GPU
/// call, so a bad value is refused even on a machine without a GPU.
///
/// Throws course::UsageError for a missing, non-numeric, zero, negative or out-of-range value,
/// for sizes an approach cannot launch, and for benchmark options without --bench.
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param default_approach the approach when --approach is absent (main.cu's APPROACH)
/// @param options receives the values
/// @return false when --help was given (the usage text is already printed)
bool parse_options(int argc, char** argv, int default_approach, Options& options);

/// @brief Runs the chosen approach on random inputs, prints its time and, when @p verify is
/// true, checks the result with course::debug_verify before device memory is freed.
/// @param options validated options
/// @param verify true when the program was built with DEBUG
/// @param out where the report is printed
/// @return the exit code: 0, or 1 for a wrong answer
int run(const Options& options, bool verify, std::ostream& out);

/// @brief The note's Table 1: serial CPU, approaches 1 to 3 and cuBLAS at the benchmark sizes.
/// @param options validated options (bench_sizes, serial_max, repeats, seed, csv_path)
/// @param out where the table is printed
/// @param progress where progress lines are printed
/// @return the exit code
int run_benchmark(const Options& options, std::ostream& out, std::ostream& progress);

}  // namespace course::step2
