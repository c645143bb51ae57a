#include "common/testing/catch2.hpp"

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/random_fill.hpp"
#include "common/tests/temp_files.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <new>
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

TEST_CASE("numbers have one grammar of decimal digits without spaces or plus or hex",
          "[common][cli]") {
  CHECK(course::parse_integer("--seed", "-0", -5, 5) == 0);
  CHECK(course::parse_integer("--seed", "007", 0, 10) == 7);
  const char* bad_whole[] = {"  5", "\t5", "5 ", "+5", "0x10", "5.0", "1e3", "-", "--5", "5-"};
  for (const char* text : bad_whole) {
    INFO("value '" << text << "'");
    CHECK_THROWS_WITH(course::parse_integer("--size", text, 0, 100),
                      Catch::Contains("--size must be a whole number from 0 to 100, got '" +
                                      std::string(text) + "' (not a whole number"));
  }
  const course::RealRange any{-1e308, 1e308};
  CHECK(course::parse_real("--x", ".5", any) == 0.5);
  CHECK(course::parse_real("--x", "5.", any) == 5.0);
  CHECK(course::parse_real("--x", "2E+6", any) == 2e6);
  CHECK(course::parse_real("--x", "-1e-3", any) == -1e-3);
  // A denormal is a finite number; below the smallest one the value rounds to 0.
  CHECK(course::parse_real("--x", "1e-320", any) > 0.0);
  CHECK(course::parse_real("--x", "1e-400", any) == 0.0);
  const char* bad_real[] = {" 0.5", "0.5 ", "+0.5", "0x0.8", "0x1", "0x1p-1", "infinity",
                            "NaN",  ".",    "e5",   "1e",    "1e+", "1.2.3",  "1,5"};
  for (const char* text : bad_real) {
    INFO("value '" << text << "'");
    CHECK_THROWS_WITH(course::parse_real("--x", text, any),
                      Catch::Contains("got '" + std::string(text) + "' (not a decimal number"));
  }
  CHECK_THROWS_WITH(course::parse_real("--x", "1e309", any),
                    Catch::Contains("(beyond the largest number"));
  CHECK_THROWS_WITH(course::parse_real("--x", "1e308", {0.0, 3600.0}),
                    Catch::Contains("--x must be a number from 0 to 3600, got 1e308"));
}

TEST_CASE("COURSE_SEED is read like --seed", "[common][cli]") {
  const char* saved = std::getenv("COURSE_SEED");
  const std::string saved_value = saved != nullptr ? saved : "";
  ::setenv("COURSE_SEED", "42", 1);
  CHECK(course::fresh_seed() == 42u);
  for (const char* text : {"-5", " 5", "+5", "0x10", "9223372036854775808", ""}) {
    INFO("COURSE_SEED='" << text << "'");
    ::setenv("COURSE_SEED", text, 1);
    CHECK_THROWS_WITH(course::fresh_seed(), Catch::Contains("COURSE_SEED") &&
                                                Catch::Contains("0 to 9223372036854775807"));
  }
  if (saved != nullptr) {
    ::setenv("COURSE_SEED", saved_value.c_str(), 1);
  } else {
    ::unsetenv("COURSE_SEED");
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

TEST_CASE("ArgParser keeps defaults and refuses unknown or incomplete options", "[common][cli]") {
  long long size = 7;
  bool flag = false;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "matrix size");
  parser.add_flag("--flag", &flag, "a flag");

  REQUIRE(parse_words(parser, {}));
  CHECK(size == 7);
  CHECK_THROWS_WITH(parse_words(parser, {"--colour"}), Catch::Contains("unknown option"));
  CHECK_THROWS_WITH(parse_words(parser, {"--size"}),
                    Catch::Contains("--size needs a whole number from 1 to 100"));
  CHECK_THROWS_WITH(parse_words(parser, {"--size", "101"}), Catch::Contains("1 to 100"));
  CHECK_THROWS_WITH(parse_words(parser, {"--flag=1"}), Catch::Contains("takes no value"));
  CHECK_THROWS_WITH(parse_words(parser, {"--sizes", "1,x"}), Catch::Contains("unknown option"));
}

TEST_CASE("ArgParser --help prints every option and asks the program to stop", "[common][cli]") {
  long long size = 7;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "matrix size");
  CHECK_FALSE(parse_words(parser, {"--help"}));
  CHECK(parser.usage().find("--size N (1..100, default 7)") != std::string::npos);
}

