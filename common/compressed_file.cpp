/// @file compressed_file.cpp
/// @brief Reading and writing plain or gzip text files through zlib.
#include "common/compressed_file.hpp"

#include "common/file_checks.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace course {

CompressedReadBuffer::CompressedReadBuffer(const std::string& path) {
  // Opened by open_regular_file, not gzopen: gzopen on a FIFO without a writer blocks in
  // open() forever, and a device such as /dev/zero never ends. Those are refused here.
  int descriptor = -1;
  try {
    descriptor = open_regular_file(path);
  } catch (const InputFileError& error) {
    open_error_ = error.problem();
    return;
  }
  file_ = gzdopen(descriptor, "rb");
  if (file_ == nullptr) {
    open_error_ = "zlib cannot read it (out of memory)";
    ::close(descriptor);
    return;
  }
  gzbuffer(file_, 1 << 18);
}

CompressedReadBuffer::~CompressedReadBuffer() {
  if (file_ != nullptr) {
    gzclose(file_);
  }
}

CompressedReadBuffer::int_type CompressedReadBuffer::underflow() {
  if (gptr() < egptr()) {
    return traits_type::to_int_type(*gptr());
  }
  if (!error_.empty() || file_ == nullptr) {
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

TextSink::TextSink(const std::string& path, bool compress) : path_(path) {
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

TextSink::~TextSink() {
  if (gz_ != nullptr) {
    gzclose(gz_);
  }
  if (plain_ != nullptr) {
    std::fclose(plain_);
  }
}

void TextSink::append(const char* text, std::size_t length) {
  buffer_.append(text, length);
  if (buffer_.size() >= kFlushBytes) {
    flush();
  }
}

void TextSink::close() {
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

void TextSink::flush() {
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

}  // namespace course
