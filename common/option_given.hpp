/// @file option_given.hpp
/// @brief Whether an option appears on a command line, for rules that depend on what the
/// user typed rather than on the value (a default taken from --size, a mode check).
#pragma once

#include <string>

namespace course {

/// @brief True when option @p name appears in argv[1..] as "--name value" or "--name=value".
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param name the option, with its dashes
/// @return whether it was given
bool option_given(int argc, char** argv, const std::string& name);

}  // namespace course
