/// @file bounded_line_reader.hpp
/// @brief Reading a text input one line at a time within limits: the length of a line, the
/// number and bytes of comment and blank lines, and the bytes of the other lines. However
/// the input is made (a 3 GiB line, 4 GB of comments packed into a 17 MB `.gz`, /dev/zero),
/// the reader stops at a limit with a message naming it, after a bounded amount of reading.
///
/// Every text input of the course goes through it: the Matrix Market reader
/// (matrix_market_lines.hpp) and step 4's shapes list. Typical use:
/// @code
///   course::TextLimits limits;
///   limits.comment_marker = '#';
///   limits.max_content_bytes = 1 << 20;  // what the format can need
///   course::BoundedTextFile file(path, limits);  // a FIFO, device or folder is refused here
///   course::BoundedLineReader& lines = file.lines();
///   while (lines.next_content_line()) {
///     // lines.line(), lines.line_number(); lines.fail("what is wrong") throws
///   }
///   file.check_stream();  // a damaged .gz is reported as such
/// @endcode
#pragma once

#include "common/compressed_file.hpp"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <stdexcept>
#include <string>

namespace course {

/// @brief A text input refused by BoundedLineReader (or by the format read on top of it):
/// what() reads `<name>:<line>: <problem>`; line 0 means the whole input.
class TextInputError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param name the input's name (its path)
  /// @param line 1-based line of the problem, 0 for the whole input
  /// @param problem what is wrong, with the limit where there is one
  TextInputError(const std::string& name, long line, const std::string& problem)
      : std::runtime_error(name + ":" + std::to_string(line) + ": " + problem),
        name_(name),
        line_(line),
        problem_(problem) {}

  /// @brief The input's name.
  /// @return the name
  const std::string& name() const { return name_; }
  /// @brief The line of the problem (1-based; 0 for the whole input).
  /// @return the line
  long line() const { return line_; }
  /// @brief The problem, without the name and line.
  /// @return the text
  const std::string& problem() const { return problem_; }

 private:
  std::string name_;
  long line_;
  std::string problem_;
};

/// @brief The limits of a BoundedLineReader. The decompressed bytes it reads are at most
/// max_skipped_bytes + max_content_bytes (plus one line), whatever the input.
struct TextLimits {
  /// Longest line, in bytes without its newline; refused as soon as this much is read.
  std::size_t max_line_bytes = std::size_t{1} << 20;
  /// Most comment and blank lines that next_content_line() skips in all.
  std::uint64_t max_skipped_lines = 1000000;
  /// Most bytes (newlines included) of those skipped lines.
  std::uint64_t max_skipped_bytes = std::uint64_t{16} << 20;
  /// Most bytes (newlines included) of all other lines; a format that learns its size from a
  /// header sets the real bound with BoundedLineReader::set_content_limit().
  std::uint64_t max_content_bytes = std::uint64_t{64} << 20;
  /// A line whose first non-blank character is this one is a comment.
  char comment_marker = '#';
};

/// @brief Reads the lines of a stream within TextLimits, counting them (see the file comment).
/// A UTF-8 byte-order mark at the start of the first line is dropped.
class BoundedLineReader {
 public:
  /// @brief A reader of @p in, naming @p name in its errors.
  /// @param in the stream (plain text; BoundedTextFile opens files, gzip or not)
  /// @param name the input's name, for messages
  /// @param limits the limits
  BoundedLineReader(std::istream& in, std::string name, const TextLimits& limits = TextLimits{});

  /// @brief Reads the next line, whatever it holds, into line() (its bytes count as content).
  /// @return false at the end of the input
  /// @throws TextInputError at a limit or on a read error
  bool next();

  /// @brief Reads the next line that is neither blank nor a comment, skipping (and counting
  /// against the skipped-line limits) the others.
  /// @return false at the end of the input
  /// @throws TextInputError at a limit or on a read error
  bool next_content_line();

  /// @brief The current line, without its newline.
  /// @return the line
  const std::string& line() const { return line_; }
  /// @brief The current line's number, 1-based (0 before the first).
  /// @return the number
  long line_number() const { return line_number_; }
  /// @brief The input's name.
  /// @return the name
  const std::string& name() const { return name_; }
  /// @brief Bytes of the lines read as content so far (newlines included).
  /// @return the count
  std::uint64_t content_bytes() const { return content_bytes_; }

  /// @brief Sets the most bytes all content lines may hold (those read so far included),
  /// e.g. from what a header's sizes can need.
  /// @param max_bytes the new limit
  /// @param reason why it is that, for the message ("what 3 entries can need")
  void set_content_limit(std::uint64_t max_bytes, const std::string& reason);

  /// @brief Throws a TextInputError for line @p line.
  /// @param line 1-based line number (0: the whole input)
  /// @param problem what is wrong
  [[noreturn]] void fail(long line, const std::string& problem) const;
  /// @brief Throws a TextInputError for the current line.
  /// @param problem what is wrong
  [[noreturn]] void fail(const std::string& problem) const { fail(line_number_, problem); }

 private:
  bool read_line();
  bool is_skipped_line() const;
  void count_content();

  std::istream& in_;
  std::string name_;
  TextLimits limits_;
  std::string content_reason_ = "the limit of this reader";
  char chunk_[4096];  // one piece of a line (std::istream::getline needs a bounded buffer)
  std::string line_;
  long line_number_ = 0;
  std::uint64_t line_bytes_ = 0;  // the current line with its newline
  std::uint64_t content_bytes_ = 0;
  std::uint64_t skipped_lines_ = 0;
  std::uint64_t skipped_bytes_ = 0;
};

/// @brief A file (plain or gzip) opened for BoundedLineReader: only a regular file is
/// opened (a FIFO, device, socket or folder is refused at once, see file_checks.hpp).
class BoundedTextFile {
 public:
  /// @brief Opens @p path.
  /// @param path the file
  /// @param limits the reader's limits
  /// @throws TextInputError (line 0) when it cannot be opened or is not a regular file
  BoundedTextFile(const std::string& path, const TextLimits& limits = TextLimits{});

  /// @brief The file's lines.
  /// @return the reader
  BoundedLineReader& lines() { return *lines_; }

  /// @brief Throws a TextInputError (line 0) when the file could not be read to its end
  /// (a damaged or cut gzip stream ends the text early; this says so).
  void check_stream() const;

  /// @brief Why the stream stopped early, or empty when it did not.
  /// @return the message
  const std::string& stream_error() const { return buffer_->error(); }

 private:
  std::string path_;
  std::unique_ptr<CompressedReadBuffer> buffer_;
  std::unique_ptr<std::istream> stream_;
  std::unique_ptr<BoundedLineReader> lines_;
};

}  // namespace course
