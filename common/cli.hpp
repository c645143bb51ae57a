/// @file cli.hpp
/// @brief Command-line parsing for the step programs.
///
/// Options are `--name value` or `--name=value`. Every numeric option has an allowed range;
/// a value that is missing, not a number, or out of range is refused with a UsageError
/// that names the option and the range.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

/// @brief Thrown for a bad command line; the message names the argument and the limit.
class UsageError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param message what is wrong and what is allowed
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief Parses a whole number in [min, max]; throws UsageError naming @p name otherwise.
/// @param name the option, for the message (e.g. "--size")
/// @param text the text to parse
/// @param min smallest allowed value
/// @param max largest allowed value
long long parse_integer(const std::string& name, const std::string& text, long long min,
                        long long max);

/// @brief Declares options, parses argv into the caller's variables, and prints --help.
class ArgParser {
 public:
  /// @brief Creates a parser.
  /// @param program program name for the usage line
  /// @param description one paragraph shown by --help
  ArgParser(std::string program, std::string description);

  /// @brief An integer option with an allowed range; the variable holds the default.
  /// @param name option name including the dashes, e.g. "--size"
  /// @param target variable that receives the value
  /// @param min smallest allowed value
  /// @param max largest allowed value
  /// @param help one line for --help
  void add_integer(const std::string& name, long long* target, long long min, long long max,
                   const std::string& help);

  /// @brief A comma-separated list of integers, each in [min, max].
  /// @param name option name
  /// @param target variable that receives the list
  /// @param min smallest allowed value
  /// @param max largest allowed value
  /// @param help one line for --help
  void add_integer_list(const std::string& name, std::vector<long long>* target, long long min,
                        long long max, const std::string& help);

  /// @brief A flag without a value; sets @p target to true when present.
  /// @param name option name
  /// @param target variable set to true
  /// @param help one line for --help
  void add_flag(const std::string& name, bool* target, const std::string& help);

  /// @brief A text option (a path, a name).
  /// @param name option name
  /// @param target variable that receives the text
  /// @param help one line for --help
  void add_text(const std::string& name, std::string* target, const std::string& help);

  /// @brief Parses @p argv. Returns false when --help was given (usage already printed);
  /// throws UsageError for anything it cannot accept.
  /// @param argc argument count
  /// @param argv arguments
  bool parse(int argc, char** argv);

  /// @brief The --help text.
  std::string usage() const;

 private:
  struct Option {
    std::string name;
    std::string value_hint;
    std::string help;
    bool takes_value;
    std::function<void(const std::string&)> apply;
  };
  const Option& find(const std::string& name) const;

  std::string program_;
  std::string description_;
  std::vector<Option> options_;
};

/// @brief Runs a step program's body and turns exceptions into messages and exit codes:
/// 2 for a bad command line, 3 for a missing or unsuitable GPU, 1 for anything else.
/// @param program name printed before the message
/// @param body the program; its return value is the exit code
int run_program(const std::string& program, const std::function<int()>& body);

}  // namespace course
