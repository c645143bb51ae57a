/// @file test_shapes_file.cpp
/// @brief The benchmarks' shapes files: numbers and comments, a bad line named, and the limits that keep a
/// FIFO, a device, an endless file or an overlong line from hanging or filling memory.
#include "common/testing/catch2.hpp"

#include "step4_boundary_checks/lab/shapes_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <sstream>
#include <string>

TEST_CASE("the shapes file reads numbers and comments and names a bad line", "[step4][config]") {
  std::istringstream good("# squares\n4096 4096 4096\n\n  3 100000 5  # tiny\n");
  const auto shapes = course::step4::parse_shapes(good, "list");
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[1].inner == 100000);
  std::istringstream bad("1 2 3\n4 5\n");
  CHECK_THROWS_WITH(course::step4::parse_shapes(bad, "list"), Catch::Contains("list line 2"));
  std::istringstream zero("0 5 5\n");
  CHECK_THROWS_WITH(course::step4::parse_shapes(zero, "list"), Catch::Contains("line 1"));
  std::istringstream extra("1 2 3 4\n");
  CHECK_THROWS_WITH(course::step4::parse_shapes(extra, "list"),
                    Catch::Contains("three whole numbers"));
  std::istringstream empty("# nothing\n");
  CHECK_THROWS_WITH(course::step4::parse_shapes(empty, "list"), Catch::Contains("no shape"));
}

TEST_CASE("the shapes file refuses overlong lines and too many lines and too many bytes",
          "[step4][config]") {
  std::istringstream long_line(std::string(course::step4::kMaxShapesLineBytes + 1, '7'));
  CHECK_THROWS_WITH(course::step4::parse_shapes(long_line, "list"),
                    Catch::Contains("list line 1") && Catch::Contains("longer than the limit"));
  std::string many;
  for (long long line = 0; line <= course::step4::kMaxShapesLines; ++line) {
    many += "# comment\n";
  }
  many += "1 1 1\n";
  std::istringstream many_lines(many);
  CHECK_THROWS_WITH(course::step4::parse_shapes(many_lines, "list"),
                    Catch::Contains("more than the limit of") && Catch::Contains("lines"));
  std::string big;
  while (big.size() <= course::step4::kMaxShapesFileBytes) {
    big += std::string(course::step4::kMaxShapesLineBytes - 1, ' ') + "\n";
  }
  std::istringstream many_bytes(big);
  CHECK_THROWS_WITH(course::step4::parse_shapes(many_bytes, "list"), Catch::Contains("bytes"));
  std::istringstream exactly_at_limit(std::string(course::step4::kMaxShapesLineBytes - 5, ' ') +
                                      "1 2 3");
  CHECK(course::step4::parse_shapes(exactly_at_limit, "list").size() == 1u);
}

TEST_CASE("a shapes path that is not a regular file is refused by name before it is opened",
          "[step4][config]") {
  CHECK_THROWS_WITH(course::step4::read_shapes_file("/dev/zero"),
                    Catch::Contains("/dev/zero") && Catch::Contains("a character device"));
  CHECK_THROWS_WITH(course::step4::read_shapes_file("/"), Catch::Contains("a folder"));
  CHECK_THROWS_WITH(
      course::step4::read_shapes_file("/no/such/shapes.txt"),
      Catch::Contains("cannot read the shapes file") && Catch::Contains("no such file"));
  // A FIFO with no writer: opening it would block forever, so it must be refused unopened.
  char fifo_path[] = "/tmp/step4_shapes_fifo_XXXXXX";
  const int placeholder = mkstemp(fifo_path);
  REQUIRE(placeholder >= 0);
  close(placeholder);
  std::remove(fifo_path);
  REQUIRE(mkfifo(fifo_path, 0600) == 0);
  CHECK_THROWS_WITH(course::step4::read_shapes_file(fifo_path),
                    Catch::Contains("a FIFO (named pipe)"));
  std::remove(fifo_path);
}
