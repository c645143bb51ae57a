/// @file step1_program.hpp
/// @brief Step 1's program, apart from main(): options, the DEBUG check and one run.
///
/// Kept out of main.cu so that the tests can call the option validation and the DEBUG check
/// without a GPU, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/cli.hpp"
#include "common/product_sizes.hpp"

#include <iosfwd>

namespace course::step1 {

/// @brief What the command line asked for.
struct Options {
  ProductSizes sizes{32, 32, 32};  ///< rows, inner and cols of the product
  long long seed =
      kFreshSeed;   ///< seed of the random inputs: a real one once parsed (default fresh)
  int repeats = 5;  ///< timed runs of the kernel (the median is printed)
};

/// @brief Parses and validates the command line. Everything is checked here, before any GPU
/// call, so a bad value is refused even on a machine without a GPU.
///
/// Throws course::UsageError for a missing, non-numeric, zero, negative or out-of-range value;
/// sizes over 32 get a message that explains the one-block limit and points to step 2.
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param options receives the values
/// @return false when --help was given (the usage text is already printed)
bool parse_options(int argc, char** argv, Options& options);

/// @brief Runs the naive kernel once on random inputs, prints its time and, when @p verify
/// is true, checks the result with course::debug_verify before device memory is freed.
/// @param options validated options
/// @param verify true when the program was built with DEBUG
/// @param out where the report is printed
/// @return the exit code: 0, or 1 for a wrong answer
int run(const Options& options, bool verify, std::ostream& out);

}  // namespace course::step1
