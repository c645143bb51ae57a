/// @file judge_main.cpp
/// @brief The judge: writes a case's inputs, and as a Catch2 program checks what the
/// student-side runner computed from them. It links no student code and no GPU code.
///
///     course_judge --list-cases
///     course_judge --generate --seed N --out FOLDER [--case NAME]...   (all cases by default)
///     course_judge "<case name>" --inputs FOLDER --outputs FOLDER -r junit -o report.xml
///     course_judge --self-test [--seed N]
///
/// Each case of cases.cpp is a Catch2 test case tagged with its step. It reads the inputs
/// from the judge's own folder (`<stem>.in`), the runner's outputs (`<stem>.out`), computes
/// the reference in double precision and checks every product. Only this verdict counts:
/// the runner's exit status and printout decide nothing.
/// It builds with Catch2 2 and 3 (see common/testing/catch2.hpp): the registration of a case
/// and the extra options are the calls whose spelling differs.
#if COURSE_CATCH2_MAJOR >= 3
#include <catch2/catch_session.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/interfaces/catch_interfaces_test_invoker.hpp>
#include <catch2/internal/catch_clara.hpp>
#include <catch2/internal/catch_test_registry.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include "grading/judge/case_file.hpp"
#include "grading/judge/cases.hpp"
#include "grading/judge/half_float.hpp"
#include "grading/judge/verdict.hpp"

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace judge = course::judge;

std::string g_inputs;   // --inputs: the judge's folder of case inputs
std::string g_outputs;  // --outputs: the runner's folder of outputs

std::string in_file(const std::string& folder, const judge::CaseSpec& spec) {
  return (std::filesystem::path(folder) / (judge::case_file_stem(spec.name) + ".in")).string();
}

std::string out_file(const std::string& folder, const judge::CaseSpec& spec) {
  return (std::filesystem::path(folder) / (judge::case_file_stem(spec.name) + ".out")).string();
}

/// The Catch2 body of every case: every product must be right.
void judge_case(const judge::CaseSpec& spec) {
  REQUIRE_FALSE(g_inputs.empty());
  REQUIRE_FALSE(g_outputs.empty());
  const judge::CaseInputs inputs = judge::read_inputs(in_file(g_inputs, spec));
  std::vector<judge::ProductOutput> outputs;
  try {
    outputs = judge::read_outputs(out_file(g_outputs, spec), inputs);
  } catch (const std::exception& error) {
    FAIL("the runner's outputs cannot be read: " << error.what());
  }
  std::size_t wrong = 0;
  for (std::size_t index = 0; index < inputs.size(); ++index) {
    const judge::ProductVerdict verdict =
        judge::check_product(spec.compare, inputs, outputs, index);
    if (!verdict.ok && ++wrong <= 3) {
      FAIL_CHECK(verdict.message);
    }
  }
  INFO(wrong << " of " << inputs.size() << " products wrong");
  CHECK(wrong == 0);
}

class CaseInvoker : public Catch::ITestInvoker {
 public:
  explicit CaseInvoker(const judge::CaseSpec* spec) : spec_(spec) {}
  void invoke() const override { judge_case(*spec_); }

 private:
  const judge::CaseSpec* spec_;
};

/// Registers one Catch2 test case per case (names and tags must outlive the registry).
void register_cases() {
  static std::deque<std::string> tags;
  for (const judge::CaseSpec& spec : judge::case_catalogue()) {
    tags.push_back("[" + spec.step + "]");
#if COURSE_CATCH2_MAJOR >= 3
    Catch::AutoReg(Catch::Detail::make_unique<CaseInvoker>(&spec), CATCH_INTERNAL_LINEINFO,
                   Catch::StringRef(), Catch::NameAndTags(spec.name, tags.back()));
#else
    Catch::AutoReg(new CaseInvoker(&spec), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                   Catch::NameAndTags(spec.name, tags.back()));
#endif
  }
}

std::uint64_t parse_seed(const std::string& text) {
  std::size_t used = 0;
  const unsigned long long seed = std::stoull(text, &used, 10);
  if (used != text.size() || text.empty() || text[0] == '-') {
    throw std::invalid_argument("--seed takes a whole number in 0..2^64-1, got '" + text + "'");
  }
  return seed;
}

