/// @file test_matrix_market.cpp
/// @brief Tests of the Matrix Market reader and writer (no GPU). Fixtures are written to a
///        fresh temporary directory by the tests themselves.
#include "common/testing/catch2.hpp"

#include "common/matrix_market.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/tests/temp_files.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using course::testing::TempDir;
using course::testing::write_gzip;
using course::testing::write_text;

course::CooMatrix parse_text(const std::string& text,
                             course::DuplicatePolicy policy = course::DuplicatePolicy::Sum) {
  std::istringstream in(text);
  return course::parse_matrix_market(in, "fixture.mtx", policy);
}

/// Entries as a map position -> value: an order-free description to compare against.
using EntryMap = std::map<std::pair<int, int>, float>;

EntryMap entries_of(const course::CooMatrix& matrix) {
  EntryMap entries;
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    entries[{matrix.row_indices[entry], matrix.col_indices[entry]}] = matrix.values[entry];
  }
  return entries;
}

bool is_sorted_row_major(const course::CooMatrix& matrix) {
  for (std::size_t entry = 1; entry < matrix.nnz(); ++entry) {
    if (std::make_pair(matrix.row_indices[entry - 1], matrix.col_indices[entry - 1]) >=
        std::make_pair(matrix.row_indices[entry], matrix.col_indices[entry])) {
      return false;
    }
  }
  return true;
}

/// One malformed input, the line the error must name, and words the message must contain.
struct BadCase {
  const char* what;
  std::string text;
  long line;
  const char* message;
};

const std::string kRealHeader = "%%MatrixMarket matrix coordinate real general\n";

}  // namespace

TEST_CASE("Matrix Market reads every supported field and symmetry", "[common][sparse]") {
  // The same lower-triangle entries under each header; comments and blank lines anywhere
  // after the header, Windows line ends on some lines.
  const char* const fields[] = {"real", "double", "integer", "pattern"};
  const char* const symmetries[] = {"general", "symmetric"};
  for (const char* field : fields) {
    for (const char* symmetry : symmetries) {
      const bool pattern = std::string(field) == "pattern";
      const bool symmetric = std::string(symmetry) == "symmetric";
      INFO(field << " " << symmetry);
      std::string text = std::string("%%MatrixMarket matrix coordinate ") + field + " " + symmetry +
                         "\n% a comment\n\n%\n  \t\n4 4 4\r\n";
      text += pattern ? "1 1\n3 1\r\n% between entries\n\n4 2\n4 4  \n"
                      : "1 1 5\n3 1 -2\r\n% between entries\n\n4 2 7\n4 4 +3  \n";
      text += "% trailing comment\n\n";
      const course::CooMatrix matrix = parse_text(text);
      CHECK(matrix.rows == 4);
      CHECK(matrix.cols == 4);
      CHECK(is_sorted_row_major(matrix));
      EntryMap expected = {{{0, 0}, 5.0f}, {{2, 0}, -2.0f}, {{3, 1}, 7.0f}, {{3, 3}, 3.0f}};
      if (symmetric) {
        expected[{0, 2}] = -2.0f;
        expected[{1, 3}] = 7.0f;
      }
      if (pattern) {
        for (auto& entry : expected) {
          entry.second = 1.0f;
        }
      }
      CHECK(matrix.nnz() == expected.size());
      CHECK(entries_of(matrix) == expected);
    }
  }
}

TEST_CASE("Matrix Market reads keywords in any case and real number forms", "[common][sparse]") {
  const course::CooMatrix matrix = parse_text(
      "%%matrixmarket MATRIX Coordinate REAL General\n2 3 5\n1 1 1.5e2\n1 2 -.25\n1 3 3.\n"
      "2 1 1E-3\n2 3 -0\n");
  CHECK(entries_of(matrix) ==
        EntryMap{
            {{0, 0}, 150.0f}, {{0, 1}, -0.25f}, {{0, 2}, 3.0f}, {{1, 0}, 0.001f}, {{1, 2}, 0.0f}});
  const course::CooMatrix empty =
      parse_text("%%MatrixMarket matrix coordinate pattern general\n3 2 0\n");
  CHECK(empty.rows == 3);
  CHECK(empty.cols == 2);
  CHECK(empty.nnz() == 0);
}

TEST_CASE("Matrix Market symmetric files are expanded", "[common][sparse]") {
  const course::CooMatrix matrix = parse_text(
      "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 1\n2 1 2\n3 1 3\n3 2 4\n");
  CHECK(matrix.nnz() == 7);  // one diagonal entry stays single, three pairs
  CHECK(matrix.row_indices == std::vector<int>{0, 0, 0, 1, 1, 2, 2});
  CHECK(matrix.col_indices == std::vector<int>{0, 1, 2, 0, 2, 0, 1});
  CHECK(matrix.values == std::vector<float>{1, 2, 3, 2, 4, 3, 4});
}