TEST_CASE("an option that needs a value refuses a following option", "[common][cli]") {
  std::string out;
  long long seed = 0;
  course::ArgParser parser("demo", "A demo.");
  parser.add_output_file("--out", &out, "output file");
  parser.add_integer("--seed", &seed, -5, 5, "seed");
  CHECK_THROWS_WITH(parse_words(parser, {"--out", "--seed"}),
                    Catch::Contains("--out needs a file name, got the option --seed"));
  // A negative number is a value, not an option; the = form takes any text.
  REQUIRE(parse_words(parser, {"--seed", "-3", "--out=--seed"}));
  CHECK(seed == -3);
  CHECK(out == "--seed");
  CHECK_THROWS_WITH(parse_words(parser, {"--out"}), Catch::Contains("--out needs a file name"));
  CHECK_THROWS_WITH(parse_words(parser, {"--out="}), Catch::Contains("got an empty one"));
  CHECK_THROWS_WITH(parse_words(parser, {"stray"}), Catch::Contains("unexpected argument 'stray'"));
}

TEST_CASE("a repeated option is refused unless it is a list", "[common][cli]") {
  long long rows = 1;
  bool flag = false;
  std::vector<long long> sizes{7};
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--rows", &rows, 1, 10, "rows");
  parser.add_flag("--flag", &flag, "flag");
  parser.add_integer_list("--sizes", &sizes, 1, 100, "sizes");
  CHECK_THROWS_WITH(parse_words(parser, {"--rows", "5", "--rows", "6"}),
                    Catch::Contains("--rows is given twice"));
  CHECK_THROWS_WITH(parse_words(parser, {"--flag", "--flag"}),
                    Catch::Contains("--flag is given twice"));
  REQUIRE(parse_words(parser, {"--sizes", "1,2", "--sizes=3"}));
  CHECK(sizes == std::vector<long long>{1, 2, 3});
  CHECK_THROWS_WITH(parse_words(parser, {"--sizes", "1,1"}),
                    Catch::Contains("--sizes lists 1 twice"));
  CHECK_THROWS_WITH(parse_words(parser, {"--sizes", "4,5", "--sizes", "5"}),
                    Catch::Contains("--sizes lists 5 twice"));
}

TEST_CASE("a seed is a real seed or fresh and always a real one after parsing", "[common][cli]") {
  long long fresh_default = course::kFreshSeed;
  course::ArgParser fresh_parser("demo", "A demo.");
  fresh_parser.add_seed(&fresh_default, "seed");
  CHECK(fresh_parser.usage().find("default fresh") != std::string::npos);
  REQUIRE(parse_words(fresh_parser, {}));
  CHECK(fresh_default >= 0);
  long long fixed = 7;
  course::ArgParser parser("demo", "A demo.");
  parser.add_seed(&fixed, "seed");
  CHECK(parser.usage().find("default 7") != std::string::npos);
  REQUIRE(parse_words(parser, {}));
  CHECK(fixed == 7);
  REQUIRE(parse_words(parser, {"--seed", "0"}));
  CHECK(fixed == 0);  // 0 is a seed like any other, not "fresh"
  REQUIRE(parse_words(parser, {"--seed", "fresh"}));
  CHECK(fixed >= 0);
  CHECK_THROWS_WITH(parse_words(parser, {"--seed", "-1"}), Catch::Contains("--seed must be"));
  CHECK_THROWS_WITH(parse_words(parser, {"--seed", "new"}), Catch::Contains("not a whole number"));
}

