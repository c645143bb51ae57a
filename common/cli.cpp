#include "common/cli.hpp"

#include "common/device.hpp"

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace course {

long long parse_integer(const std::string& name, const std::string& text, long long min,
                        long long max) {
  const std::string range = "a whole number from " + std::to_string(min) + " to " +
                            std::to_string(max);
  if (text.empty()) {
    throw UsageError(name + " needs a value: " + range);
  }
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0') {
    throw UsageError(name + " must be " + range + ", got '" + text + "' (not a whole number)");
  }
  if (errno == ERANGE || value < min || value > max) {
    throw UsageError(name + " must be " + range + ", got " + text);
  }
  return value;
}

ArgParser::ArgParser(std::string program, std::string description)
    : program_(std::move(program)), description_(std::move(description)) {}

void ArgParser::add_integer(const std::string& name, long long* target, long long min,
                            long long max, const std::string& help) {
  const std::string hint = "N (" + std::to_string(min) + ".." + std::to_string(max) +
                           ", default " + std::to_string(*target) + ")";
  options_.push_back({name, hint, help, true, [=](const std::string& text) {
                        *target = parse_integer(name, text, min, max);
                      }});
}

void ArgParser::add_integer_list(const std::string& name, std::vector<long long>* target,
                                 long long min, long long max, const std::string& help) {
  const std::string hint = "N[,N...] (each " + std::to_string(min) + ".." +
                           std::to_string(max) + ")";
  options_.push_back({name, hint, help, true, [=](const std::string& text) {
                        std::vector<long long> values;
                        std::stringstream stream(text);
                        std::string item;
                        while (std::getline(stream, item, ',')) {
                          values.push_back(parse_integer(name, item, min, max));
                        }
                        if (values.empty()) {
                          throw UsageError(name + " needs at least one value");
                        }
                        *target = values;
                      }});
}

void ArgParser::add_flag(const std::string& name, bool* target, const std::string& help) {
  options_.push_back({name, "", help, false, [=](const std::string&) { *target = true; }});
}

void ArgParser::add_text(const std::string& name, std::string* target, const std::string& help) {
  options_.push_back({name, "TEXT", help, true, [=](const std::string& text) {
                        if (text.empty()) {
                          throw UsageError(name + " needs a non-empty value");
                        }
                        *target = text;
                      }});
}

const ArgParser::Option& ArgParser::find(const std::string& name) const {
  for (const Option& option : options_) {
    if (option.name == name) {
      return option;
    }
  }
  throw UsageError("unknown option '" + name + "' (see --help)");
}

bool ArgParser::parse(int argc, char** argv) {
  for (int index = 1; index < argc; ++index) {
    std::string argument = argv[index];
    if (argument == "--help" || argument == "-h") {
      std::cout << usage();
      return false;
    }
    std::string value;
    bool has_inline_value = false;
    const std::size_t equals = argument.find('=');
    if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
      argument = argument.substr(0, equals);
      has_inline_value = true;
    }
    const Option& option = find(argument);
    if (!option.takes_value) {
      if (has_inline_value) {
        throw UsageError(argument + " takes no value");
      }
      option.apply("");
      continue;
    }
    if (!has_inline_value) {
      if (index + 1 >= argc) {
        throw UsageError(argument + " needs a value: " + option.value_hint);
      }
      value = argv[++index];
    }
    option.apply(value);
  }
  return true;
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
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace course