TEST_CASE("Matrix Market duplicates are summed by default or refused", "[common][sparse]") {
  const std::string text = kRealHeader + "3 3 4\n2 2 1.5\n1 3 1\n2 2 2.25\n2 2 -1\n";
  // Summed with a warning that says how many entries were merged, where, and what is left.
  std::ostringstream warning;
  std::streambuf* const saved = std::cerr.rdbuf(warning.rdbuf());
  const course::CooMatrix summed = parse_text(text);
  std::cerr.rdbuf(saved);
  CHECK(warning.str() ==
        "warning: fixture.mtx: 2 entries repeat the position of earlier ones (1 position, the "
        "first repeat at line 5); the values were summed: 2 of 4 entries remain\n");
  CHECK(entries_of(summed) == EntryMap{{{0, 2}, 1.0f}, {{1, 1}, 2.75f}});
  CHECK(summed.nnz() == 2);
  try {
    parse_text(text, course::DuplicatePolicy::Error);
    FAIL("a duplicate was accepted under DuplicatePolicy::Error");
  } catch (const course::MatrixMarketError& error) {
    CHECK(error.line() == 5);  // the first line that repeats a position
    CHECK_THAT(error.what(),
               Catch::StartsWith("fixture.mtx:5: ") && Catch::Contains("duplicate entry"));
  }
  // Symmetric: a repeated lower entry duplicates both mirrored positions.
  const std::string symmetric =
      "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 1 4\n";
  CHECK(entries_of(parse_text(symmetric)) == EntryMap{{{0, 1}, 7.0f}, {{1, 0}, 7.0f}});
  CHECK_THROWS_AS(parse_text(symmetric, course::DuplicatePolicy::Error), course::MatrixMarketError);
}

TEST_CASE("read_matrix_market reads plain and gzip files", "[common][sparse]") {
  TempDir dir;
  const std::string text =
      "%%MatrixMarket matrix coordinate integer symmetric\n% made by the test\n"
      "3 3 3\n3 3 9\n3 1 -4\n1 1 2\n";
  const EntryMap expected = {{{0, 0}, 2.0f}, {{0, 2}, -4.0f}, {{2, 0}, -4.0f}, {{2, 2}, 9.0f}};
  write_text(dir.file("plain.mtx"), text);
  write_gzip(dir.file("packed.mtx.gz"), text);
  const course::CooMatrix plain = course::read_matrix_market(dir.file("plain.mtx"));
  const course::CooMatrix packed = course::read_matrix_market(dir.file("packed.mtx.gz"));
  CHECK(entries_of(plain) == expected);
  CHECK(entries_of(packed) == expected);
  CHECK(is_sorted_row_major(packed));

  // Errors name the file itself, with the line inside the decompressed text.
  write_gzip(dir.file("bad.mtx.gz"), kRealHeader + "2 2 1\n3 1 1\n");
  CHECK_THROWS_WITH(course::read_matrix_market(dir.file("bad.mtx.gz")),
                    Catch::StartsWith(dir.file("bad.mtx.gz") + ":3: ") &&
                        Catch::Contains("row index 3 out of range [1, 2]"));
}

