/// @file cli.hpp
/// @brief Command-line parsing for the step programs and tools.
///
/// One behaviour for every program:
/// - options are `--name value` or `--name=value`; a flag takes no value;
/// - an option that needs a value refuses a following `--option` ("--out needs a file name,
///   got the option --seed"); write `--out=--seed` to mean a file really named so;
/// - every number has a range and one grammar, for options and environment variables alike
///   (COURSE_SEED): decimal only, an optional leading '-', no spaces around it, no '+', no hex
///   (`0x10`, `0x1p-1`), no `nan` or `inf`; a real number may have a fraction and an exponent
///   (`1e-3`, `2E+6`), and a denormal such as `1e-320` is a number like any other. A value
///   that is missing, breaks the grammar (`0.5abc`, ` 5`, `+5`) or is out of range is refused
///   with the option, the range and what was given;
/// - an option given twice is refused, except a list option, whose values add up;
/// - files are checked when parsed: an input file must be a regular, readable file (a FIFO,
///   a device, a socket or a folder is refused by name), an input folder a folder, and an
///   output file must go to an existing, writable folder (an output folder must exist and be
///   writable); two outputs may not name one file, nor an output an input (`--csv t.md
///   --markdown t.md`, `--csv shapes.txt --shapes shapes.txt`): each is refused before any
///   work, and outputs are then written whole or not at all (output_file.hpp);
/// - a list refuses a value given twice;
/// - `--seed N` is a real seed everywhere, and `--seed fresh` draws a new one; after parse()
///   the seed is always a real one, which the program prints so that the run can be repeated;
/// - the program then asks the parser which options were given (given()), to refuse options
///   that conflict (refuse_together()) or that do not apply to the chosen mode
///   (refuse_unless()). It never has to look at argv again.
/// Every refusal is a UsageError (exit status 2 through run_program).
#pragma once

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief Thrown for a bad command line; the message names the argument and the limit.
class UsageError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param message what is wrong and what is allowed
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief The value a seed variable holds before parse() to ask for a fresh seed by default.
constexpr long long kFreshSeed = -1;

/// @brief Largest seed: seeds are whole numbers from 0 to 2^63 - 1.
constexpr long long kMaxSeed = 0x7fffffffffffffffLL;

/// @brief Parses a whole number in [min, max] (decimal digits with an optional '-', nothing
/// around them); throws UsageError naming @p name, the range and the text otherwise.
/// @param name the option, for the message (e.g. "--size")
/// @param text the text to parse
/// @param min smallest allowed value
/// @param max largest allowed value
/// @return the value
long long parse_integer(const std::string& name, const std::string& text, long long min,
                        long long max);

/// @brief The allowed values of a floating-point option: [min, max], or (min, max] when
/// @p min_excluded is true (e.g. a density: more than 0, at most 1).
struct RealRange {
  double min;                 ///< smallest allowed value (or its exclusive bound)
  double max;                 ///< largest allowed value
  bool min_excluded = false;  ///< true: the value must be greater than min
};

