/// @file option_given.cpp
/// @brief Looks for an option on the command line.

#include "common/option_given.hpp"

namespace course {

bool option_given(int argc, char** argv, const std::string& name) {
  for (int index = 1; index < argc; ++index) {
    const std::string argument = argv[index];
    if (argument == name || argument.rfind(name + "=", 0) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace course
