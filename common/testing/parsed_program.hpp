/// @file parsed_program.hpp
/// @brief A dense-product program (common/dense_program.hpp) parsed from words, as the
/// option tests of steps 1 to 4 check it: the sizes and benchmark options it holds, and the
/// runner's choice (approach, seed, repeats).
#pragma once

#include "common/dense_program.hpp"
#include "common/step_program.hpp"
#include "common/testing/arguments.hpp"

#include <string>
#include <utility>
#include <vector>

namespace course::testing {

/// @brief A step's DenseProgram and the RunChoice that parsing @p words gives it.
struct ParsedProgram {
  /// @brief The program of @p step, not parsed yet.
  /// @param step the step (its program_step())
  explicit ParsedProgram(DenseStep step) : program(std::move(step)) {}

  /// @brief Parses @p words as the program's command line (course::parse_step_program).
  /// @param words the arguments after the program's name
  /// @param default_approach main.cu's APPROACH
  /// @return false for --help
  bool parse(const std::vector<std::string>& words, int default_approach = 1) {
    Arguments arguments(program.name(), words);
    choice.approach = default_approach;
    return parse_step_program(program, arguments.argc(), arguments.argv(), choice);
  }

  /// @brief The sizes of the single product.
  const ProductSizes& sizes() const { return program.sizes(); }
  /// @brief The benchmark's options.
  const BenchChoice& bench() const { return program.bench(); }

  DenseProgram program;  ///< the program, holding the step's parsed options
  RunChoice choice;      ///< approach, seed, repeats
};

/// @brief The message of the UsageError that parsing @p words as @p step's command line
/// throws ("" when it parses).
/// @param step the step
/// @param words the arguments
/// @param default_approach main.cu's APPROACH
/// @return the message
inline std::string usage_error_of_words(const DenseStep& step,
                                        const std::vector<std::string>& words,
                                        int default_approach = 1) {
  ParsedProgram parsed(step);
  return usage_error_of([&] { parsed.parse(words, default_approach); });
}

}  // namespace course::testing