/// @brief Parses a decimal number inside @p range (the grammar of the file comment); throws
/// UsageError naming @p name, the range and the text for anything else: trailing text,
/// spaces, '+', hex, nan/inf, a value beyond the double range or outside @p range.
/// @param name the option, for the message
/// @param text the text to parse
/// @param range the allowed values
/// @return the value
double parse_real(const std::string& name, const std::string& text, const RealRange& range);

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

  /// @brief A comma-separated list of integers, each in [min, max]. The option may be
  /// repeated; its values are then appended (the default is replaced by the first). A value
  /// given twice is refused ("--approaches lists 1 twice").
  /// @param name option name
  /// @param target variable that receives the list
  /// @param min smallest allowed value
  /// @param max largest allowed value
  /// @param help one line for --help
  void add_integer_list(const std::string& name, std::vector<long long>* target, long long min,
                        long long max, const std::string& help);

  /// @brief A floating-point option with an allowed range (see parse_real()).
  /// @param name option name
  /// @param target variable that receives the value (holds the default)
  /// @param range allowed values
  /// @param help one line for --help
  void add_real(const std::string& name, double* target, const RealRange& range,
                const std::string& help);

  /// @brief A flag without a value; sets @p target to true when present.
  /// @param name option name
  /// @param target variable set to true
  /// @param help one line for --help
  void add_flag(const std::string& name, bool* target, const std::string& help);

  /// @brief A text option (a name, a keyword); empty text is refused.
  /// @param name option name
  /// @param target variable that receives the text
  /// @param help one line for --help
  void add_text(const std::string& name, std::string* target, const std::string& help);

  /// @brief `--seed`: a whole number 0..kMaxSeed, or `fresh` for a new one drawn from the
  /// system. When @p target holds kFreshSeed, the default is a fresh seed; otherwise the
  /// value it holds. After parse() it holds a real seed in every case.
  /// @param target variable that receives the seed (holds the default)
  /// @param help one line for --help (what the seed draws)
  void add_seed(long long* target, const std::string& help);

  /// @brief A file to read: it must exist and be a regular, readable file, checked when
  /// parsed (require_input_file() in file_checks.hpp).
  /// @param name option name
  /// @param target variable that receives the path
  /// @param help one line for --help
  void add_input_file(const std::string& name, std::string* target, const std::string& help);

  /// @brief A folder to read: it must exist and be a folder, checked when parsed.
  /// @param name option name
  /// @param target variable that receives the path
  /// @param help one line for --help
  void add_input_folder(const std::string& name, std::string* target, const std::string& help);

  /// @brief A file to write: its folder must exist and be writable, and the path must not
  /// name a FIFO, device or folder; checked when parsed, before any work.
  /// @param name option name
  /// @param target variable that receives the path
  /// @param help one line for --help
  void add_output_file(const std::string& name, std::string* target, const std::string& help);

  /// @brief A folder to write files into: it must exist and be writable, checked when parsed.
  /// @param name option name
  /// @param target variable that receives the path (holds the default)
  /// @param help one line for --help
  void add_output_folder(const std::string& name, std::string* target, const std::string& help);

  /// @brief Parses @p argv. Returns false when --help was given (usage already printed);
  /// throws UsageError for anything it cannot accept.
  /// @param argc argument count
  /// @param argv arguments
  /// @return false for --help, true otherwise
  bool parse(int argc, char** argv);

  /// @brief Whether option @p name was on the command line of the last parse().
  /// @param name a declared option, with its dashes
  /// @return true when given
  bool given(const std::string& name) const;

  /// @brief Refuses @p option together with any of @p others (e.g. --size with --rows).
  /// @param option the option
  /// @param others options that conflict with it
  /// @param why the reason, appended to the message (may be empty)
  void refuse_together(const std::string& option, const std::vector<std::string>& others,
                       const std::string& why) const;

  /// @brief Refuses every option of @p options that was given while @p mode_on is false:
  /// "--csv applies only with --bench (add --bench or drop --csv)".
  /// @param options options that belong to the mode
  /// @param mode_on whether the mode was chosen
  /// @param mode how the user chooses the mode, e.g. "--bench"
  void refuse_unless(const std::vector<std::string>& options, bool mode_on,
                     const std::string& mode) const;

  /// @brief The --help text.
  /// @return the text
  std::string usage() const;

 private:
  /// What a path option names, for the check that no two of them name one file.
  enum class PathRole { kNone, kInput, kOutput };
  struct Option {
    std::string name;
    std::string value_hint;  // shown by --help, e.g. "N (1..32, default 4)"
    std::string needs;       // what a missing value should have been, e.g. "a file name"
    std::string help;
    bool takes_value;
    bool repeatable;
    std::function<void(const std::string&, bool first)> apply;
    PathRole role = PathRole::kNone;
  };
  void add_checked_path(const std::string& name, std::string* target, const std::string& help,
                        const std::string& hint, const std::string& needs,
                        void (*check)(const std::string&, const std::string&), PathRole role);
  void refuse_shared_paths() const;
  const Option& find(const std::string& name) const;
  void add(Option option);
  void apply(const Option& option, const std::string& value);

  std::string program_;
  std::string description_;
  std::vector<Option> options_;
  std::vector<std::function<void()>> finishers_;  // run after every argument (fresh seeds)
  std::set<std::string> given_;
  std::vector<std::pair<const Option*, std::string>> paths_;  // path options as given
};

/// @brief Runs a step program's body and turns exceptions into messages and exit codes:
/// 2 for a bad command line, 3 for a missing or unsuitable GPU, 1 for anything else (bad
/// data, a run that cannot fit in memory, a failed check). A std::bad_alloc becomes "not
/// enough host memory", never a bare exception name.
/// @param program name printed before the message
/// @param body the program; its return value is the exit code
/// @return the exit code
int run_program(const std::string& program, const std::function<int()>& body);

}  // namespace course
