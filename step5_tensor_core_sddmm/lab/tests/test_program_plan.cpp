/// @file test_program_plan.cpp
/// @brief GPU test: step5_going_further on a Matrix Market file says whether S is a pattern and
/// prints approach 4's plan, and that plan is the one the benchmark's path (mask_set_cases,
/// HostSampling, the benchmark's default options) builds for the same S and inner, so that the
/// benchmark's figures are those of the path a user runs.
///
/// Step 5, tests (the lab): the program a student runs builds the plan the benchmark measures.
/// Read first: ../../going_further/panel_pattern.hpp, ../../step5_program.hpp, bench/bench.hpp.
#include "common/testing/catch2.hpp"

#include "common/matrix_market.hpp"
#include "common/random_fill.hpp"
#include "common/testing/program_runner.hpp"
#include "common/host_sampling.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"
#include "step5_tensor_core_sddmm/lab/bench/case_set_files.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

namespace {

/// The line of @p output that starts with @p prefix ("" when none).
std::string line_starting(const std::string& output, const std::string& prefix) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) == 0) {
      return line;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("the program and the benchmark build the same plan and both see a pattern",
          "[step5][gpu]") {
  // A mask of the benchmark's public kinds, made as the benchmark makes its cases
  // (mask_set_cases), as a pattern and with values.
  std::istringstream set(
      "block-sparse rows=1024 block=16 density=0.1 seed=5 inner=64\n"
      "block-sparse rows=1024 block=16 density=0.1 seed=5 values=random inner=64\n");
  const auto cases = course::step5::bench::mask_set_cases(
      course::step5::bench::parse_mask_set(set, "set.txt"), "set", 1);
  REQUIRE(cases.size() == 2);
  const course::step5::bench::Settings settings;  // the benchmark's default options
  for (const auto& bench_case : cases) {
    const course::CooMatrix s = bench_case.make();
    REQUIRE(s.nnz() > 4096);  // large enough for the GPU's check of S
    // The benchmark's path: HostSampling, then approach 4 with the benchmark's options.
    const course::HostSampling sampling(s);
    const std::unique_ptr<course::step5::DevicePattern> pattern =
        course::step5::upload_with_panels(sampling);
    const auto plan =
        course::step5::hybrid_approach(settings.hybrid).make_plan(*pattern, bench_case.inner);
    // The program's path: the same S as a Matrix Market file (pattern when every value is one).
    const std::string path =
        (std::filesystem::temp_directory_path() /
         ("step5_program_plan_" + std::to_string(course::fresh_seed()) + ".mtx"))
            .string();
    course::write_matrix_market(path, s, sampling.pattern());
    std::string output;
    const int status =
        course::testing::run_program_capture(STEP5_GOING_FURTHER_PATH,
                                             "--approach 4 --matrix " + path + " --inner " +
                                                 std::to_string(bench_case.inner) + " --repeats 1",
                                             output);
    std::remove(path.c_str());
    INFO(bench_case.name << ":\n" << output);
    REQUIRE(status == 0);
    CHECK(line_starting(output, "S: ")
              .rfind(std::string("S: ") + (sampling.pattern() ? "pattern" : "values"), 0) == 0);
    CHECK(line_starting(output, "plan: ") == plan->describe());
    CHECK_FALSE(plan->describe().empty());
  }
}
