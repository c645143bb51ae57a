/// @file cli.cpp
/// @brief The course's command-line parser (see cli.hpp for its rules).

#include "common/cli.hpp"

#include "common/device.hpp"
#include "common/file_checks.hpp"
#include "common/random_fill.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <sstream>

namespace course {
namespace {

// A number for a message: "0.5", "1e+06", "0".
std::string format_real(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::string describe_range(const RealRange& range) {
  return "a number " +
         (range.min_excluded ? "greater than " + format_real(range.min)
                             : "from " + format_real(range.min)) +
         (range.min_excluded ? " and at most " : " to ") + format_real(range.max);
}

// The one grammar of numbers on a command line and in the environment: decimal only, no
// spaces around it, no '+' and no hex (strtoll and strtod would take ' 5', '+5', '0x1p-1').
// A whole number: an optional '-' and digits.
bool is_whole_number_text(const std::string& text) {
  const std::size_t first = !text.empty() && text[0] == '-' ? 1 : 0;
  if (first == text.size()) {
    return false;
  }
  for (std::size_t index = first; index < text.size(); ++index) {
    if (text[index] < '0' || text[index] > '9') {
      return false;
    }
  }
  return true;
}

// A decimal number: an optional '-', digits with an optional '.', at least one digit, then
// an optional exponent (e or E, an optional sign, digits): 5, -0.5, .5, 5., 1e-3, 2E+6.
bool is_decimal_number_text(const std::string& text) {
  std::size_t index = !text.empty() && text[0] == '-' ? 1 : 0;
  const auto digits = [&] {
    const std::size_t start = index;
    while (index < text.size() && text[index] >= '0' && text[index] <= '9') {
      ++index;
    }
    return index - start;
  };
  std::size_t mantissa = digits();
  if (index < text.size() && text[index] == '.') {
    ++index;
    mantissa += digits();
  }
  if (mantissa == 0) {
    return false;
  }
  if (index < text.size() && (text[index] == 'e' || text[index] == 'E')) {
    ++index;
    if (index < text.size() && (text[index] == '+' || text[index] == '-')) {
      ++index;
    }
    if (digits() == 0) {
      return false;
    }
  }
  return index == text.size();
}

// True for a word that is an option ("--seed"), not a value (a negative number is a value).
bool looks_like_option(const std::string& word) {
  return word.size() > 2 && word.compare(0, 2, "--") == 0;
}

// A fresh seed (fresh_seed(): the system's entropy, or COURSE_SEED when set) in 0..kMaxSeed.
long long draw_fresh_seed() {
  return static_cast<long long>(fresh_seed() & static_cast<std::uint64_t>(kMaxSeed));
}

}  // namespace

long long parse_integer(const std::string& name, const std::string& text, long long min,
                        long long max) {
  const std::string range =
      "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
  if (text.empty()) {
    throw UsageError(name + " needs a value: " + range);
  }
  if (!is_whole_number_text(text)) {
    throw UsageError(name + " must be " + range + ", got '" + text +
                     "' (not a whole number: decimal digits with an optional '-', no spaces, "
                     "'+' or other signs)");
  }
  errno = 0;
  const long long value = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || value < min || value > max) {
    throw UsageError(name + " must be " + range + ", got " + text);
  }
  return value;
}

double parse_real(const std::string& name, const std::string& text, const RealRange& range) {
  const std::string expected = describe_range(range);
  if (text.empty()) {
    throw UsageError(name + " needs a value: " + expected);
  }
  if (!is_decimal_number_text(text)) {
    throw UsageError(name + " must be " + expected + ", got '" + text +
                     "' (not a decimal number such as 0.5, -2 or 1e-3: no spaces, '+', hex, "
                     "inf or nan)");
  }
  errno = 0;
  const double value = std::strtod(text.c_str(), nullptr);
  // ERANGE with a finite result is an underflow (1e-320 is a denormal, 1e-400 rounds to 0):
  // a number all the same. With an infinite one, the text is beyond the largest double.
  if (!std::isfinite(value)) {
    throw UsageError(name + " must be " + expected + ", got '" + text +
                     "' (beyond the largest number, about 1.8e308)");
  }
  const bool below = range.min_excluded ? value <= range.min : value < range.min;
  if (below || value > range.max) {
    throw UsageError(name + " must be " + expected + ", got " + text);
  }
  return value;
}

ArgParser::ArgParser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

void ArgParser::add(Option option) {
  options_.push_back(std::move(option));
}

void ArgParser::add_integer(const std::string& name, long long* target, long long min,
                            long long max, const std::string& help) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  add({name, "N (" + range + ", default " + std::to_string(*target) + ")",
       "a whole number from " + std::to_string(min) + " to " + std::to_string(max), help, true,
       false,
       [=](const std::string& text, bool) { *target = parse_integer(name, text, min, max); }});
}

