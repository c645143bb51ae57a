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
/// A command line Catch2 cannot read exits with status 2, like every course program's.
/// It builds with Catch2 2 and 3 (common/testing/catch2.hpp); the few calls into Catch2's
/// session and test registry that differ between the two are wrapped below.
#if COURSE_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_case_info.hpp>
#include <catch2/internal/catch_string_manip.hpp>
#include <catch2/internal/catch_test_case_registry_impl.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "common/device.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace {

constexpr int kSkipReturnCode = 77;

#if COURSE_CATCH2_MAJOR >= 3
using TestCase = Catch::TestCaseInfo;

// Catch2 3 keeps handles to the test cases; their information is what the main reads.
std::vector<const TestCase*> selected_tests(const std::vector<Catch::TestCaseHandle>& handles) {
  std::vector<const TestCase*> tests;
  for (const Catch::TestCaseHandle& handle : handles) {
    tests.push_back(&handle.getTestCaseInfo());
  }
  return tests;
}

// The tags of a test, lower-cased as Catch2 matches them.
std::vector<std::string> lower_case_tags(const TestCase& test) {
  std::vector<std::string> tags;
  for (const Catch::Tag& tag : test.tags) {
    tags.push_back(Catch::toLower(static_cast<std::string>(tag.original)));
  }
  return tags;
}

// True when the command line asks only for help or a listing: nothing runs, no GPU is needed.
bool runs_no_test(const Catch::ConfigData& data) {
  return data.showHelp || data.listTests || data.listTags || data.listReporters ||
         data.listListeners;
}
#else
using TestCase = Catch::TestCase;

std::vector<const TestCase*> selected_tests(const std::vector<TestCase>& cases) {
  std::vector<const TestCase*> tests;
  for (const TestCase& test : cases) {
    tests.push_back(&test);
  }
  return tests;
}

std::vector<std::string> lower_case_tags(const TestCase& test) {
  return test.lcaseTags;
}

bool runs_no_test(const Catch::ConfigData& data) {
  return data.showHelp || data.listTests || data.listTestNamesOnly || data.listTags ||
         data.listReporters;
}
#endif

bool has_tag(const TestCase& test, const std::string& tag) {
  for (const std::string& each : lower_case_tags(test)) {
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
  for (const TestCase* test : selected_tests(Catch::getAllTestCasesSorted(session.config()))) {
    if (test->isHidden()) {
      continue;
    }
    if (!usable_as_filter(test->name)) {
      std::cerr << "test name '" << test->name << "' contains one of , [ ] ~ * \\ \" ; "
                << "which Catch2 filters treat specially: rename the test\n";
      return 1;
    }
    if (begins_with_step(test->name)) {
      std::cerr << "test name '" << test->name << "' begins with \"step\": ctest names it "
                << "\"<label>: <name>\", the label saying the step; drop the prefix\n";
      return 1;
    }
    const std::vector<std::string> tags = lower_case_tags(*test);
    std::cout << test->name << "\t";
    for (std::size_t index = 0; index < tags.size(); ++index) {
      std::cout << (index == 0 ? "" : ";") << tags[index];
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
  // filterTests returns its selection by value: keep it while pointers into it are read.
  const auto filtered =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  const std::vector<const TestCase*> selected = selected_tests(filtered);
  gpu_tests = 0;
  for (const TestCase* test : selected) {
    gpu_tests += has_tag(*test, "gpu") ? 1 : 0;
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
  if (session.applyCommandLine(list_mode ? 1 : argc, argv) != 0) {
    return 2;  // Catch2 has said what it could not read
  }
  if (list_mode) {
    return list_for_ctest(session);
  }
  if (runs_no_test(session.configData())) {
    return session.run();  // --help, --list-tests...: printed or printed by run(), exit 0
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
