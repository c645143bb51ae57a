/// @file test_main.cpp
/// @brief The one Catch2 main every course test program links.
///
/// Tests that need a GPU carry the tag [gpu]. Without a GPU:
///  - when only [gpu] tests are selected (ctest runs one test case per process), the
///    program prints why and exits with kSkipReturnCode, which ctest reports as skipped
///    (or, in a build of an exercise or a student's kernels, as failed: see
///    course_add_test_program in cmake/Course.cmake);
///  - when a mix is selected, the [gpu] tests are filtered out and the rest run; the
///    program says so before and after Catch2's summary, so that "All tests passed" is
///    never the last word when tests did not run.
/// The line it prints starts with "no GPU:" and says that nothing those tests check has
/// been checked.
/// `--course-list-tests` prints one "name<TAB>tag;tag" line per test case; CMake uses it
/// to register each test case with ctest as "<label>: name", its tags becoming ctest labels.
/// A name that begins with "step" is refused there: the label already says the step.
/// `--course-has-gpu` exits with 0 when a GPU is present and with kSkipReturnCode when
/// not, printing which (scripts/try_exercise.sh asks it).
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

// What the program says when [gpu] tests did not run for want of a GPU.
std::string not_run_line(std::size_t gpu_tests) {
  if (gpu_tests == 1) {
    return "no GPU: this test needs one and did not run -- nothing it checks has been checked";
  }
  return "no GPU: " + std::to_string(gpu_tests) +
         " [gpu] test cases need one and did not run -- nothing they check has been checked";
}

// Without a GPU: returns kSkipReturnCode if every selected test needs one, otherwise
// narrows the selection to the tests that do not and sets gpu_tests to the number left out.
int exclude_gpu_tests(Catch::Session& session, std::size_t& gpu_tests) {
  const auto& config = session.config();
  const auto selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  gpu_tests = 0;
  for (const Catch::TestCase& test : selected) {
    gpu_tests += has_tag(test, "gpu") ? 1 : 0;
  }
  if (gpu_tests == 0) {
    return 0;
  }
  if (gpu_tests == selected.size()) {
    std::cout << not_run_line(gpu_tests) << "\n";
    return kSkipReturnCode;
  }
  std::cout << not_run_line(gpu_tests) << "\n";
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
  if (argc == 2 && std::string(argv[1]) == "--course-has-gpu") {
    const bool present = course::has_cuda_device();
    std::cout << (present ? "GPU: " + course::gpu_name() : std::string("no GPU")) << "\n";
    return present ? 0 : kSkipReturnCode;
  }
  Catch::Session session;
  const bool list_mode = argc == 2 && std::string(argv[1]) == "--course-list-tests";
  const int parse_status = session.applyCommandLine(list_mode ? 1 : argc, argv);
  if (parse_status != 0) {
    return parse_status;
  }
  if (list_mode) {
    return list_for_ctest(session);
  }
  std::size_t gpu_tests = 0;
  if (!course::has_cuda_device()) {
    const int status = exclude_gpu_tests(session, gpu_tests);
    if (status != 0) {
      return status;
    }
  }
  const int failures = session.run();
  if (gpu_tests > 0) {
    std::cout << not_run_line(gpu_tests) << "\n";
  }
  return failures;
}
