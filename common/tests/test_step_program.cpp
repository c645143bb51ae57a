/// @file test_step_program.cpp
/// @brief The one runner (common/step_program.hpp) on a program that records what it is asked:
/// the options every program shares, the order of the questions, and the exit codes for a bad
/// option, a bad input, too little memory and a missing GPU. Needs no GPU.
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "common/step_program.hpp"
#include "common/testing/arguments.hpp"

#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// A program with two approaches and one option of its own (--width), which records every
/// question the runner asks, in order.
class RecordingProgram : public course::StepProgram {
 public:
  std::string name() const override { return "recording"; }
  std::string description() const override { return "records what the runner asks"; }
  std::vector<std::string> approach_names() const override { return {"first", "second"}; }
  void add_options(course::ArgParser& parser) override {
    calls.push_back("add_options");
    parser.add_integer("--width", &width, 1, 100, "a step's own option");
  }
  void prepare(const course::ArgParser& parser, const course::RunChoice& choice) override {
    calls.push_back("prepare");
    prepared = choice;
    width_given = parser.given("--width");
    if (width == 13) {
      throw course::UsageError("--width 13 is refused by the step");
    }
    if (width == 66) {
      throw std::runtime_error("the input is malformed");
    }
  }
  course::MemoryEstimate memory(const course::RunChoice&) const override {
    calls.push_back("memory");
    course::MemoryEstimate estimate;
    if (width == 99) {  // more host memory than any machine has
      estimate.host("everything", std::numeric_limits<course::Bytes>::max() / 2);
    }
    return estimate;
  }
  int run(const course::RunChoice& choice, const course::GpuDescription&, std::ostream&) override {
    calls.push_back("run");
    ran = choice;
    return 7;
  }

  long long width = 10;
  bool width_given = false;
  mutable std::vector<std::string> calls;
  course::RunChoice prepared;
  course::RunChoice ran;
};

bool parse(RecordingProgram& program, const std::vector<std::string>& words,
           course::RunChoice& choice) {
  course::testing::Arguments arguments(program.name(), words);
  return course::parse_step_program(program, arguments.argc(), arguments.argv(), choice);
}

int run(RecordingProgram& program, const std::vector<std::string>& words) {
  course::testing::Arguments arguments(program.name(), words);
  return course::run_step_program(program, arguments.argc(), arguments.argv(), 2, true);
}

}  // namespace

TEST_CASE("the runner parses the shared options and the step's own then prepares",
          "[common][runner]") {
  RecordingProgram program;
  course::RunChoice choice;
  choice.approach = 2;
  REQUIRE(parse(program, {"--width", "5", "--seed", "42", "--repeats", "9"}, choice));
  CHECK(program.calls == std::vector<std::string>{"add_options", "prepare"});
  CHECK(program.width == 5);
  CHECK(program.width_given);
  CHECK(choice.approach == 2);  // the default (main.cu's APPROACH) when --approach is absent
  CHECK(choice.seed == 42);
  CHECK(choice.repeats == 9);
  CHECK(program.prepared.seed == 42);

  RecordingProgram defaults;
  course::RunChoice fresh;
  REQUIRE(parse(defaults, {"--approach", "1"}, fresh));
  CHECK(fresh.approach == 1);
  CHECK(fresh.repeats == course::kProgramRepeats);
  CHECK(fresh.seed >= 0);  // a fresh seed is drawn, so the run can be repeated
  CHECK_FALSE(defaults.width_given);
}

TEST_CASE("the runner numbers the approaches and refuses one that is not there",
          "[common][runner]") {
  RecordingProgram program;
  course::RunChoice choice;
  const std::string message = course::testing::usage_error_of([&] {
    parse(program, {"--approach", "3"}, choice);
  });
  INFO(message);
  CHECK(message.find("--approach") != std::string::npos);
  CHECK(message.find("from 1 to 2") != std::string::npos);
  CHECK(program.calls == std::vector<std::string>{"add_options"});  // never prepared
}

TEST_CASE(
    "the runner's exit codes are 2 for a bad option and 1 for a bad input or too little memory",
    "[common][runner]") {
  RecordingProgram bad_option;
  CHECK(run(bad_option, {"--width", "0"}) == 2);
  CHECK(bad_option.calls == std::vector<std::string>{"add_options"});
  RecordingProgram refused_by_step;
  CHECK(run(refused_by_step, {"--width", "13"}) == 2);
  RecordingProgram bad_input;
  CHECK(run(bad_input, {"--width", "66"}) == 1);
  CHECK(bad_input.calls == std::vector<std::string>{"add_options", "prepare"});
  RecordingProgram too_large;
  CHECK(run(too_large, {"--width", "99"}) == 1);
  CHECK(too_large.calls == std::vector<std::string>{"add_options", "prepare", "memory"});
  RecordingProgram help;
  CHECK(run(help, {"--help"}) == 0);
  CHECK(help.calls == std::vector<std::string>{"add_options"});
}

TEST_CASE("the runner runs only with a GPU and returns the run's code", "[common][runner]") {
  RecordingProgram program;
  const int code = run(program, {"--seed", "5"});
  if (course::has_cuda_device()) {
    CHECK(code == 7);
    CHECK(program.calls.back() == "run");
    CHECK(program.ran.seed == 5);
    CHECK(program.ran.approach == 2);
    CHECK(program.ran.verify);
  } else {
    CHECK(code == 3);  // no GPU: refused after every check that needs none
    CHECK(program.calls == std::vector<std::string>{"add_options", "prepare", "memory"});
  }
}
