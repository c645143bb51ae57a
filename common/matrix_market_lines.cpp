/// @file matrix_market_lines.cpp
/// @brief Lines, fields, header and size line of a Matrix Market file.
#include "common/matrix_market_lines.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstring>
#include <system_error>

namespace course::matrix_market_lines {
namespace {

/// Longest excerpt of an offending token quoted in an error message.
constexpr std::size_t kMaxQuotedChars = 40;

const char* const kHeaderForm = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";

long long parse_size_field(const LineReader& reader, std::string_view token, const char* what,
                           long long limit) {
  long long value = 0;
  if (!parse_whole(token, value)) {
    reader.fail(std::string("bad size line: ") + what + " " + quote(token) +
                " is not a whole number (or does not fit 64 bits)");
  }
  if (value < 0) {
    reader.fail(std::string("bad size line: ") + what + " " + std::to_string(value) +
                " is negative");
  }
  if (value > limit) {
    reader.fail(std::string("bad size line: ") + what + " " + std::to_string(value) +
                " exceeds the limit " + std::to_string(limit));
  }
  return value;
}

}  // namespace

bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

Tokens split_fields(std::string_view line) {
  Tokens tokens;
  std::size_t position = 0;
  while (position < line.size()) {
    while (position < line.size() && is_blank_char(line[position])) {
      ++position;
    }
    if (position == line.size()) {
      break;
    }
    const std::size_t start = position;
    while (position < line.size() && !is_blank_char(line[position])) {
      ++position;
    }
    if (tokens.count < Tokens::kKept) {
      tokens.token[tokens.count] = line.substr(start, position - start);
    }
    ++tokens.count;
  }
  return tokens;
}

// A line that holds nothing but blanks.
bool is_blank_line(std::string_view line) {
  return std::all_of(line.begin(), line.end(), is_blank_char);
}

// A token made safe to print: bounded length, non-printable bytes shown as '?'.
std::string quote(std::string_view token) {
  std::string text = "'";
  for (std::size_t index = 0; index < token.size() && index < kMaxQuotedChars; ++index) {
    const auto byte = static_cast<unsigned char>(token[index]);
    text += std::isprint(byte) ? static_cast<char>(byte) : '?';
  }
  if (token.size() > kMaxQuotedChars) {
    text += "...";
  }
  return text + "'";
}

std::string lower_case(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return lower;
}

// Parses a whole token as a (signed, decimal) integer; false when it is not one or overflows.
bool parse_whole(std::string_view token, long long& value) {
  if (!token.empty() && token.front() == '+') {
    token.remove_prefix(1);
  }
  if (token.empty() || token.front() == '+') {
    return false;
  }
  const auto result = std::from_chars(token.data(), token.data() + token.size(), value);
  return result.ec == std::errc() && result.ptr == token.data() + token.size();
}

namespace {

TextLimits matrix_market_limits() {
  TextLimits limits;
  limits.max_line_bytes = kMaxLineBytes;
  limits.max_skipped_lines = kMaxCommentLines;
  limits.max_skipped_bytes = kMaxCommentBytes;
  // Before the size line, the only data lines are the header and the size line.
  limits.max_content_bytes = 2 * (kMaxLineBytes + 1);
  limits.comment_marker = '%';
  return limits;
}

}  // namespace

LineReader::LineReader(std::istream& in, const std::string& name)
    : lines_(in, name, matrix_market_limits()) {}

bool LineReader::next() {
  try {
    return lines_.next();
  } catch (const TextInputError& error) {
    fail(error.line(), error.problem());
  }
}

bool LineReader::next_data_line() {
  try {
    return lines_.next_content_line();
  } catch (const TextInputError& error) {
    fail(error.line(), error.problem());
  }
}

void LineReader::expect_entries(long long entries) {
  // entries <= INT_MAX, so this fits 64 bits with room to spare.
  const std::uint64_t budget = lines_.content_bytes() +
                               static_cast<std::uint64_t>(entries) * kMaxEntryLineBytes +
                               kMaxLineBytes + 1;
  lines_.set_content_limit(budget, "what the size line's " + std::to_string(entries) +
                                       " entries can need (" + std::to_string(kMaxEntryLineBytes) +
                                       " bytes an entry line on average, and one line of up to " +
                                       std::to_string(kMaxLineBytes) + " bytes)");
}

Header parse_header(LineReader& reader) {
  if (!reader.next()) {
    reader.fail(1, std::string("empty input: missing header ") + kHeaderForm);
  }
  const Tokens tokens = split_fields(reader.line());
  if (tokens.count == 0 || lower_case(tokens.token[0]) != "%%matrixmarket") {
    reader.fail(std::string("bad header: the first line must be ") + kHeaderForm);
  }
  if (tokens.count != 5) {
    reader.fail("bad header: expected 5 words " + std::string(kHeaderForm) + ", found " +
                std::to_string(tokens.count));
  }
  const std::string object = lower_case(tokens.token[1]);
  const std::string format = lower_case(tokens.token[2]);
  const std::string field = lower_case(tokens.token[3]);
  const std::string symmetry = lower_case(tokens.token[4]);
  if (object != "matrix") {
    reader.fail("unsupported object " + quote(tokens.token[1]) + ": only 'matrix'");
  }
  if (format == "array") {
    reader.fail("unsupported format 'array' (dense): only 'coordinate' (sparse) is read");
  }
  if (format != "coordinate") {
    reader.fail("unknown format " + quote(tokens.token[2]) + ": only 'coordinate'");
  }
  Header header;
  header.field = field;
  if (field == "pattern") {
    header.pattern = true;
  } else if (field == "integer") {
    header.integer = true;
  } else if (field != "real" && field != "double") {
    reader.fail("unsupported field " + quote(tokens.token[3]) +
                ": only real, double, integer and pattern (complex is not supported)");
  }
  if (symmetry == "symmetric") {
    header.symmetric = true;
  } else if (symmetry != "general") {
    reader.fail("unsupported symmetry " + quote(tokens.token[4]) +
                ": only general and symmetric (hermitian and skew-symmetric are not supported)");
  }
  return header;
}

SizeLine parse_size_line(LineReader& reader, const Header& header) {
  if (!reader.next_data_line()) {
    reader.fail(reader.line_number() + 1, "missing size line 'rows cols entries'");
  }
  const Tokens tokens = split_fields(reader.line());
  if (tokens.count != 3) {
    reader.fail("bad size line: expected 'rows cols entries', found " +
                std::to_string(tokens.count) + " fields");
  }
  SizeLine size;
  size.line = reader.line_number();
  size.rows = parse_size_field(reader, tokens.token[0], "rows", INT_MAX);
  size.cols = parse_size_field(reader, tokens.token[1], "cols", INT_MAX);
  size.entries = parse_size_field(reader, tokens.token[2], "entries", INT_MAX);
  if (size.rows == 0 || size.cols == 0) {
    reader.fail("bad size line: a matrix needs at least one row and one column, found " +
                std::to_string(size.rows) + " x " + std::to_string(size.cols) +
                " (the programs' --rows and --cols start at 1 too)");
  }
  reader.expect_entries(size.entries);
  // rows, cols <= INT_MAX, so these products fit in 64 bits.
  const long long positions = size.rows * size.cols;
  if (header.symmetric) {
    if (size.rows != size.cols) {
      reader.fail("bad size line: a symmetric matrix must be square, found " +
                  std::to_string(size.rows) + " x " + std::to_string(size.cols));
    }
    const long long lower_triangle = size.rows * (size.rows + 1) / 2;
    if (size.entries > lower_triangle) {
      reader.fail(
          "bad size line: entries " + std::to_string(size.entries) +
          " exceed the lower triangle rows * (rows + 1) / 2 = " + std::to_string(lower_triangle));
    }
  } else if (size.entries > positions) {
    reader.fail("bad size line: entries " + std::to_string(size.entries) +
                " exceed rows * cols = " + std::to_string(positions));
  }
  return size;
}

}  // namespace course::matrix_market_lines
