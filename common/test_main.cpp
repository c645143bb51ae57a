/// @file test_main.cpp
/// @brief The one Catch2 main every course test program links.
///
/// Tests that need a GPU carry the tag [gpu]. Without a GPU:
///  - when only [gpu] tests are selected (ctest runs one test case per process), the
///    program prints why and exits with kSkipReturnCode, which ctest reports as skipped;
///  - when a mix is selected, the [gpu] tests are filtered out and the rest run.
/// `--course-list-tests` prints one "name<TAB>tag;tag" line per test case; CMake uses it
/// to register each test case with ctest as "<label>: name", its tags becoming ctest labels.
/// A name that begins with "step" is refused there: the label already says the step.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "common/device.hpp"

#include <iostream>
#include <string>

namespace {

constexpr int kSkipReturnCode = 77;

bool has_tag(const Catch::TestCase& test, const std::string& tag) {
  for (const std::string& each : test.lcaseTags) {
    if (each == tag) {
      return true;
    }
  }
  return false;
}

// ctest runs each test case by passing its name as a Catch2 filter, in which these
// characters have a meaning of their own; a name holding one would select nothing.
bool usable_as_filter(const std::string& name) {
  return name.find_first_of(",[]~*\\\";") == std::string::npos;
}

// ctest prefixes every name with its program's label ("step4: "); a name that begins with
// "step" itself would say the step twice.
bool begins_with_step(const std::string& name) {
  return Catch::startsWith(Catch::toLower(name), "step");
}

int list_for_ctest(Catch::Session& session) {
  for (const Catch::TestCase& test : Catch::getAllTestCasesSorted(session.config())) {
    if (test.isHidden()) {
      continue;
    }
    if (!usable_as_filter(test.name)) {
      std::cerr << "test name '" << test.name << "' contains one of , [ ] ~ * \\ \" ; "
                << "which Catch2 filters treat specially: rename the test\n";
      return 1;
    }
    if (begins_with_step(test.name)) {
      std::cerr << "test name '" << test.name << "' begins with \"step\": ctest names it "
                << "\"<label>: <name>\", the label saying the step; drop the prefix\n";
      return 1;
    }
    std::cout << test.name << "\t";
    for (std::size_t index = 0; index < test.lcaseTags.size(); ++index) {
      std::cout << (index == 0 ? "" : ";") << test.lcaseTags[index];
    }
    std::cout << "\n";
  }
  return 0;
}

// Without a GPU: returns kSkipReturnCode if every selected test needs one, otherwise
// narrows the selection to the tests that do not.
int exclude_gpu_tests(Catch::Session& session) {
  const auto& config = session.config();
  const auto selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  std::size_t gpu_tests = 0;
  for (const Catch::TestCase& test : selected) {
    gpu_tests += has_tag(test, "gpu") ? 1 : 0;
  }
  if (gpu_tests == 0) {
    return 0;
  }
  if (gpu_tests == selected.size()) {
    std::cout << "SKIPPED: no CUDA device found; the selected test needs a GPU\n";
    return kSkipReturnCode;
  }
  std::cout << "No CUDA device found: skipping " << gpu_tests << " [gpu] test case(s)\n";
  Catch::ConfigData data = session.configData();
  if (data.testsOrTags.empty()) {
    data.testsOrTags.push_back("~[gpu]");
  } else {
    for (std::string& filter : data.testsOrTags) {
      filter += " ~[gpu]";  // a space means "and" in a Catch2 test spec
    }
  }
  session.useConfigData(data);
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  const bool list_mode = argc == 2 && std::string(argv[1]) == "--course-list-tests";
  const int parse_status = session.applyCommandLine(list_mode ? 1 : argc, argv);
  if (parse_status != 0) {
    return parse_status;
  }
  if (list_mode) {
    return list_for_ctest(session);
  }
  if (!course::has_cuda_device()) {
    const int status = exclude_gpu_tests(session);
    if (status != 0) {
      return status;
    }
  }
  return session.run();
}