void ArgParser::add_integer_list(const std::string& name, std::vector<long long>* target,
                                 long long min, long long max, const std::string& help) {
  const std::string range = std::to_string(min) + ".." + std::to_string(max);
  add({name, "N[,N...] (each " + range + "; may be repeated)",
       "a list of whole numbers from " + std::to_string(min) + " to " + std::to_string(max), help,
       true, true, [=](const std::string& text, bool first) {
         if (first) {
           target->clear();
         }
         std::stringstream stream(text);
         std::string item;
         bool any = false;
         while (std::getline(stream, item, ',')) {
           const long long value = parse_integer(name, item, min, max);
           for (const long long seen : *target) {
             if (seen == value) {
               throw UsageError(name + " lists " + std::to_string(value) +
                                " twice (give each value once)");
             }
           }
           target->push_back(value);
           any = true;
         }
         if (!any) {
           throw UsageError(name + " needs at least one value");
         }
       }});
}

void ArgParser::add_real(const std::string& name, double* target, const RealRange& range,
                         const std::string& help) {
  add({name, "X (" + describe_range(range) + ", default " + format_real(*target) + ")",
       describe_range(range), help, true, false,
       [=](const std::string& text, bool) { *target = parse_real(name, text, range); }});
}

void ArgParser::add_flag(const std::string& name, bool* target, const std::string& help) {
  add({name, "", "", help, false, false, [=](const std::string&, bool) { *target = true; }});
}

void ArgParser::add_text(const std::string& name, std::string* target, const std::string& help) {
  add({name, "TEXT", "a value", help, true, false, [=](const std::string& text, bool) {
         if (text.empty()) {
           throw UsageError(name + " needs a non-empty value");
         }
         *target = text;
       }});
}

void ArgParser::add_seed(long long* target, const std::string& help) {
  const std::string range = "0.." + std::to_string(kMaxSeed);
  const std::string fallback =
      *target == kFreshSeed ? std::string("fresh") : std::to_string(*target);
  add({"--seed", "N|fresh (" + range + ", or fresh to draw one; default " + fallback + ")",
       "a whole number from 0 to " + std::to_string(kMaxSeed) + " or the word fresh",
       help + "; the seed used is printed", true, false, [=](const std::string& text, bool) {
         *target = text == "fresh" ? draw_fresh_seed() : parse_integer("--seed", text, 0, kMaxSeed);
       }});
  // A default of "fresh" becomes a real seed once the command line is read.
  finishers_.push_back([=] {
    if (*target == kFreshSeed) {
      *target = draw_fresh_seed();
    }
  });
}

void ArgParser::add_checked_path(const std::string& name, std::string* target,
                                 const std::string& help, const std::string& hint,
                                 const std::string& needs,
                                 void (*check)(const std::string&, const std::string&),
                                 PathRole role) {
  Option option{name, hint, needs, help, true, false, [=](const std::string& text, bool) {
                  if (text.empty()) {
                    throw UsageError(name + " needs " + needs + ", got an empty one");
                  }
                  try {
                    check(name, text);
                  } catch (const std::invalid_argument& error) {
                    throw UsageError(error.what());
                  }
                  *target = text;
                }};
  option.role = role;
  add(std::move(option));
}

void ArgParser::add_input_file(const std::string& name, std::string* target,
                               const std::string& help) {
  add_checked_path(name, target, help, "FILE", "a file name", require_input_file, PathRole::kInput);
}

void ArgParser::add_input_folder(const std::string& name, std::string* target,
                                 const std::string& help) {
  add_checked_path(name, target, help, "DIR", "a folder name", require_input_folder,
                   PathRole::kNone);
}

void ArgParser::add_output_file(const std::string& name, std::string* target,
                                const std::string& help) {
  add_checked_path(name, target, help, "FILE", "a file name", require_output_file,
                   PathRole::kOutput);
}

void ArgParser::add_output_folder(const std::string& name, std::string* target,
                                  const std::string& help) {
  add_checked_path(name, target, help, "DIR", "a folder name", require_output_folder,
                   PathRole::kNone);
}

