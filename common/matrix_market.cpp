/// @file matrix_market.cpp
/// @brief Matrix Market coordinate reader (plain or gzip) and writer.
///
/// The parser reads one line at a time and checks every field before using it, so no input
/// can make it index out of range, loop forever or allocate more than a bounded amount ahead
/// of the data it has actually seen.
#include "common/matrix_market.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ios>
#include <limits>
#include <memory>
#include <streambuf>
#include <string_view>
#include <system_error>
#include <vector>

namespace course {

MatrixMarketError::MatrixMarketError(const std::string& path, long line, const std::string& problem)
    : std::runtime_error(path + ":" + std::to_string(line) + ": " + problem), line_(line) {}

namespace {

/// Most entries reserved ahead of reading them: a size line may lie about the count.
constexpr std::size_t kMaxReservedEntries = std::size_t{1} << 20;

/// Longest excerpt of an offending token quoted in an error message.
constexpr std::size_t kMaxQuotedChars = 40;

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

/// Reads the lines of a stream, counting them.
class LineReader {
 public:
  LineReader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  /// Next line into line(); false at the end of the input.
  bool next() {
    if (!std::getline(in_, line_)) {
      if (in_.bad()) {
        fail(line_number_ + 1, "read error");
      }
      return false;
    }
    ++line_number_;
    return true;
  }

  /// Next line that is neither blank nor a comment; false at the end of the input.
  bool next_data_line() {
    while (next()) {
      if (!is_blank_line(line_) && line_.front() != '%') {
        return true;
      }
    }
    return false;
  }

  const std::string& line() const { return line_; }
  long line_number() const { return line_number_; }

  /// Throws a MatrixMarketError for the given line.
  [[noreturn]] void fail(long line, const std::string& problem) const {
    throw MatrixMarketError(name_, line, problem);
  }
  /// Throws a MatrixMarketError for the current line.
  [[noreturn]] void fail(const std::string& problem) const { fail(line_number_, problem); }

