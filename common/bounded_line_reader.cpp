/// @file bounded_line_reader.cpp
/// @brief Lines of a text input within limits (see bounded_line_reader.hpp).
#include "common/bounded_line_reader.hpp"

#include <cstring>
#include <utility>

namespace course {
namespace {

/// The UTF-8 byte-order mark some editors put at the start of a text file.
constexpr const char* kUtf8ByteOrderMark = "\xEF\xBB\xBF";

bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string mib(std::uint64_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

}  // namespace

BoundedLineReader::BoundedLineReader(std::istream& in, std::string name, const TextLimits& limits)
    : in_(in), name_(std::move(name)), limits_(limits) {}

void BoundedLineReader::fail(long line, const std::string& problem) const {
  throw TextInputError(name_, line, problem);
}

void BoundedLineReader::set_content_limit(std::uint64_t max_bytes, const std::string& reason) {
  limits_.max_content_bytes = max_bytes;
  content_reason_ = reason;
}

bool BoundedLineReader::read_line() {
  line_.clear();
  line_bytes_ = 0;
  // The line comes in chunks, so that its length is checked as it grows: a huge line is
  // refused after max_line_bytes, without reading the rest of it.
  for (;;) {
    in_.getline(chunk_, sizeof(chunk_));
    const auto read = static_cast<std::size_t>(in_.gcount());
    line_bytes_ += read;
    if (in_.bad()) {
      fail(line_number_ + 1, "read error");
    }
    if (!in_.fail()) {
      // Ended by a newline (counted by gcount, not stored) or by the end of the input.
      line_.append(chunk_, in_.eof() ? read : read - 1);
      break;
    }
    if (in_.eof()) {
      if (line_.empty()) {
        return false;  // the end of the input
      }
      break;  // the last line ended exactly at the end of a chunk
    }
    line_.append(chunk_, read);  // the chunk is full: the line goes on
    if (line_.size() > limits_.max_line_bytes) {
      break;
    }
    in_.clear();
  }
  if (line_.size() > limits_.max_line_bytes) {
    fail(line_number_ + 1, "line is longer than " + std::to_string(limits_.max_line_bytes) +
                               " bytes (the limit of this reader)");
  }
  ++line_number_;
  if (line_number_ == 1 && line_.rfind(kUtf8ByteOrderMark, 0) == 0) {
    line_.erase(0, std::strlen(kUtf8ByteOrderMark));  // written by some editors; harmless
  }
  return true;
}

bool BoundedLineReader::is_skipped_line() const {
  for (const char c : line_) {
    if (!is_blank_char(c)) {
      return c == limits_.comment_marker;
    }
  }
  return true;  // blank
}

void BoundedLineReader::count_content() {
  content_bytes_ += line_bytes_;
  if (content_bytes_ > limits_.max_content_bytes) {
    fail("the lines other than comments hold more than " + mib(limits_.max_content_bytes) + ", " +
         content_reason_);
  }
}

bool BoundedLineReader::next() {
  if (!read_line()) {
    return false;
  }
  count_content();
  return true;
}

bool BoundedLineReader::next_content_line() {
  while (read_line()) {
    if (!is_skipped_line()) {
      count_content();
      return true;
    }
    ++skipped_lines_;
    skipped_bytes_ += line_bytes_;
    if (skipped_lines_ > limits_.max_skipped_lines) {
      fail("more than " + std::to_string(limits_.max_skipped_lines) +
           " comment or blank lines (the limit of this reader)");
    }
    if (skipped_bytes_ > limits_.max_skipped_bytes) {
      fail("the comment and blank lines hold more than " + mib(limits_.max_skipped_bytes) +
           ", the limit of this reader");
    }
  }
  return false;
}

BoundedTextFile::BoundedTextFile(const std::string& path, const TextLimits& limits)
    : path_(path), buffer_(std::make_unique<CompressedReadBuffer>(path)) {
  if (!buffer_->is_open()) {
    throw TextInputError(path, 0, "cannot open: " + buffer_->open_error());
  }
  stream_ = std::make_unique<std::istream>(buffer_.get());
  lines_ = std::make_unique<BoundedLineReader>(*stream_, path, limits);
}

void BoundedTextFile::check_stream() const {
  if (!buffer_->error().empty()) {
    throw TextInputError(path_, 0, buffer_->error());
  }
}

}  // namespace course
