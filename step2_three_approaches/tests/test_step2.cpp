/// @file test_step2.cpp
/// @brief Step 2's tests: the three approaches against the double CPU reference, the launch limits,
/// the DEBUG check, the benchmark's speedup column and the refusal of bad command lines.
#include "common/testing/catch2.hpp"

#include "common/cli.hpp"
#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"
#include "common/product_sizes.hpp"
#include "common/random_fill.hpp"
#include "common/testing/arguments.hpp"
#include "common/testing/parsed_program.hpp"
#include "common/testing/product_checks.hpp"
#include "common/testing/program_runner.hpp"
#include "common/timed_product.hpp"
#include "common/square_benchmark.hpp"
#include "step2_three_approaches/step2_launchers.hpp"
#include "step2_three_approaches/step2_program.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using course::InputKind;
using course::ProductSizes;

// Runs approach @p approach on fresh random inputs with a poisoned output and compares with
// the double reference: bit-exact for small integers, fp32 tolerance for uniform floats.
void check_approach(int approach, const ProductSizes& sizes, InputKind inputs) {
  course::testing::check_launch("approach " + std::to_string(approach), sizes, inputs,
                                [&](const float* a, const float* b, float* c) {
                                  course::step2::launch_approach(approach, a, b, c, sizes);
                                });
}

// Shapes for every approach: tiny, odd, exactly one tile or block, one past it, more outputs
// than approach 1's 1024 threads, and rectangular shapes that are not multiples of 32.
const std::vector<ProductSizes> kCommonSizes = {
    {1, 1, 1},     {2, 3, 4},    {31, 31, 31}, {32, 32, 32}, {33, 33, 33}, {50, 70, 45},
    {100, 37, 65}, {64, 64, 64}, {1000, 1, 3}, {3, 1, 1000}, {1, 300, 1},  {65, 129, 257}};

// Larger shapes for the many-block approaches only (approach 1 would be slow, not wrong).
const std::vector<ProductSizes> kLargeSizes = {{257, 300, 31}, {300, 513, 289}, {1, 70, 2000}};

// Step 2's program after parsing @p words (main.cu's APPROACH 3 unless told).
bool parse_words(const std::vector<std::string>& words, course::testing::ParsedProgram& options,
                 int default_approach = 3) {
  return options.parse(words, default_approach);
}

std::string usage_error_of(const std::vector<std::string>& words) {
  return course::testing::usage_error_of_words(course::step2::program_step(), words, 3);
}

// Runs the built program with @p arguments; returns its exit code and its output.
int run_program(const std::string& arguments, std::string& output) {
  return course::testing::run_program_capture(STEP2_PROGRAM_PATH, arguments, output);
}

course::BenchRow row_of(const std::string& name, const std::vector<std::optional<double>>& times) {
  std::vector<int> runs;
  for (const auto& time : times) {
    runs.push_back(time ? 3 : 0);
  }
  return {name, times, runs};
}

}  // namespace

TEST_CASE("approach 1 single block loop matches the reference", "[step2][gpu]") {
  for (const ProductSizes& sizes : kCommonSizes) {
    check_approach(1, sizes, InputKind::small_integers);
    check_approach(1, sizes, InputKind::uniform);
  }
}

TEST_CASE("approach 2 one thread per element matches the reference", "[step2][gpu]") {
  for (const ProductSizes& sizes : kCommonSizes) {
    check_approach(2, sizes, InputKind::small_integers);
    check_approach(2, sizes, InputKind::uniform);
  }
  for (const ProductSizes& sizes : kLargeSizes) {
    check_approach(2, sizes, InputKind::small_integers);
    check_approach(2, sizes, InputKind::uniform);
  }
}

TEST_CASE("approach 3 output tiles without shared memory matches the reference", "[step2][gpu]") {
  for (const ProductSizes& sizes : kCommonSizes) {
    check_approach(3, sizes, InputKind::small_integers);
    check_approach(3, sizes, InputKind::uniform);
  }
  for (const ProductSizes& sizes : kLargeSizes) {
    check_approach(3, sizes, InputKind::small_integers);
    check_approach(3, sizes, InputKind::uniform);
  }
}

