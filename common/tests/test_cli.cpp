#include <catch2/catch.hpp>

#include "common/cli.hpp"
#include "common/device.hpp"

#include <string>
#include <vector>

namespace {

// Runs ArgParser::parse over a list of words (argv[0] is added).
bool parse_words(course::ArgParser& parser, std::vector<std::string> words) {
  words.insert(words.begin(), "program");
  std::vector<char*> argv;
  for (std::string& word : words) {
    argv.push_back(word.data());
  }
  return parser.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("parse_integer accepts values inside the range", "[common][cli]") {
  CHECK(course::parse_integer("--size", "1", 1, 32) == 1);
  CHECK(course::parse_integer("--size", "32", 1, 32) == 32);
}

TEST_CASE("parse_integer refuses bad values naming the option and the range", "[common][cli]") {
  const char* bad_values[] = {"0", "-3", "33", "abc", "12abc", "", "99999999999999999999"};
  for (const char* text : bad_values) {
    INFO("value '" << text << "'");
    try {
      course::parse_integer("--size", text, 1, 32);
      FAIL("accepted a bad value");
    } catch (const course::UsageError& error) {
      const std::string message = error.what();
      CHECK(message.find("--size") != std::string::npos);
      CHECK(message.find("1 to 32") != std::string::npos);
    }
  }
}

TEST_CASE("ArgParser fills integers and lists and flags and text", "[common][cli]") {
  long long size = 7;
  std::vector<long long> sizes{1};
  bool bench = false;
  std::string csv;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "matrix size");
  parser.add_integer_list("--sizes", &sizes, 1, 4096, "sizes");
  parser.add_flag("--bench", &bench, "benchmark");
  parser.add_text("--csv", &csv, "csv path");

  REQUIRE(parse_words(parser, {"--size", "42", "--sizes=1024,2048", "--bench", "--csv", "x.csv"}));
  CHECK(size == 42);
  CHECK(sizes == std::vector<long long>{1024, 2048});
  CHECK(bench);
  CHECK(csv == "x.csv");
}

TEST_CASE("ArgParser keeps defaults and refuses unknown or incomplete options",
          "[common][cli]") {
  long long size = 7;
  bool flag = false;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "matrix size");
  parser.add_flag("--flag", &flag, "a flag");

  REQUIRE(parse_words(parser, {}));
  CHECK(size == 7);
  CHECK_THROWS_WITH(parse_words(parser, {"--colour"}), Catch::Contains("unknown option"));
  CHECK_THROWS_WITH(parse_words(parser, {"--size"}), Catch::Contains("needs a value"));
  CHECK_THROWS_WITH(parse_words(parser, {"--size", "101"}), Catch::Contains("1 to 100"));
  CHECK_THROWS_WITH(parse_words(parser, {"--flag=1"}), Catch::Contains("takes no value"));
  CHECK_THROWS_WITH(parse_words(parser, {"--sizes", "1,x"}), Catch::Contains("unknown option"));
}

TEST_CASE("ArgParser --help prints every option and asks the program to stop",
          "[common][cli]") {
  long long size = 7;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "matrix size");
  CHECK_FALSE(parse_words(parser, {"--help"}));
  CHECK(parser.usage().find("--size N (1..100, default 7)") != std::string::npos);
}

TEST_CASE("run_program maps errors to exit codes", "[common][cli]") {
  CHECK(course::run_program("t", [] { return 0; }) == 0);
  CHECK(course::run_program("t", []() -> int { throw course::UsageError("bad"); }) == 2);
  CHECK(course::run_program("t", []() -> int { throw course::NoDeviceError("none"); }) == 3);
  CHECK(course::run_program("t", []() -> int { throw std::runtime_error("x"); }) == 1);
}