int generate(int argc, char* argv[]) {
  std::string seed_text;
  std::string folder;
  std::vector<std::string> names;
  for (int index = 2; index + 1 < argc; index += 2) {
    const std::string option = argv[index];
    const std::string value = argv[index + 1];
    if (option == "--seed") {
      seed_text = value;
    } else if (option == "--out") {
      folder = value;
    } else if (option == "--case") {
      names.push_back(value);
    } else {
      std::cerr << "unknown option " << option << "\n";
      return 2;
    }
  }
  if (seed_text.empty() || folder.empty() || argc % 2 != 0) {
    std::cerr << "usage: course_judge --generate --seed N --out FOLDER [--case NAME]...\n";
    return 2;
  }
  const std::uint64_t seed = parse_seed(seed_text);
  std::filesystem::create_directories(folder);
  for (const judge::CaseSpec& spec : judge::case_catalogue()) {
    bool wanted = names.empty();
    for (const std::string& name : names) {
      wanted = wanted || name == spec.name;
    }
    if (wanted) {
      judge::write_inputs(in_file(folder, spec), judge::generate_case(spec, seed));
      std::cout << judge::case_file_stem(spec.name) << ".in\n";
    }
  }
  for (const std::string& name : names) {
    if (judge::find_case(name) == nullptr) {
      std::cerr << "no case named '" << name << "'\n";
      return 2;
    }
  }
  return 0;
}

/// The shortcut of a kernel that skips the last 1 % of the inner products' terms and rescales
/// the rest by inner / (inner - skipped) (the expected value of a sum of zero-mean terms is
/// unchanged: the trick passes a tolerance that is loose or relative to |C|). Computed in
/// double, the most favourable rounding a cheat could have. Empty when the product's inner
/// size is under 100 (1 % of it is no term).
std::vector<float> skipped_and_rescaled(const judge::CaseInputs& inputs, std::size_t index) {
  std::vector<float> values;
  if (index < inputs.gemm.size()) {
    const judge::GemmProduct& p = inputs.gemm[index];
    const int kept = p.inner - p.inner / 100;
    if (kept == p.inner) {
      return values;
    }
    for (int row = 0; row < p.rows; ++row) {
      for (int col = 0; col < p.cols; ++col) {
        double sum = 0.0;
        for (int k = 0; k < kept; ++k) {
          sum += static_cast<double>(p.a[static_cast<std::size_t>(row) * p.inner + k]) *
                 p.b[static_cast<std::size_t>(k) * p.cols + col];
        }
        values.push_back(static_cast<float>(sum * p.inner / kept));
      }
    }
    return values;
  }
  const judge::SddmmProduct& p = inputs.sddmm[index - inputs.gemm.size()];
  const int kept = p.inner - p.inner / 100;
  if (kept == p.inner) {
    return values;
  }
  for (std::size_t entry = 0; entry < p.value.size(); ++entry) {
    double sum = 0.0;
    for (int k = 0; k < kept; ++k) {
      sum +=
          judge::half_to_double(p.a[static_cast<std::size_t>(p.row[entry]) * p.lda + k]) *
          judge::half_to_double(p.b_transposed[static_cast<std::size_t>(p.col[entry]) * p.ldb + k]);
    }
    values.push_back(static_cast<float>(p.value[entry] * sum * p.inner / kept));
  }
  return values;
}