TEST_CASE("read_matrix_market reports missing and damaged files", "[common][sparse]") {
  TempDir dir;
  try {
    course::read_matrix_market(dir.file("absent.mtx"));
    FAIL("a missing file was read");
  } catch (const course::MatrixMarketError& error) {
    CHECK(error.line() == 0);
    CHECK_THAT(error.what(), Catch::Contains("absent.mtx") && Catch::Contains("cannot open"));
  }
  // A gzip file cut short: the damage is reported, not a misleading "too few entries".
  std::string entries;
  for (int row = 1; row <= 2000; ++row) {
    entries += std::to_string(row) + " " + std::to_string(row) + " 1.5\n";
  }
  write_gzip(dir.file("whole.mtx.gz"), kRealHeader + "2000 2000 2000\n" + entries);
  std::ifstream whole(dir.file("whole.mtx.gz"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(whole)),
                          std::istreambuf_iterator<char>());
  write_text(dir.file("cut.mtx.gz"), bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH(course::read_matrix_market(dir.file("cut.mtx.gz")),
                    Catch::Contains("cut.mtx.gz:0: the gzip data ends before its end marker: "
                                    "the file is truncated"));
  CHECK(course::read_matrix_market(dir.file("whole.mtx.gz")).nnz() == 2000);
}

TEST_CASE("write_matrix_market output reads back exactly", "[common][sparse]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  TempDir dir;
  course::CooMatrix matrix = course::random_uniform_mask(300, 200, 4000, seed);
  course::fill_uniform(matrix.values.data(), matrix.nnz(), seed + 1, -1000.0f, 1000.0f);
  matrix.values[0] = 1.0e-30f;  // tiny and huge magnitudes also round trip
  matrix.values[1] = -3.0e38f;
  for (const char* name : {"round.mtx", "round.mtx.gz"}) {
    INFO(name);
    course::write_matrix_market(dir.file(name), matrix);
    const course::CooMatrix back = course::read_matrix_market(dir.file(name));
    CHECK(back.rows == matrix.rows);
    CHECK(back.cols == matrix.cols);
    CHECK(back.row_indices == matrix.row_indices);
    CHECK(back.col_indices == matrix.col_indices);
    CHECK(back.values == matrix.values);  // bit-exact: 9 significant digits
  }
  course::write_matrix_market(dir.file("pattern.mtx"), matrix, /*pattern=*/true);
  std::ifstream pattern_file(dir.file("pattern.mtx"));
  std::string header;
  std::getline(pattern_file, header);
  CHECK(header == "%%MatrixMarket matrix coordinate pattern general");
  const course::CooMatrix pattern = course::read_matrix_market(dir.file("pattern.mtx"));
  CHECK(pattern.row_indices == matrix.row_indices);
  CHECK(pattern.col_indices == matrix.col_indices);
  CHECK(std::count(pattern.values.begin(), pattern.values.end(), 1.0f) == 4000);

  course::CooMatrix invalid = matrix;
  invalid.row_indices[3] = 300;
  CHECK_THROWS_AS(course::write_matrix_market(dir.file("invalid.mtx"), invalid),
                  std::invalid_argument);
  CHECK_THROWS_AS(course::write_matrix_market(dir.file("no_such_dir/x.mtx"), matrix),
                  std::runtime_error);
}

TEST_CASE("Matrix Market errors name the line and the problem", "[common][sparse]") {
  const std::string symmetric_header = "%%MatrixMarket matrix coordinate real symmetric\n";
  const std::string integer_header = "%%MatrixMarket matrix coordinate integer general\n";
  const std::string pattern_header = "%%MatrixMarket matrix coordinate pattern general\n";
  // Lines count from 1 at the header. Missing lines (size line, entries) are reported at the
  // line after the last one, where the next line was expected.
  const std::vector<BadCase> cases = {
      {"empty input", "", 1, "missing header"},
      {"no header", "3 3 1\n1 1 1\n", 1, "bad header"},
      {"one percent sign", "%MatrixMarket matrix coordinate real general\n3 3 0\n", 1,
       "bad header"},
      {"short header", "%%MatrixMarket matrix coordinate real\n3 3 0\n", 1, "expected 5 words"},
      {"complex field", "%%MatrixMarket matrix coordinate complex general\n1 1 0\n", 1,
       "unsupported field 'complex'"},
      {"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1,
       "unsupported symmetry 'hermitian'"},
      {"skew-symmetric", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n", 1,
       "unsupported symmetry 'skew-symmetric'"},
      {"dense array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 1,
       "unsupported format 'array'"},
      {"vector object", "%%MatrixMarket vector coordinate real general\n2 0\n", 1,
       "unsupported object 'vector'"},
      {"missing size line", kRealHeader + "% only a comment\n\n", 4, "missing size line"},
      {"size line with two fields", kRealHeader + "% c\n3 3\n", 3, "bad size line"},
      {"size line with four fields", kRealHeader + "3 3 1 1\n", 2, "found 4 fields"},
      {"non-numeric size", kRealHeader + "3 x 1\n", 2, "cols 'x' is not a whole number"},
      {"negative rows", kRealHeader + "-3 3 1\n", 2, "rows -3 is negative"},
      {"rows overflow int", kRealHeader + "3000000000 3 1\n", 2,
       "rows 3000000000 exceeds the limit 2147483647"},
      {"entries overflow 64 bits", kRealHeader + "3 3 99999999999999999999\n", 2,
       "entries '99999999999999999999' is not a whole number"},
      {"entries over int", kRealHeader + "2000000000 2000000000 3000000000\n", 2,
       "entries 3000000000 exceeds the limit 2147483647"},
      {"more entries than positions", kRealHeader + "2 2 5\n", 2,
       "entries 5 exceed rows * cols = 4"},
      {"no rows and no columns", kRealHeader + "0 0 0\n", 2,
       "a matrix needs at least one row and one column, found 0 x 0"},
      {"no columns", kRealHeader + "3 0 0\n", 2, "found 3 x 0"},
      {"symmetric not square", symmetric_header + "2 3 1\n", 2, "must be square"},
      {"symmetric too many entries", symmetric_header + "2 2 4\n", 2, "lower triangle"},
      {"too few entries", kRealHeader + "3 3 3\n1 1 1\n% c\n2 2 2\n", 6,
       "too few entries: found 2, the size line (line 2) declares 3"},
      {"too few entries with a huge claim", kRealHeader + "1000000 1000000 2000000000\n1 1 1\n", 4,
       "too few entries: found 1"},
      {"too many entries", kRealHeader + "3 3 2\n1 1 1\n2 2 2\n\n3 3 3\n", 6,
       "too many entries: the size line (line 2) declares 2"},
      {"row index 0", kRealHeader + "3 4 2\n1 1 1\n0 2 1\n", 4, "row index 0 out of range [1, 3]"},
      {"row index rows + 1", kRealHeader + "3 4 1\n4 2 1\n", 3, "row index 4 out of range [1, 3]"},
      {"column index 0", kRealHeader + "3 4 1\n1 0 1\n", 3, "column index 0 out of range [1, 4]"},
      {"column index cols + 1", kRealHeader + "3 4 1\n1 5 1\n", 3,
       "column index 5 out of range [1, 4]"},
      {"negative row index", kRealHeader + "3 4 1\n-1 1 1\n", 3,
       "row index -1 out of range [1, 3]"},
      {"huge row index", kRealHeader + "3 4 1\n99999999999999999999 1 1\n", 3,
       "non-numeric row index '99999999999999999999'"},
      {"non-numeric row", kRealHeader + "3 4 1\na 1 1\n", 3, "non-numeric row index 'a'"},
      {"non-numeric column", kRealHeader + "3 4 1\n1 2.0 1\n", 3, "non-numeric column index '2.0'"},
      {"non-numeric value", kRealHeader + "3 4 1\n1 1 1.5x\n", 3, "non-numeric value '1.5x'"},
      {"fraction in an integer file", integer_header + "3 4 1\n1 1 2.5\n", 3,
       "non-numeric value '2.5'"},
      {"missing real value", kRealHeader + "3 4 2\n1 1 1\n2 2\n", 4, "missing value"},
      {"missing integer value", integer_header + "3 4 1\n2 2\n", 3, "missing value"},
      {"lone index", pattern_header + "3 4 1\n2\n", 3, "incomplete entry"},
      {"extra field", kRealHeader + "3 4 1\n1 1 1 7\n", 3, "extra field '7'"},
      {"value in a pattern file", pattern_header + "3 4 1\n1 1 1\n", 3, "extra field '1'"},
      {"upper triangle in a symmetric file", symmetric_header + "3 3 2\n2 1 1\n1 3 1\n", 4,
       "entry (1, 3) is above the diagonal"},
      {"nan value", kRealHeader + "3 4 1\n1 1 nan\n", 3, "not a finite number"},
      {"value beyond float", kRealHeader + "3 4 1\n1 1 1e39\n", 3, "not a finite number"},
      {"duplicates summing beyond float", kRealHeader + "3 4 2\n1 1 3e38\n1 1 3e38\n", 4,
       "does not fit a float"},
  };
  for (const BadCase& bad : cases) {
    INFO(bad.what);
    try {
      parse_text(bad.text);
      FAIL("accepted: " << bad.what);
    } catch (const course::MatrixMarketError& error) {
      CHECK(error.line() == bad.line);
      CHECK_THAT(error.what(),
                 Catch::StartsWith("fixture.mtx:" + std::to_string(bad.line) + ": ") &&
                     Catch::Contains(bad.message));
    }
  }
}

TEST_CASE("parse_matrix_market ignores and restores a stream's exception mask",
          "[common][sparse]") {
  std::istringstream in(kRealHeader + "2 2 1\n1 1 1\n");
  in.exceptions(std::ios::failbit | std::ios::badbit);
  // Reaching the end of the input is how parsing ends, not an ios_base::failure.
  const course::CooMatrix matrix = course::parse_matrix_market(in, "fixture.mtx");
  CHECK(matrix.nnz() == 1);
  CHECK(in.exceptions() == (std::ios::failbit | std::ios::badbit));
  std::istringstream bad(kRealHeader + "2 2 3\n1 1 1\n");
  bad.exceptions(std::ios::failbit | std::ios::badbit);
  CHECK_THROWS_AS(course::parse_matrix_market(bad, "fixture.mtx"), course::MatrixMarketError);
}
