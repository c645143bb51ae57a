/// @file test_matrix_market_limits.cpp
/// @brief The reader's limits (no GPU): line length, byte-order mark, long lines inside a
///        gzip file, and the size-only read that lets a program plan before reading.
#include "common/testing/catch2.hpp"

#include "common/matrix_market.hpp"
#include "common/tests/temp_files.hpp"

#include <chrono>
#include <sstream>
#include <string>

namespace {

const std::string kHeader = "%%MatrixMarket matrix coordinate real general\n";

course::CooMatrix parse_text(const std::string& text) {
  std::istringstream in(text);
  return course::parse_matrix_market(in, "t.mtx");
}

}  // namespace

TEST_CASE("a line longer than the limit is refused by number and limit", "[common][sparse]") {
  const std::string long_comment = "%" + std::string(course::kMaxLineBytes, 'x') + "\n";
  CHECK_THROWS_WITH(parse_text(kHeader + long_comment + "2 2 1\n1 1 1.0\n"),
                    Catch::StartsWith("t.mtx:2: line is longer than 1048576 bytes"));
  // A line of exactly the limit is fine, with or without its final newline.
  const std::string longest_comment = "%" + std::string(course::kMaxLineBytes - 1, 'y') + "\n";
  CHECK(parse_text(kHeader + longest_comment + "2 2 1\n1 1 1.0\n").nnz() == 1);
  const std::string last_line = "1 1 " + std::string(course::kMaxLineBytes - 5, '0') + "1";
  CHECK(parse_text(kHeader + "2 2 1\n" + last_line).nnz() == 1);
}

TEST_CASE("a UTF-8 byte-order mark before the header is accepted", "[common][sparse]") {
  const course::CooMatrix matrix = parse_text("\xEF\xBB\xBF" + kHeader + "2 2 1\n2 1 3.0\n");
  REQUIRE(matrix.nnz() == 1);
  CHECK(matrix.rows == 2);
  // Only before the header: elsewhere it is an ordinary bad token.
  CHECK_THROWS_WITH(parse_text(kHeader + "\xEF\xBB\xBF"
                                         "2 2 1\n2 1 3.0\n"),
                    Catch::Contains("t.mtx:2: bad size line"));
}

TEST_CASE("a gzip file holding one huge line is refused quickly in bounded memory",
          "[common][sparse]") {
  course::testing::TempDir dir;
  // 64 MiB of digits compress to a few hundred KiB; the reader must stop at the limit.
  const std::string huge = kHeader + "2 2 1\n1 1 " + std::string(std::size_t{64} << 20, '7') + "\n";
  course::testing::write_gzip(dir.file("huge.mtx.gz"), huge);
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(course::read_matrix_market(dir.file("huge.mtx.gz")),
                    Catch::Contains("huge.mtx.gz:3: line is longer than 1048576 bytes"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
}

TEST_CASE("read_matrix_market_size reads the header and size line only", "[common][sparse]") {
  course::testing::TempDir dir;
  // Entries that are wrong: the size-only read never looks at them.
  course::testing::write_gzip(dir.file("big.mtx.gz"), kHeader + "% note\n300 400 5000\nbad\n");
  const course::MatrixMarketSize size = course::read_matrix_market_size(dir.file("big.mtx.gz"));
  CHECK(size.rows == 300);
  CHECK(size.cols == 400);
  CHECK(size.entries == 5000);
  CHECK(size.max_nonzeros() == 5000);
  course::testing::write_text(dir.file("sym.mtx"),
                              "%%MatrixMarket matrix coordinate pattern symmetric\n9 9 7\n");
  CHECK(course::read_matrix_market_size(dir.file("sym.mtx")).max_nonzeros() == 14);
  course::testing::write_text(dir.file("bad.mtx"), kHeader + "3 3 10\n");
  CHECK_THROWS_WITH(course::read_matrix_market_size(dir.file("bad.mtx")),
                    Catch::Contains("bad.mtx:2: bad size line: entries 10 exceed rows * cols = 9"));
  CHECK_THROWS_WITH(course::read_matrix_market_size(dir.file("missing.mtx")),
                    Catch::Contains("missing.mtx:0: cannot open"));
}
