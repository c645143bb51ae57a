/// @file arguments.hpp
/// @brief Command lines for option-parsing tests: argv built from words, and the message of
/// the course::UsageError a parse throws.
#pragma once

#include "common/cli.hpp"

#include <string>
#include <vector>

namespace course::testing {

/// @brief An argc/argv pair built from a program name and words, as main() receives them.
class Arguments {
 public:
  /// @brief Builds argv = {program, words...}.
  /// @param program argv[0]
  /// @param words the arguments after it
  Arguments(const std::string& program, const std::vector<std::string>& words) : words_(words) {
    words_.insert(words_.begin(), program);
    for (std::string& word : words_) {
      pointers_.push_back(word.data());
    }
  }
  // The pointers point into words_: a copy would point into the original.
  Arguments(const Arguments&) = delete;
  Arguments& operator=(const Arguments&) = delete;

  /// @brief Number of arguments, program name included.
  int argc() const { return static_cast<int>(pointers_.size()); }
  /// @brief The arguments, argv[0] being the program name.
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> words_;
  std::vector<char*> pointers_;
};

/// @brief Calls @p parse and returns the message of the course::UsageError it throws.
/// @tparam Parse a callable taking no arguments
/// @param parse the parse to try
/// @return the message, or "" when @p parse threw nothing
template <typename Parse>
std::string usage_error_of(Parse parse) {
  try {
    parse();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

}  // namespace course::testing
