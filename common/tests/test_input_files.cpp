/// @file test_input_files.cpp
/// @brief Inputs that used to hang or run away (no GPU): FIFOs, devices, sockets and folders
///        are refused at once by name; the bounded line reader stops at each of its limits; a
///        small .gz of gigabytes of comments is refused within a second; progress lines.
#include "common/testing/catch2.hpp"

#include "common/bounded_line_reader.hpp"
#include "common/matrix_market.hpp"
#include "common/progress.hpp"
#include "common/file_checks.hpp"
#include "common/tests/temp_files.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

using course::testing::TempDir;
using Clock = std::chrono::steady_clock;

const std::string kHeader = "%%MatrixMarket matrix coordinate real general\n";

/// A Unix socket bound at a path, closed (and its path removed) at the end of the test.
class BoundSocket {
 public:
  explicit BoundSocket(const std::string& path) : path_(path) {
    descriptor_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    REQUIRE(descriptor_ >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    REQUIRE(path.size() < sizeof(address.sun_path));
    std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
    REQUIRE(::bind(descriptor_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  }
  BoundSocket(const BoundSocket&) = delete;
  BoundSocket& operator=(const BoundSocket&) = delete;
  ~BoundSocket() {
    ::close(descriptor_);
    ::unlink(path_.c_str());
  }

 private:
  std::string path_;
  int descriptor_ = -1;
};

/// Every way common reads an input file must refuse @p path at once, naming @p kind.
void check_refused(const std::string& path, const std::string& kind) {
  INFO(path);
  const auto start = Clock::now();
  CHECK_THROWS_WITH(course::require_input_file("--matrix", path),
                    Catch::Contains("--matrix: " + path + " is " + kind));
  CHECK_THROWS_WITH(course::open_regular_file(path),
                    Catch::Contains(kind) && Catch::Contains("not a regular file"));
  CHECK_THROWS_WITH(course::read_matrix_market(path),
                    Catch::Contains(path + ":0: cannot open: " + kind));
  CHECK_THROWS_WITH(course::read_matrix_market_size(path), Catch::Contains(kind));
  CHECK_THROWS_WITH(course::BoundedTextFile(path), Catch::Contains(kind));
  CHECK(Clock::now() - start < std::chrono::seconds(1));
}

/// Writes @p copies gzip members, each holding @p text, one after the other (a valid
/// multi-member gzip file that zlib reads as the text repeated): gigabytes of text cost
/// the time of compressing it once.
void write_repeated_gzip(const std::string& path, const std::string& first, const std::string& text,
                         int copies) {
  const std::string member_path = path + ".member";
  course::testing::write_gzip(path, first);
  course::testing::write_gzip(member_path, text);
  std::ifstream member_file(member_path, std::ios::binary);
  const std::string member((std::istreambuf_iterator<char>(member_file)),
                           std::istreambuf_iterator<char>());
  std::ofstream out(path, std::ios::binary | std::ios::app);
  for (int copy = 0; copy < copies; ++copy) {
    out.write(member.data(), static_cast<std::streamsize>(member.size()));
  }
  REQUIRE(out.good());
}

/// Reads every content line of @p text with @p limits; returns how many there were.
int count_content_lines(const std::string& text, const course::TextLimits& limits) {
  std::istringstream in(text);
  course::BoundedLineReader reader(in, "t.txt", limits);
  int count = 0;
  while (reader.next_content_line()) {
    ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("FIFOs and devices and sockets and folders are refused at once by name",
          "[common][input]") {
  TempDir dir;
  const std::string fifo = dir.file("pipe.mtx");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: opening it for reading would wait
  check_refused(fifo, "a FIFO (named pipe)");
  check_refused("/dev/zero", "a character device");
  check_refused(dir.path(), "a folder");
  const BoundSocket socket(dir.file("s.sock"));
  check_refused(dir.file("s.sock"), "a socket");
  // A missing file keeps the system's message; a regular file opens.
  CHECK_THROWS_WITH(course::open_regular_file(dir.file("absent.mtx")),
                    Catch::EndsWith("absent.mtx: No such file or directory"));
  course::testing::write_text(dir.file("ok.mtx"), kHeader + "1 1 1\n1 1 2.5\n");
  const int descriptor = course::open_regular_file(dir.file("ok.mtx"));
  CHECK(descriptor >= 0);
  ::close(descriptor);
  CHECK(course::read_matrix_market(dir.file("ok.mtx")).values.at(0) == 2.5f);
}

TEST_CASE("the bounded line reader stops at each of its limits and names it", "[common][input]") {
  course::TextLimits limits;
  limits.max_line_bytes = 10;
  limits.max_skipped_lines = 3;
  limits.max_skipped_bytes = 20;
  limits.max_content_bytes = 12;
  // Within every limit: comments (after blanks too), blank lines and a trailing comment line.
  CHECK(count_content_lines("a b\n  # note\n\n1 2 3\n#", limits) == 2);
  CHECK_THROWS_WITH(count_content_lines("short\n0123456789x\n", limits),
                    "t.txt:2: line is longer than 10 bytes (the limit of this reader)");
  CHECK_THROWS_WITH(count_content_lines("#\n#\n\n#\nx\n", limits),
                    "t.txt:4: more than 3 comment or blank lines (the limit of this reader)");
  CHECK_THROWS_WITH(count_content_lines("#123456789\n#123456789\n", limits),
                    Catch::StartsWith("t.txt:2: the comment and blank lines hold more than 20 "
                                      "bytes"));
  CHECK_THROWS_WITH(count_content_lines("12345\n12345\n12345\n", limits),
                    Catch::StartsWith("t.txt:3: the lines other than comments hold more than 12 "
                                      "bytes") &&
                        Catch::EndsWith("the limit of this reader"));
  // A format that learns its size from a header sets the content limit, with its reason.
  std::istringstream in("3\n1\n2\n3\n4\n");
  course::BoundedLineReader reader(in, "sizes.txt", limits);
  REQUIRE(reader.next());
  reader.set_content_limit(reader.content_bytes() + 3 * 2, "what 3 one-digit lines need");
  CHECK(reader.next_content_line());
  CHECK(reader.next_content_line());
  CHECK(reader.next_content_line());
  CHECK_THROWS_WITH(reader.next_content_line(), Catch::EndsWith(", what 3 one-digit lines need") &&
                                                    Catch::StartsWith("sizes.txt:5:"));
}

TEST_CASE("a small gzip of gigabytes of comment lines is refused within a second",
          "[common][input]") {
  // Such files expand about 1000 times: the reader stops them as decompression bombs after
  // 2 MiB of text, before the comment limits (tested on plain text above) are reached.
  TempDir dir;
  // 1 GiB of short comment lines, and 1 GiB of long ones, in a few MB of gzip members.
  std::string short_lines;
  for (int line = 0; line < (1 << 22); ++line) {
    short_lines += "% comment\n";
  }
  std::string long_lines;
  for (int line = 0; line < 40; ++line) {
    long_lines += "%" + std::string(course::kMaxLineBytes - 1, 'c') + "\n";
  }
  write_repeated_gzip(dir.file("short.mtx.gz"), kHeader, short_lines, 25);
  write_repeated_gzip(dir.file("long.mtx.gz"), kHeader, long_lines, 25);
  const auto start = Clock::now();
  CHECK_THROWS_WITH(course::read_matrix_market(dir.file("short.mtx.gz")),
                    Catch::Contains("short.mtx.gz:0: the gzip data expands more than 100 times") &&
                        Catch::Contains("refused as a decompression bomb"));
  CHECK_THROWS_WITH(course::read_matrix_market_size(dir.file("long.mtx.gz")),
                    Catch::Contains("long.mtx.gz:0: the gzip data expands more than 100 times"));
  CHECK(Clock::now() - start < std::chrono::seconds(1));
}

TEST_CASE("entry lines may hold only what the size line's entries can need", "[common][input]") {
  // Four entries, each padded to 600000 bytes: past what four entries can need on average.
  const std::string padding(600000, ' ');
  std::string text = kHeader + "3 3 4\n";
  for (int entry = 1; entry <= 3; ++entry) {
    text += std::to_string(entry) + " 1 1.0" + padding + "\n";
  }
  std::istringstream in(text);
  CHECK_THROWS_WITH(course::parse_matrix_market(in, "padded.mtx"),
                    Catch::StartsWith("padded.mtx:4: the lines other than comments hold more") &&
                        Catch::Contains("what the size line's 4 entries can need"));
  // One entry line up to the line limit is fine (the limit has room for one such line).
  std::istringstream one_long(kHeader + "3 3 2\n1 1 1.0" + padding + "\n2 2 2.0\n");
  CHECK(course::parse_matrix_market(one_long, "one_long.mtx").nnz() == 2);
}

TEST_CASE("progress lines come at most once an interval and only for long work",
          "[common][input]") {
  std::ostringstream quiet;
  {
    course::ProgressMeter meter("short task", 1000, "items", &quiet);
    for (std::uint64_t item = 0; item < 1000; ++item) {
      meter.update(item);
    }
    meter.finish(1000);
    CHECK(meter.lines_printed() == 0);
  }
  CHECK(quiet.str().empty());
  std::ostringstream lines;
  course::ProgressMeter meter("reading m.mtx", 4000000, "entries", &lines,
                              std::chrono::milliseconds(0));
  meter.update(1);
  meter.update(2000000);
  meter.finish(4000000);
  CHECK(meter.lines_printed() >= 2);
  CHECK_THAT(lines.str(), Catch::StartsWith("reading m.mtx: 1 of 4.00 M entries (0 %)") &&
                              Catch::EndsWith("reading m.mtx: 4.00 M of 4.00 M entries (100 %), "
                                              "0 s, done\n"));
}
