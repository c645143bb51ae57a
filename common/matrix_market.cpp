/// @file matrix_market.cpp
/// @brief Matrix Market coordinate reader (plain or gzip) and writer.
///
/// The parser reads one line at a time and checks every field before using it, so no input
/// can make it index out of range, loop forever or allocate more than a bounded amount ahead
/// of the data it has actually seen.
#include "common/matrix_market.hpp"

#include "common/compressed_file.hpp"
#include "common/matrix_market_lines.hpp"
#include "common/progress.hpp"

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
#include <iostream>
#include <limits>
#include <memory>
#include <streambuf>
#include <string_view>
#include <system_error>
#include <vector>

namespace course {

namespace {

using namespace matrix_market_lines;

/// Most entries reserved ahead of reading them: a size line may lie about the count.
constexpr std::size_t kMaxReservedEntries = std::size_t{1} << 20;

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
  ProgressMeter progress("reading " + reader.name(), static_cast<std::uint64_t>(size.entries),
                         "entries");
  while (reader.next_data_line()) {
    progress.update(static_cast<std::uint64_t>(found));
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
  progress.finish(static_cast<std::uint64_t>(found));
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
  std::size_t repeated_positions = 0;
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
      ++repeated_positions;
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
  if (repeated_positions > 0) {
    // Summing is what most readers do, but a file with many repeats is usually broken: say
    // how much was merged, so that a matrix far smaller than its size line is no surprise.
    const std::size_t repeats = order.size() - merged.nnz();
    std::cerr << "warning: " << reader.name() << ": " << repeats
              << (repeats == 1 ? " entry repeats" : " entries repeat") << " the position of "
              << (repeats == 1 ? "an earlier one" : "earlier ones") << " (" << repeated_positions
              << (repeated_positions == 1 ? " position" : " positions")
              << ", the first repeat at line " << first_duplicate_line
              << "); the values were summed: " << merged.nnz() << " of " << order.size()
              << " entries remain\n";
  }
  return merged;
}

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
  CompressedReadBuffer buffer(path);
  if (!buffer.is_open()) {
    throw MatrixMarketError(path, 0, "cannot open: " + buffer.open_error());
  }
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

MatrixMarketSize read_matrix_market_size(const std::string& path) {
  CompressedReadBuffer buffer(path);
  if (!buffer.is_open()) {
    throw MatrixMarketError(path, 0, "cannot open: " + buffer.open_error());
  }
  std::istream in(&buffer);
  LineReader reader(in, path);
  try {
    const Header header = parse_header(reader);
    const SizeLine size = parse_size_line(reader, header);
    return {size.rows, size.cols, size.entries, header.symmetric};
  } catch (const MatrixMarketError&) {
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
  ProgressMeter progress("writing " + path, matrix.nnz(), "entries");
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    progress.update(entry);
    // 1-based indices; %.9g prints every float so that it reads back bit for bit.
    length = pattern ? std::snprintf(text, sizeof(text), "%d %d\n", matrix.row_indices[entry] + 1,
                                     matrix.col_indices[entry] + 1)
                     : std::snprintf(text, sizeof(text), "%d %d %.9g\n",
                                     matrix.row_indices[entry] + 1, matrix.col_indices[entry] + 1,
                                     static_cast<double>(matrix.values[entry]));
    sink.append(text, static_cast<std::size_t>(length));
  }
  sink.close();
  progress.finish(matrix.nnz());
}

}  // namespace course
