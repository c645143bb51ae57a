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

TextSink::TextSink(const std::string& path, bool compress) : file_(path) {
  if (compress) {
    // zlib gets a duplicate of the descriptor and closes that one; file_ keeps its own to
    // flush the data to the disk before the rename.
    const int duplicate = ::dup(file_.descriptor());
    gz_ = duplicate < 0 ? nullptr : gzdopen(duplicate, "wb");
    if (gz_ == nullptr) {
      if (duplicate >= 0) {
        ::close(duplicate);
      }
      throw std::runtime_error("cannot write " + path +
                               ": zlib cannot start (out of memory or "
                               "descriptors)");
    }
  }
  buffer_.reserve(kFlushBytes + 128);
}

TextSink::~TextSink() {
  if (gz_ != nullptr) {
    gzclose(gz_);
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
  if (gz_ != nullptr) {
    const int status = gzclose(gz_);
    gz_ = nullptr;
    if (status != Z_OK) {
      throw std::runtime_error("cannot write " + file_.path() + ": compressing failed (" +
                               (status == Z_ERRNO ? std::strerror(errno) : "zlib error") +
                               "); nothing was written there");
    }
  }
  file_.commit();
}

void TextSink::flush() {
  if (buffer_.empty()) {
    return;
  }
  if (gz_ != nullptr) {
    if (gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) !=
        static_cast<int>(buffer_.size())) {
      int code = Z_OK;
      const char* message = gzerror(gz_, &code);
      throw std::runtime_error("cannot write " + file_.path() + ": " +
                               (code == Z_ERRNO ? std::strerror(errno) : message) +
                               "; nothing was written there");
    }
  } else {
    file_.write(buffer_.data(), buffer_.size());
  }
  buffer_.clear();
}

}  // namespace course
