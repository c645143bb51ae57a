/// @file program_runner.hpp
/// @brief Runs a built program from a test and captures its exit code and output.
///
/// The steps' tests run their programs with bad command lines to check the exit code and the
/// message a user sees; this is the one place that knows how to do it.
#pragma once

#include <string>

namespace course::testing {

/// @brief Runs @p program with @p arguments through the shell, stdout and stderr together.
/// @param program path of the built program (quoted on the command line)
/// @param arguments its arguments, as one shell-split string
/// @param output receives everything the program printed
/// @return the program's exit code, or -1 when it did not exit normally (e.g. a signal)
int run_program_capture(const std::string& program, const std::string& arguments,
                        std::string& output);

}  // namespace course::testing