void ArgParser::refuse_shared_paths() const {
  for (std::size_t first = 0; first < paths_.size(); ++first) {
    for (std::size_t second = first + 1; second < paths_.size(); ++second) {
      const auto& [one, one_path] = paths_[first];
      const auto& [other, other_path] = paths_[second];
      if (one->role != PathRole::kOutput && other->role != PathRole::kOutput) {
        continue;  // two inputs may be one file
      }
      const std::string one_identity = file_identity(one_path, one->role == PathRole::kOutput);
      if (!one_identity.empty() &&
          one_identity == file_identity(other_path, other->role == PathRole::kOutput)) {
        const bool both_outputs =
            one->role == PathRole::kOutput && other->role == PathRole::kOutput;
        throw UsageError(one->name + " " + one_path + " and " + other->name + " " + other_path +
                         " name the same file: " +
                         (both_outputs ? std::string("each output needs a file of its own")
                                       : std::string("an output may not overwrite an input")));
      }
    }
  }
}

const ArgParser::Option& ArgParser::find(const std::string& name) const {
  for (const Option& option : options_) {
    if (option.name == name) {
      return option;
    }
  }
  if (name.rfind("-", 0) != 0) {
    throw UsageError("unexpected argument '" + name + "' (options start with --; see --help)");
  }
  throw UsageError("unknown option '" + name + "' (see --help)");
}

void ArgParser::apply(const Option& option, const std::string& value) {
  const bool first = given_.insert(option.name).second;
  if (!first && !option.repeatable) {
    throw UsageError(option.name + " is given twice (give each option once)");
  }
  option.apply(value, first);
  if (option.role != PathRole::kNone) {
    paths_.emplace_back(&option, value);
  }
}

bool ArgParser::parse(int argc, char** argv) {
  given_.clear();
  paths_.clear();
  for (int index = 1; index < argc; ++index) {
    std::string argument = argv[index];
    if (argument == "--help" || argument == "-h") {
      std::cout << usage();
      return false;
    }
    std::string value;
    const std::size_t equals = argument.find('=');
    const bool has_inline_value = equals != std::string::npos;
    if (has_inline_value) {
      value = argument.substr(equals + 1);
      argument = argument.substr(0, equals);
    }
    const Option& option = find(argument);
    if (!option.takes_value && has_inline_value) {
      throw UsageError(argument + " takes no value");
    }
    if (option.takes_value && !has_inline_value) {
      if (index + 1 >= argc) {
        throw UsageError(argument + " needs " + option.needs);
      }
      value = argv[++index];
      if (looks_like_option(value)) {
        throw UsageError(argument + " needs " + option.needs + ", got the option " + value +
                         " (write " + argument + "=" + value + " if you mean it)");
      }
    }
    apply(option, value);
  }
  refuse_shared_paths();
  for (const auto& finish : finishers_) {
    finish();
  }
  return true;
}

bool ArgParser::given(const std::string& name) const {
  return given_.count(name) != 0;
}

void ArgParser::refuse_together(const std::string& option, const std::vector<std::string>& others,
                                const std::string& why) const {
  if (!given(option)) {
    return;
  }
  for (const std::string& other : others) {
    if (given(other)) {
      throw UsageError(option + " and " + other + " cannot be given together" +
                       (why.empty() ? "" : ": " + why));
    }
  }
}

void ArgParser::refuse_unless(const std::vector<std::string>& options, bool mode_on,
                              const std::string& mode) const {
  if (mode_on) {
    return;
  }
  for (const std::string& option : options) {
    if (given(option)) {
      throw UsageError(option + " applies only with " + mode + " (add " + mode + " or drop " +
                       option + ")");
    }
  }
}

std::string ArgParser::usage() const {
  std::ostringstream text;
  text << "Usage: " << program_ << " [options]\n\n" << description_ << "\n\nOptions:\n";
  for (const Option& option : options_) {
    text << "  " << option.name;
    if (option.takes_value) {
      text << " " << option.value_hint;
    }
    text << "\n      " << option.help << "\n";
  }
  text << "  --help\n      show this text and exit\n";
  return text.str();
}

int run_program(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const UsageError& error) {
    std::cerr << program << ": " << error.what() << "\n(run " << program
              << " --help for the options)\n";
    return 2;
  } catch (const NoDeviceError& error) {
    std::cerr << program << ": " << error.what() << "\n";
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": error: not enough host memory: an allocation was refused "
              << "(std::bad_alloc); use smaller sizes\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace course