 private:
  std::istream& in_;
  const std::string& name_;
  std::string line_;
  long line_number_ = 0;
};

const char* const kHeaderForm = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";

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

/// The size line's numbers.
struct SizeLine {
  long long rows = 0;     ///< number of rows
  long long cols = 0;     ///< number of columns
  long long entries = 0;  ///< number of entry lines that follow
  long line = 0;          ///< where the size line is
};

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

int parse_index(const LineReader& reader, std::string_view token, const char* what,
                long long limit) {
  long long value = 0;
  if (!parse_whole(token, value)) {
    reader.fail(std::string("non-numeric ") + what + " index " + quote(token) +
                " (expected a whole number in [1, " + std::to_string(limit) + "])");
  }
  if (value < 1 || value > limit) {
    reader.fail(std::string(what) + " index " + std::to_string(value) + " out of range [1, " +
                std::to_string(limit) + "]");
  }
  return static_cast<int>(value - 1);
}

float parse_value(const LineReader& reader, std::string_view token, const Header& header) {
  if (header.integer) {
    long long whole = 0;
    if (!parse_whole(token, whole)) {
      reader.fail("non-numeric value " + quote(token) +
                  " (an integer matrix needs a whole number that fits 64 bits)");
    }
    return static_cast<float>(whole);
  }
  std::string_view digits = token;
  if (!digits.empty() && digits.front() == '+') {
    digits.remove_prefix(1);
  }
  double value = 0.0;
  const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || digits.front() == '+' || result.ptr != digits.data() + digits.size() ||
      (result.ec != std::errc() && result.ec != std::errc::result_out_of_range)) {
    reader.fail("non-numeric value " + quote(token) + " (expected a real number)");
  }
  if (result.ec == std::errc::result_out_of_range || !std::isfinite(value) ||
      std::fabs(value) > static_cast<double>(std::numeric_limits<float>::max())) {
    reader.fail("value " + quote(token) +
                " is not a finite number within the float range (magnitude at most 3.40282e+38)");
  }
  return static_cast<float>(value);
}

/// Entries as read, before sorting and merging, with the line each came from.
struct RawEntries {
  CooMatrix matrix;                ///< entries in reading order (symmetric ones mirrored)
  std::vector<std::int64_t> line;  ///< line of each entry
};

void read_entries(LineReader& reader, const Header& header, const SizeLine& size, RawEntries& raw) {
  const std::size_t expected_fields = header.pattern ? 2 : 3;
  const std::size_t stored = static_cast<std::size_t>(size.entries) * (header.symmetric ? 2 : 1);
  const std::size_t reserve = std::min(stored, kMaxReservedEntries);
  raw.matrix.row_indices.reserve(reserve);
  raw.matrix.col_indices.reserve(reserve);
  raw.matrix.values.reserve(reserve);
  raw.line.reserve(reserve);
  long long found = 0;
  const std::string entry_form = header.pattern ? "'row col'" : "'row col value'";
  while (reader.next_data_line()) {
    if (found == size.entries) {
      reader.fail("too many entries: the size line (line " + std::to_string(size.line) +
                  ") declares " + std::to_string(size.entries));
    }
    const Tokens tokens = split_fields(reader.line());
    if (tokens.count < 2) {
      reader.fail("incomplete entry: expected " + entry_form + ", found 1 field");
    }
    if (tokens.count < expected_fields) {
      reader.fail("missing value: a " + header.field + " matrix needs " + entry_form);
    }
    if (tokens.count > expected_fields) {
      reader.fail("extra field " + quote(tokens.token[expected_fields]) + ": a " + header.field +
                  " matrix needs exactly " + entry_form);
    }
    const int row = parse_index(reader, tokens.token[0], "row", size.rows);
    const int col = parse_index(reader, tokens.token[1], "column", size.cols);
    const float value = header.pattern ? 1.0f : parse_value(reader, tokens.token[2], header);
    if (header.symmetric && row < col) {
      reader.fail("entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                  ") is above the diagonal: a symmetric file stores only the lower triangle "
                  "(row >= col)");
    }
    raw.matrix.row_indices.push_back(row);
    raw.matrix.col_indices.push_back(col);
    raw.matrix.values.push_back(value);
    raw.line.push_back(reader.line_number());
    if (header.symmetric && row != col) {
      raw.matrix.row_indices.push_back(col);
      raw.matrix.col_indices.push_back(row);
      raw.matrix.values.push_back(value);
      raw.line.push_back(reader.line_number());
    }
    if (raw.matrix.nnz() > static_cast<std::size_t>(INT_MAX)) {
      reader.fail("the expanded symmetric matrix exceeds the limit of " + std::to_string(INT_MAX) +
                  " entries");
    }
    ++found;
  }
  if (found < size.entries) {
    reader.fail(reader.line_number() + 1, "too few entries: found " + std::to_string(found) +
                                              ", the size line (line " + std::to_string(size.line) +
                                              ") declares " + std::to_string(size.entries));
  }
}

