/// @file test_output_file.cpp
/// @brief Tests of the outputs written whole or not at all (output_file.hpp) and of the
///        parser's refusal of outputs that would overwrite one another or an input (no GPU).
#include "common/testing/catch2.hpp"

#include "common/cli.hpp"
#include "common/compressed_file.hpp"
#include "common/output_file.hpp"
#include "common/tests/temp_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using course::testing::TempDir;
using course::testing::write_text;

std::string read_all(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::vector<std::string> names_in(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  return names;
}

bool parse_words(course::ArgParser& parser, std::vector<std::string> words) {
  words.insert(words.begin(), "program");
  std::vector<char*> argv;
  for (std::string& word : words) {
    argv.push_back(word.data());
  }
  return parser.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace

TEST_CASE("an output file appears whole at commit and not before", "[common][output]") {
  TempDir dir;
  write_text(dir.file("table.csv"), "old\n");
  {
    course::OutputFile file(dir.file("table.csv"));
    file.write("new ", 4);
    CHECK(read_all(dir.file("table.csv")) == "old\n");  // the old file until the commit
    file.write("table\n", 6);
    file.commit();
  }
  CHECK(read_all(dir.file("table.csv")) == "new table\n");
  CHECK(names_in(dir.path()) == std::vector<std::string>{"table.csv"});
}

TEST_CASE("an output abandoned before its commit leaves nothing behind", "[common][output]") {
  TempDir dir;
  write_text(dir.file("kept.csv"), "old\n");
  {
    course::OutputFile file(dir.file("kept.csv"));
    file.write("half", 4);
  }  // an error before commit(): the temporary file goes, the old file stays
  {
    course::TextSink sink(dir.file("mask.mtx.gz"), true);
    sink.append("1 1\n", 4);
  }  // a sink never closed: no file at all
  CHECK(read_all(dir.file("kept.csv")) == "old\n");
  CHECK(names_in(dir.path()) == std::vector<std::string>{"kept.csv"});
}

TEST_CASE("an output replaces a symbolic link and never writes through it", "[common][output]") {
  TempDir dir;
  write_text(dir.file("target.txt"), "precious\n");
  REQUIRE(::symlink(dir.file("target.txt").c_str(), dir.file("link.txt").c_str()) == 0);
  REQUIRE(::symlink(dir.file("nowhere.txt").c_str(), dir.file("dangling.txt").c_str()) == 0);
  course::write_output_file(dir.file("link.txt"), "new\n");
  course::write_output_file(dir.file("dangling.txt"), "new\n");
  CHECK(read_all(dir.file("target.txt")) == "precious\n");
  CHECK_FALSE(std::filesystem::exists(dir.file("nowhere.txt")));
  CHECK_FALSE(std::filesystem::is_symlink(dir.file("link.txt")));
  CHECK(read_all(dir.file("link.txt")) == "new\n");
  CHECK(read_all(dir.file("dangling.txt")) == "new\n");
}

TEST_CASE("an output that cannot be written says why and leaves nothing", "[common][output]") {
  TempDir dir;
  CHECK_THROWS_WITH(course::write_output_file(dir.file("missing/x.csv"), "x"),
                    Catch::Contains("cannot write " + dir.file("missing/x.csv")) &&
                        Catch::Contains("No such file or directory") &&
                        Catch::Contains("nothing was written there"));
  if (::geteuid() != 0) {  // root writes into read-only folders
    std::filesystem::create_directory(dir.file("read_only"));
    ::chmod(dir.file("read_only").c_str(), 0555);
    CHECK_THROWS_WITH(course::write_output_file(dir.file("read_only/x.csv"), "x"),
                      Catch::Contains("Permission denied"));
    ::chmod(dir.file("read_only").c_str(), 0755);
  }
}

TEST_CASE("the parser refuses two outputs in one file and an output over an input",
          "[common][cli][output]") {
  TempDir dir;
  write_text(dir.file("shapes.txt"), "1 2 3\n");
  std::string shapes;
  std::string csv;
  std::string markdown;
  course::ArgParser parser("demo", "A demo.");
  parser.add_input_file("--shapes", &shapes, "shapes");
  parser.add_output_file("--csv", &csv, "csv");
  parser.add_output_file("--markdown", &markdown, "markdown");
  CHECK(parse_words(parser, {"--csv", dir.file("a.csv"), "--markdown", dir.file("a.md")}));
  // The same file by another spelling, existing or not.
  CHECK_THROWS_WITH(
      parse_words(parser, {"--csv", dir.file("t.md"), "--markdown", dir.path() + "/./t.md"}),
      Catch::Contains("name the same file: each output needs a file of its own"));
  CHECK_THROWS_WITH(
      parse_words(parser, {"--shapes", dir.file("shapes.txt"), "--csv", dir.file("shapes.txt")}),
      Catch::Contains("--shapes " + dir.file("shapes.txt") + " and --csv") &&
          Catch::Contains("an output may not overwrite an input"));
  // A link to the input is replaced, not written through: allowed.
  REQUIRE(::symlink(dir.file("shapes.txt").c_str(), dir.file("link.csv").c_str()) == 0);
  CHECK(parse_words(parser, {"--shapes", dir.file("shapes.txt"), "--csv", dir.file("link.csv")}));
}

TEST_CASE("an output folder must exist and be writable when parsed", "[common][cli][output]") {
  TempDir dir;
  std::string out = ".";
  course::ArgParser parser("demo", "A demo.");
  parser.add_output_folder("--out", &out, "folder");
  CHECK(parse_words(parser, {"--out", dir.path()}));
  CHECK(out == dir.path());
  CHECK_THROWS_WITH(
      parse_words(parser, {"--out", dir.file("missing")}),
      Catch::Contains("--out: the folder " + dir.file("missing") + " does not exist"));
  write_text(dir.file("file"), "x");
  CHECK_THROWS_WITH(parse_words(parser, {"--out", dir.file("file")}),
                    Catch::Contains("is a regular file, not a folder"));
}