TEST_CASE("file options refuse FIFOs and devices and sockets and folders and missing folders",
          "[common][cli]") {
  course::testing::TempDir dir;
  const std::string fifo = dir.path() + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string socket_path = dir.path() + "/sock";
  const int socket_fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(socket_fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", socket_path.c_str());
  const bool bound = ::bind(socket_fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
  const std::string regular = dir.path() + "/data.txt";
  course::testing::write_text(regular, "1 2 3\n");
  std::string input;
  std::string folder;
  std::string output;
  course::ArgParser parser("demo", "A demo.");
  parser.add_input_file("--in", &input, "input");
  parser.add_input_folder("--dir", &folder, "folder");
  parser.add_output_file("--out", &output, "output");
  CHECK_THROWS_WITH(parse_words(parser, {"--in", fifo}), Catch::Contains("is a FIFO (named pipe)"));
  CHECK_THROWS_WITH(parse_words(parser, {"--in", "/dev/zero"}),
                    Catch::Contains("is a character device"));
  if (bound) {
    CHECK_THROWS_WITH(parse_words(parser, {"--in", socket_path}), Catch::Contains("is a socket"));
  }
  CHECK_THROWS_WITH(parse_words(parser, {"--in", dir.path()}), Catch::Contains("is a folder"));
  CHECK_THROWS_WITH(parse_words(parser, {"--in", dir.path() + "/none"}),
                    Catch::Contains("does not exist"));
  CHECK_THROWS_WITH(parse_words(parser, {"--dir", regular}), Catch::Contains("not a folder"));
  CHECK_THROWS_WITH(parse_words(parser, {"--out", dir.path() + "/missing/x.csv"}),
                    Catch::Contains("does not exist (create it first)"));
  CHECK_THROWS_WITH(parse_words(parser, {"--out", fifo}), Catch::Contains("is a FIFO"));
  REQUIRE(parse_words(parser,
                      {"--in", regular, "--dir", dir.path(), "--out", dir.path() + "/new.csv"}));
  CHECK(input == regular);
  CHECK(folder == dir.path());
  ::close(socket_fd);
}

TEST_CASE("parse_real refuses trailing text and nan and inf and values outside the range",
          "[common][cli]") {
  const course::RealRange density{0.0, 1.0, true};
  CHECK(course::parse_real("--tc-density", "0.5", density) == 0.5);
  CHECK(course::parse_real("--tc-density", "1", density) == 1.0);
  CHECK(course::parse_real("--tc-density", "1e-3", density) == 1e-3);
  const char* bad_values[] = {"0.5abc", "", "abc", "nan", "inf", "-inf", "0", "-1", "5", "1e999"};
  for (const char* text : bad_values) {
    INFO("value '" << text << "'");
    try {
      course::parse_real("--tc-density", text, density);
      FAIL("accepted a bad value");
    } catch (const course::UsageError& error) {
      const std::string message = error.what();
      CHECK(message.find("--tc-density") != std::string::npos);
      CHECK(message.find("greater than 0 and at most 1") != std::string::npos);
    }
  }
  const course::RealRange closed{-2.0, 3.5};
  CHECK(course::parse_real("--x", "-2", closed) == -2.0);
  CHECK_THROWS_WITH(course::parse_real("--x", "3.6", closed),
                    Catch::Contains("--x must be a number from -2 to 3.5, got 3.6"));
}

TEST_CASE("the program asks the parser what was given for conflicts and modes", "[common][cli]") {
  long long size = 4;
  long long rows = 4;
  bool bench = false;
  std::string csv;
  double ratio = 0.25;
  course::ArgParser parser("demo", "A demo.");
  parser.add_integer("--size", &size, 1, 100, "size");
  parser.add_integer("--rows", &rows, 1, 100, "rows");
  parser.add_flag("--bench", &bench, "benchmark");
  parser.add_output_file("--csv", &csv, "csv");
  parser.add_real("--ratio", &ratio, {0.0, 1.0}, "ratio");
  REQUIRE(parse_words(parser, {"--size", "4", "--ratio", "0.75"}));
  CHECK(parser.given("--size"));
  CHECK_FALSE(parser.given("--rows"));
  CHECK(ratio == 0.75);
  CHECK_NOTHROW(parser.refuse_together("--size", {"--rows"}, ""));
  REQUIRE(parse_words(parser, {"--size", "4", "--rows", "5"}));
  CHECK_THROWS_WITH(parser.refuse_together("--size", {"--rows"}, "pick one"),
                    Catch::Contains("--size and --rows cannot be given together: pick one"));
  REQUIRE(parse_words(parser, {"--csv", "x.csv"}));
  CHECK_THROWS_WITH(parser.refuse_unless({"--csv"}, bench, "--bench"),
                    Catch::Contains("--csv applies only with --bench"));
  // A new parse forgets what the last one saw.
  REQUIRE(parse_words(parser, {"--bench"}));
  CHECK_FALSE(parser.given("--csv"));
  CHECK_NOTHROW(parser.refuse_unless({"--csv"}, bench, "--bench"));
}

TEST_CASE("run_program maps errors to exit codes", "[common][cli]") {
  CHECK(course::run_program("t", [] { return 0; }) == 0);
  CHECK(course::run_program("t", []() -> int { throw course::UsageError("bad"); }) == 2);
  CHECK(course::run_program("t", []() -> int { throw course::NoDeviceError("none"); }) == 3);
  CHECK(course::run_program("t", []() -> int { throw std::runtime_error("x"); }) == 1);
  CHECK(course::run_program("t", []() -> int { throw std::bad_alloc(); }) == 1);
}