// Sorts row-major and merges entries at the same position by the policy.
CooMatrix sort_and_merge(const RawEntries& raw, DuplicatePolicy duplicates,
                         const LineReader& reader) {
  const CooMatrix& entries = raw.matrix;
  const std::vector<std::size_t> order = row_major_order(entries);
  CooMatrix merged;
  merged.rows = entries.rows;
  merged.cols = entries.cols;
  merged.row_indices.reserve(order.size());
  merged.col_indices.reserve(order.size());
  merged.values.reserve(order.size());
  std::int64_t first_duplicate_line = -1;
  std::size_t group_start = 0;
  while (group_start < order.size()) {
    const std::size_t first = order[group_start];
    double sum = entries.values[first];
    std::size_t group_end = group_start + 1;
    while (group_end < order.size() &&
           entries.row_indices[order[group_end]] == entries.row_indices[first] &&
           entries.col_indices[order[group_end]] == entries.col_indices[first]) {
      sum += entries.values[order[group_end]];
      ++group_end;
    }
    if (group_end - group_start > 1) {
      // The sort is stable, so the group's second element is the first repetition in the file.
      const std::int64_t repeat_line = raw.line[order[group_start + 1]];
      if (first_duplicate_line < 0 || repeat_line < first_duplicate_line) {
        first_duplicate_line = repeat_line;
      }
      if (std::fabs(sum) > static_cast<double>(std::numeric_limits<float>::max())) {
        reader.fail(static_cast<long>(raw.line[order[group_end - 1]]),
                    "the sum of the duplicate entries at (" +
                        std::to_string(entries.row_indices[first] + 1) + ", " +
                        std::to_string(entries.col_indices[first] + 1) + ") does not fit a float");
      }
    }
    merged.row_indices.push_back(entries.row_indices[first]);
    merged.col_indices.push_back(entries.col_indices[first]);
    merged.values.push_back(static_cast<float>(sum));
    group_start = group_end;
  }
  if (duplicates == DuplicatePolicy::Error && first_duplicate_line >= 0) {
    reader.fail(static_cast<long>(first_duplicate_line),
                "duplicate entry: this position was already given on an earlier line "
                "(duplicates are refused by DuplicatePolicy::Error)");
  }
  return merged;
}

/// A read-only stream buffer over zlib's gzFile (plain files are read through unchanged).
class GzipStreamBuffer : public std::streambuf {
 public:
  explicit GzipStreamBuffer(gzFile file) : file_(file) {}

  /// Empty when the data was read without error, else what went wrong.
  const std::string& error() const { return error_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) {
      return traits_type::to_int_type(*gptr());
    }
    if (!error_.empty()) {
      return traits_type::eof();
    }
    const int count = gzread(file_, buffer_, sizeof(buffer_));
    if (count <= 0) {
      int code = Z_OK;
      const char* message = gzerror(file_, &code);
      if (count < 0 || (code != Z_OK && code != Z_STREAM_END)) {
        error_ = std::string("read error: ") + (message != nullptr ? message : "unknown");
      }
      return traits_type::eof();
    }
    setg(buffer_, buffer_, buffer_ + count);
    return traits_type::to_int_type(*gptr());
  }

 private:
  gzFile file_;
  std::string error_;
  char buffer_[1 << 16];
};

/// Closes a gzFile when it goes out of scope.
struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};

/// Where write_matrix_market sends its text: a plain or a gzip-compressed file.
class TextSink {
 public:
  TextSink(const std::string& path, bool compress) : path_(path) {
    if (compress) {
      gz_ = gzopen(path.c_str(), "wb");
    } else {
      plain_ = std::fopen(path.c_str(), "wb");
    }
    if (gz_ == nullptr && plain_ == nullptr) {
      throw std::runtime_error("cannot open " + path + " for writing: " + std::strerror(errno));
    }
    buffer_.reserve(kFlushBytes + 128);
  }
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;
  ~TextSink() {
    if (gz_ != nullptr) {
      gzclose(gz_);
    }
    if (plain_ != nullptr) {
      std::fclose(plain_);
    }
  }

  void append(const char* text, std::size_t length) {
    buffer_.append(text, length);
    if (buffer_.size() >= kFlushBytes) {
      flush();
    }
  }

  /// Writes what is buffered and closes the file; throws if anything failed.
  void close() {
    flush();
    bool closed = true;
    if (gz_ != nullptr) {
      closed = gzclose(gz_) == Z_OK;
      gz_ = nullptr;
    }
    if (plain_ != nullptr) {
      closed = std::fclose(plain_) == 0;
      plain_ = nullptr;
    }
    if (!closed) {
      throw std::runtime_error("cannot finish writing " + path_);
    }
  }

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

  void flush() {
    if (buffer_.empty()) {
      return;
    }
    const bool written =
        gz_ != nullptr ? gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) ==
                             static_cast<int>(buffer_.size())
                       : std::fwrite(buffer_.data(), 1, buffer_.size(), plain_) == buffer_.size();
    if (!written) {
      throw std::runtime_error("cannot write " + path_);
    }
    buffer_.clear();
  }

  std::string path_;
  gzFile gz_ = nullptr;
  std::FILE* plain_ = nullptr;
  std::string buffer_;
};