TEST_CASE("launchers refuse sizes they cannot launch before touching the GPU", "[step2]") {
  using course::step2::launch_approach;
  CHECK_THROWS_AS(launch_approach(1, nullptr, nullptr, nullptr, {0, 4, 4}), std::invalid_argument);
  CHECK_THROWS_AS(launch_approach(3, nullptr, nullptr, nullptr, {4, -1, 4}), std::invalid_argument);
  CHECK_THROWS_AS(launch_approach(4, nullptr, nullptr, nullptr, {4, 4, 4}), std::invalid_argument);
  CHECK_THROWS_WITH(launch_approach(2, nullptr, nullptr, nullptr, {70000, 1, 1}),
                    Catch::Contains("65535"));
  CHECK_THROWS_WITH(launch_approach(3, nullptr, nullptr, nullptr, {100000, 30000, 1}),
                    Catch::Contains("2^31"));
  CHECK_NOTHROW(course::step2::check_approach_sizes(3, {70000, 1, 1}));
}

TEST_CASE("DEBUG check says wrong answer for one corrupted element", "[step2]") {
  course::testing::check_debug_verify_flags({40, 70, 33}, 39, 0, -0.25f);
}

TEST_CASE("DEBUG check catches a corrupted GPU result", "[step2][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::ProductOperands operands(45, 64, 50, seed);
  course::step2::launch_one_thread_per_element(operands.device_a.data(), operands.device_b.data(),
                                               operands.device_c.data(), {45, 64, 50});
  course::HostMatrix<float> got = operands.device_c.to_host();
  std::ostringstream correct_report;
  CHECK(course::debug_verify(operands.a, operands.b, got, correct_report));
  got(44, 49) *= 2.0f;
  got(44, 49) += 1.0f;
  std::ostringstream wrong_report;
  CHECK_FALSE(course::debug_verify(operands.a, operands.b, got, wrong_report));
  CHECK(wrong_report.str().find("wrong answer") != std::string::npos);
}

TEST_CASE("benchmark speedup is the mean over the two largest sizes", "[step2]") {
  using course::speedup_over_serial;
  const auto serial = row_of("serial", {100.0, 800.0, 6400.0});
  const auto method = row_of("m", {10.0, 4.0, 16.0});
  const auto speedup = speedup_over_serial(serial, method);
  REQUIRE(speedup.has_value());
  CHECK(*speedup == Approx((800.0 / 4.0 + 6400.0 / 16.0) / 2.0));
  // The serial product not measured at the largest size: no speedup.
  const auto partial_serial = row_of("serial", {100.0, 800.0, std::nullopt});
  CHECK_FALSE(speedup_over_serial(partial_serial, method).has_value());
  CHECK_FALSE(speedup_over_serial(row_of("s", {1.0}), row_of("m", {1.0})).has_value());
}

TEST_CASE("benchmark table shows a dash for every cell not measured", "[step2]") {
  const std::vector<int> sizes{1024, 2048, 4096};
  const auto serial = row_of("serial CPU", {100.0, 800.0, std::nullopt});
  const auto approach = row_of("approach 2", {1.0, 8.0, 64.0});
  const auto cublas = row_of("cuBLAS SGEMM (fp32)", {0.5, 4.0, 16.0});
  const std::string table = course::make_table(sizes, serial, {approach, cublas}).markdown();
  INFO(table);
  CHECK(table.find("2^10 (ms)") != std::string::npos);
  CHECK(table.find("2^12 (ms)") != std::string::npos);
  CHECK(table.find("| serial CPU | 100.000 | 800.000 | - | - |") != std::string::npos);
  // approach 2: no speedup (serial missing at 2^12), 25.0 % of cuBLAS at 2^12.
  CHECK(table.find("| approach 2 | 1.000 | 8.000 | 64.000 | - |") != std::string::npos);
  CHECK(table.find("| 25.00 | 3/3/3 |") != std::string::npos);
  CHECK(table.find("3/3/-") != std::string::npos);
}

TEST_CASE("benchmark gives slow methods fewer runs at large sizes", "[step2]") {
  using course::runs_for;
  CHECK(runs_for(4096, 5, false) == 5);
  CHECK(runs_for(4096, 5, true) == 1);
  CHECK(runs_for(2048, 5, true) == 2);
  CHECK(runs_for(1024, 5, true) == 3);
  CHECK(runs_for(1024, 1, true) == 1);
}

