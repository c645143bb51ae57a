/// @file program_runner.cpp
/// @brief Runs a program through std::system, its output going to a temporary file.

#include "common/testing/program_runner.hpp"

#include "common/random_fill.hpp"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace course::testing {

int run_program_capture(const std::string& program, const std::string& arguments,
                        std::string& output) {
  // A fresh name per run, so that test programs running in parallel do not share a log.
  const std::string log = (std::filesystem::temp_directory_path() /
                           ("course_program_test_" + std::to_string(fresh_seed()) + ".log"))
                              .string();
  const std::string command = "\"" + program + "\" " + arguments + " > " + log + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream file(log);
  output.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  std::remove(log.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace course::testing