/// The judge's own check, with no GPU: for every case, the reference rounded to float passes,
/// and a wrong value, a missing product, a failed launcher and a long file each fail; every
/// product whose inner size is 100 or more fails when 1 % of its terms are skipped and the
/// rest rescaled (the inputs are zero-mean and the tolerance grows with sqrt(inner) times
/// the sum of the terms' magnitudes, not with |C|).
int self_test(std::uint64_t seed) {
  const auto folder =
      std::filesystem::temp_directory_path() / ("course-judge-self-test-" + std::to_string(seed));
  std::filesystem::create_directories(folder);
  int failures = 0;
  int checks = 0;
  int shortcuts = 0;  // products with 1 % of their terms skipped
  const auto expect = [&](bool condition, const std::string& what) {
    ++checks;
    if (!condition) {
      ++failures;
      std::cerr << "FAILED: " << what << "\n";
    }
  };
  for (const judge::CaseSpec& spec : judge::case_catalogue()) {
    const std::string input_path = in_file(folder.string(), spec);
    judge::write_inputs(input_path, judge::generate_case(spec, seed));
    const judge::CaseInputs inputs = judge::read_inputs(input_path);
    expect(inputs.size() > 0, spec.name + ": has products");
    std::vector<judge::ProductOutput> outputs(inputs.size());
    for (std::size_t index = 0; index < inputs.size(); ++index) {
      outputs[index] = {0, judge::reference_values(inputs, index)};
    }
    const std::string output_path = out_file(folder.string(), spec);
    judge::write_outputs(output_path, outputs);
    const auto read_back = judge::read_outputs(output_path, inputs);
    bool all_ok = true;
    for (std::size_t index = 0; index < inputs.size(); ++index) {
      all_ok = all_ok && judge::check_product(spec.compare, inputs, read_back, index).ok;
    }
    expect(all_ok, spec.name + ": the exact result passes");
    auto wrong = outputs;
    const std::size_t last = wrong.size() - 1;
    if (!wrong[last].values.empty()) {
      wrong[last].values.back() += 0.25f + 0.01f * std::abs(wrong[last].values.back());
      expect(!judge::check_product(spec.compare, inputs, wrong, last).ok,
             spec.name + ": a wrong value fails");
      wrong[last].values.back() = NAN;
      expect(!judge::check_product(spec.compare, inputs, wrong, last).ok,
             spec.name + ": NaN fails");
    }
    for (std::size_t index = 0; index < inputs.size(); ++index) {
      std::vector<float> shortcut = skipped_and_rescaled(inputs, index);
      if (!shortcut.empty()) {
        auto cheated = outputs;
        cheated[index].values = std::move(shortcut);
        expect(!judge::check_product(spec.compare, inputs, cheated, index).ok,
               spec.name + ": product " + std::to_string(index) +
                   " with 1 % of its terms skipped and the rest rescaled fails");
        ++shortcuts;
      }
    }
    auto failed = outputs;
    failed[0].status = 1;
    expect(!judge::check_product(spec.compare, inputs, failed, 0).ok,
           spec.name + ": a failed launcher fails");
    outputs.pop_back();
    expect(!judge::check_product(spec.compare, inputs, outputs, last).ok,
           spec.name + ": a missing product fails");
    outputs.push_back({0, std::vector<float>(judge::expected_values(inputs, last) + 1, 0.0f)});
    judge::write_outputs(output_path, outputs);
    bool refused = false;
    try {
      judge::read_outputs(output_path, inputs);
    } catch (const std::runtime_error&) {
      refused = true;
    }
    expect(refused, spec.name + ": an output longer than the case needs is refused");
  }
  expect(judge::float_to_half(1.0f) == 0x3C00 && judge::float_to_half(-0.5f) == 0xB800 &&
             judge::half_to_double(judge::float_to_half(0.1f)) == 0.0999755859375,
         "binary16 conversion");
  expect(shortcuts > 0, "some graded products have an inner size of 100 or more");
  std::filesystem::remove_all(folder);
  std::cout << "judge self-test: " << checks - failures << " passed, " << failures << " failed ("
            << shortcuts << " products checked against 1 % of the work skipped)\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    const std::string first = argc > 1 ? argv[1] : "";
    if (first == "--list-cases") {
      for (const judge::CaseSpec& spec : judge::case_catalogue()) {
        std::cout << spec.name << "\t" << spec.step << "\n";
      }
      return 0;
    }
    if (first == "--generate") {
      return generate(argc, argv);
    }
    if (first == "--self-test") {
      return self_test(argc > 3 ? parse_seed(argv[3]) : 20261125);
    }
  } catch (const std::exception& error) {
    std::cerr << "course_judge: " << error.what() << "\n";
    return 2;
  }
  register_cases();
  Catch::Session session;
#if COURSE_CATCH2_MAJOR >= 3
  using Catch::Clara::Opt;
#else
  using Catch::clara::Opt;
#endif
  session.cli(session.cli() |
              Opt(g_inputs, "folder")["--inputs"]("the judge's folder of case inputs") |
              Opt(g_outputs, "folder")["--outputs"]("the runner's folder of outputs"));
  if (session.applyCommandLine(argc, argv) != 0) {
    return 2;  // Catch2 has said what it could not read
  }
  return session.run();
}