TEST_CASE("benchmark runs and checks every method on small sizes", "[step2][gpu]") {
  course::testing::ParsedProgram options(course::step2::program_step());
  REQUIRE(parse_words({"--bench", "--bench-sizes", "64,96", "--serial-max", "96", "--repeats", "2"},
                      options));
  std::ostringstream table;
  std::ostringstream progress;
  CHECK(options.program.run_benchmark(options.choice, table, progress) == 0);
  INFO(table.str() << progress.str());
  CHECK(table.str().find("| approach 1 |") != std::string::npos);
  CHECK(table.str().find("| cuBLAS SGEMM (fp32) |") != std::string::npos);
  CHECK(progress.str().find("wrong answer") == std::string::npos);
}

TEST_CASE("options accept sizes and approaches and benchmark settings", "[step2]") {
  course::testing::ParsedProgram options(course::step2::program_step());
  REQUIRE(
      parse_words({"--rows", "100", "--inner", "100", "--cols", "7", "--approach", "1"}, options));
  CHECK((options.sizes().rows == 100 && options.sizes().inner == 100 && options.sizes().cols == 7));
  course::testing::ParsedProgram square(course::step2::program_step());
  REQUIRE(parse_words({"--size", "64"}, square));
  CHECK((square.sizes().rows == 64 && square.sizes().inner == 64 && square.sizes().cols == 64));
  // --size sets all three sizes, so it cannot be combined with one of them.
  CHECK(usage_error_of({"--size", "100", "--cols", "7"}).find("cannot be given together") !=
        std::string::npos);
  CHECK(options.choice.approach == 1);
  course::testing::ParsedProgram from_macro(course::step2::program_step());
  REQUIRE(parse_words({}, from_macro, 2));
  CHECK(from_macro.choice.approach == 2);
  CHECK(from_macro.sizes().rows == 1024);
  course::testing::ParsedProgram bench(course::step2::program_step());
  REQUIRE(parse_words({"--bench", "--bench-sizes=2048,1024", "--serial-max", "0"}, bench));
  CHECK(bench.bench().on);
  CHECK(bench.bench().sizes == std::vector<int>{1024, 2048});
  CHECK(bench.bench().serial_max == 0);
  CHECK(usage_error_of({"--bench", "--bench-sizes=1024,1024"}).find("lists 1024 twice") !=
        std::string::npos);
}

TEST_CASE("options refuse zero and negative and non-numeric values", "[step2]") {
  for (const auto& words : std::vector<std::vector<std::string>>{{"--size", "0"},
                                                                 {"--rows", "-5"},
                                                                 {"--inner", "ten"},
                                                                 {"--cols", "3.5"},
                                                                 {"--approach", "0"},
                                                                 {"--approach", "4"},
                                                                 {"--repeats", "-1"},
                                                                 {"--size"}}) {
    const std::string message = usage_error_of(words);
    INFO("arguments " << words[0] << " " << (words.size() > 1 ? words[1] : "") << ": " << message);
    CHECK(message.find(words[0]) != std::string::npos);
  }
}

TEST_CASE("options refuse sizes over the limit naming it", "[step2]") {
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"--size", "16385"}, {"--rows", "100000"}, {"--cols", "99999999999"}}) {
    const std::string message = usage_error_of(words);
    INFO(message);
    CHECK(message.find("16384") != std::string::npos);
  }
}

TEST_CASE("options refuse benchmark settings that do not apply", "[step2]") {
  CHECK(usage_error_of({"--csv", "out.csv"}).find("add --bench") != std::string::npos);
  CHECK(usage_error_of({"--serial-max", "1024"}).find("add --bench") != std::string::npos);
  CHECK(usage_error_of({"--bench", "--size", "64"}).find("does not apply") != std::string::npos);
  CHECK(usage_error_of({"--bench", "--bench-sizes", "0"}).find("--bench-sizes") !=
        std::string::npos);
  CHECK(usage_error_of({"--bench", "--serial-max", "-1"}).find("--serial-max") !=
        std::string::npos);
}

TEST_CASE("program exits with a usage error for bad values before looking for a GPU", "[step2]") {
  for (const std::string& arguments :
       std::vector<std::string>{"--size 0", "--rows -1", "--cols abc", "--size 20000",
                                "--approach 7", "--bench --bench-sizes 1,x"}) {
    std::string output;
    INFO("arguments '" << arguments << "'");
    CHECK(run_program(arguments, output) == 2);
    INFO(output);
    CHECK(output.find("step2_three_approaches:") != std::string::npos);
  }
}