/// Turns a stream's exceptions off for its lifetime and restores the caller's mask after.
class StreamExceptionsOff {
 public:
  explicit StreamExceptionsOff(std::istream& in) : in_(in), saved_(in.exceptions()) {
    in_.exceptions(std::ios::goodbit);
  }
  StreamExceptionsOff(const StreamExceptionsOff&) = delete;
  StreamExceptionsOff& operator=(const StreamExceptionsOff&) = delete;
  ~StreamExceptionsOff() {
    try {
      in_.exceptions(saved_);
    } catch (const std::ios_base::failure&) {
      // The mask is restored, but one matching the stream's state (eof after parsing) also
      // throws at once; a destructor must not let that out.
    }
  }

 private:
  std::istream& in_;
  std::ios::iostate saved_;
};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

CooMatrix parse_matrix_market(std::istream& in, const std::string& name_for_errors,
                              DuplicatePolicy duplicates) {
  // The end of the input is normal here: a caller's stream that throws on eof/fail would turn
  // it into std::ios_base::failure, so stream exceptions are off while parsing.
  const StreamExceptionsOff quiet_stream(in);
  LineReader reader(in, name_for_errors);
  const Header header = parse_header(reader);
  const SizeLine size = parse_size_line(reader, header);
  RawEntries raw;
  raw.matrix.rows = static_cast<int>(size.rows);
  raw.matrix.cols = static_cast<int>(size.cols);
  read_entries(reader, header, size, raw);
  return sort_and_merge(raw, duplicates, reader);
}

CooMatrix read_matrix_market(const std::string& path, DuplicatePolicy duplicates) {
  std::unique_ptr<gzFile_s, GzCloser> file(gzopen(path.c_str(), "rb"));
  if (!file) {
    throw MatrixMarketError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  gzbuffer(file.get(), 1 << 18);
  GzipStreamBuffer buffer(file.get());
  std::istream in(&buffer);
  try {
    CooMatrix matrix = parse_matrix_market(in, path, duplicates);
    if (!buffer.error().empty()) {
      throw MatrixMarketError(path, 0, buffer.error());
    }
    return matrix;
  } catch (const MatrixMarketError&) {
    // A damaged gzip stream ends the text early; report that rather than its symptom.
    if (!buffer.error().empty()) {
      throw MatrixMarketError(path, 0, buffer.error());
    }
    throw;
  }
}

void write_matrix_market(const std::string& path, const CooMatrix& matrix, bool pattern) {
  validate(matrix);
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    if (!pattern && !std::isfinite(matrix.values[entry])) {
      throw std::invalid_argument("entry " + std::to_string(entry) +
                                  " has a value that is not finite; Matrix Market readers "
                                  "(this one included) refuse it");
    }
  }
  TextSink sink(path, ends_with(path, ".gz"));
  char text[96];
  int length = std::snprintf(text, sizeof(text), "%%%%MatrixMarket matrix coordinate %s general\n",
                             pattern ? "pattern" : "real");
  sink.append(text, static_cast<std::size_t>(length));
  length = std::snprintf(text, sizeof(text), "%d %d %zu\n", matrix.rows, matrix.cols, matrix.nnz());
  sink.append(text, static_cast<std::size_t>(length));
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    // 1-based indices; %.9g prints every float so that it reads back bit for bit.
    length = pattern ? std::snprintf(text, sizeof(text), "%d %d\n", matrix.row_indices[entry] + 1,
                                     matrix.col_indices[entry] + 1)
                     : std::snprintf(text, sizeof(text), "%d %d %.9g\n",
                                     matrix.row_indices[entry] + 1, matrix.col_indices[entry] + 1,
                                     static_cast<double>(matrix.values[entry]));
    sink.append(text, static_cast<std::size_t>(length));
  }
  sink.close();
}

}  // namespace course
