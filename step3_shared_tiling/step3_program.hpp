/// @file step3_program.hpp
/// @brief Step 3's program, apart from main(): options, the DEBUG check, one run and the
/// benchmark of Table 2.
///
/// Kept out of main.cu so that the tests can call the option validation and the DEBUG check
/// without a GPU, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "step2_three_approaches/step2_program.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace course::step3 {

/// @brief What the command line asked for: step 2's options, with approach 4 added.
using Options = step2::Options;

/// @brief Parses and validates the command line. Everything is checked here, before any GPU
/// call, so a bad value is refused even on a machine without a GPU.
///
/// Throws course::UsageError for a missing, non-numeric, zero, negative or out-of-range
/// value, for approach 4 on sizes that are not multiples of 32 (the message points to step
/// 4), and for benchmark options without --bench.
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param default_approach the approach when --approach is absent (main.cu's APPROACH)
/// @param options receives the values
/// @return false when --help was given (the usage text is already printed)
bool parse_options(int argc, char** argv, int default_approach, Options& options);

/// @brief Launches approach @p number: 4 is step 3's tiled kernel, 1 to 3 are step 2's.
/// @param number the approach (1 to 4)
/// @param a left factor, rows×inner, device memory
/// @param b right factor, inner×cols, device memory
/// @param c result, rows×cols, device memory
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
void launch_approach(int number, const float* a, const float* b, float* c, int rows, int inner,
                     int cols);

/// @brief Runs the chosen approach on random inputs, prints its time and, when @p verify is
/// true, checks the result with course::debug_verify before device memory is freed.
/// @param options validated options
/// @param verify true when the program was built with DEBUG
/// @param out where the report is printed
/// @return the exit code: 0, or 1 for a wrong answer
int run(const Options& options, bool verify, std::ostream& out);

/// @brief The note's Table 2: approach 4 with the serial CPU product, step 2's approaches 2
/// and 3 for comparison, and cuBLAS, at the benchmark sizes.
/// @param options validated options (bench_sizes, serial_max, repeats, seed, csv_path)
/// @param out where the table is printed
/// @param progress where progress lines are printed
/// @return the exit code
int run_benchmark(const Options& options, std::ostream& out, std::ostream& progress);

}  // namespace course::step3
