/// @file matrix_market_lines.hpp
/// @brief The Matrix Market reader's first layer: lines (bounded in length, counted),
/// their whitespace-separated fields, and the header and size lines.
///
/// Internal to the reader (matrix_market.cpp reads the entries on top of it, and
/// read_matrix_market_size() stops after the size line); not part of the course's API.
#pragma once

#include "common/bounded_line_reader.hpp"
#include "common/matrix_market.hpp"

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>

namespace course::matrix_market_lines {

/// What the header line says about the entries.
struct Header {
  bool pattern = false;    ///< entries have no value
  bool integer = false;    ///< values are whole numbers
  bool symmetric = false;  ///< only the lower triangle is stored
  std::string field;       ///< field keyword as written (lower case), for messages
};

/// Fields of one line: the first few tokens and how many there were in all.
struct Tokens {
  static constexpr std::size_t kKept = 6;  ///< tokens kept; more are only counted
  std::string_view token[kKept];           ///< the first kKept tokens
  std::size_t count = 0;                   ///< number of tokens on the line
};

/// The size line's numbers.
struct SizeLine {
  long long rows = 0;     ///< number of rows
  long long cols = 0;     ///< number of columns
  long long entries = 0;  ///< number of entry lines that follow
  long line = 0;          ///< where the size line is
};

/// @brief True for a space, tab, carriage return, vertical tab or form feed.
/// @param c the character
/// @return whether it separates fields
bool is_blank_char(char c);

/// @brief The fields of @p line (at most Tokens::kKept kept, all counted).
/// @param line the line
/// @return the fields
Tokens split_fields(std::string_view line);

/// @brief True for a line that holds nothing but blanks.
/// @param line the line
/// @return whether it is blank
bool is_blank_line(std::string_view line);

/// @brief A token made safe to print: bounded length, non-printable bytes shown as '?'.
/// @param token the token
/// @return the quoted text
std::string quote(std::string_view token);

/// @brief @p text in lower case (ASCII).
/// @param text the text
/// @return the lower-case copy
std::string lower_case(std::string_view text);

/// @brief Parses a whole token as a signed decimal integer.
/// @param token the token
/// @param value receives the number
/// @return false when it is not one or overflows
bool parse_whole(std::string_view token, long long& value);

/// @brief The lines of a Matrix Market text: a BoundedLineReader with the reader's limits
/// (matrix_market.hpp), whose errors are MatrixMarketErrors. Until the size line is read, the
/// data lines may hold only the header and the size line; expect_entries() then allows what
/// the declared entries can need, so that no input makes the reader read without bound.
class LineReader {
 public:
  /// @brief A reader of @p in, naming @p name in its errors.
  /// @param in the stream
  /// @param name the file's name
  LineReader(std::istream& in, const std::string& name);

  /// @brief Next line into line() (the header).
  /// @return false at the end of the input
  bool next();

  /// @brief Next line that is neither blank nor a comment ('%').
  /// @return false at the end of the input
  bool next_data_line();

  /// @brief Allows the data lines the size line's @p entries can need (kMaxEntryLineBytes
  /// each on average, and one line at the line limit).
  /// @param entries the entries the size line declares
  void expect_entries(long long entries);

  /// @brief The current line (without its newline).
  /// @return the line
  const std::string& line() const { return lines_.line(); }
  /// @brief The current line's number, 1-based.
  /// @return the number
  long line_number() const { return lines_.line_number(); }
  /// @brief The file's name.
  /// @return the name
  const std::string& name() const { return lines_.name(); }

  /// @brief Throws a MatrixMarketError for the given line.
  /// @param line 1-based line number
  /// @param problem what is wrong
  [[noreturn]] void fail(long line, const std::string& problem) const {
    throw MatrixMarketError(lines_.name(), line, problem);
  }
  /// @brief Throws a MatrixMarketError for the current line.
  /// @param problem what is wrong
  [[noreturn]] void fail(const std::string& problem) const { fail(line_number(), problem); }

 private:
  BoundedLineReader lines_;
};

/// @brief Reads and checks the header line.
/// @param reader the lines
/// @return what the header says
Header parse_header(LineReader& reader);

/// @brief Reads and checks the size line (the limits of matrix_market.hpp).
/// @param reader the lines, after the header
/// @param header what the header said
/// @return the sizes
SizeLine parse_size_line(LineReader& reader, const Header& header);

}  // namespace course::matrix_market_lines
