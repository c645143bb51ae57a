/// @file compressed_file.cpp
/// @brief Reading and writing plain or gzip text files through zlib.
#include "common/compressed_file.hpp"

#include "common/file_checks.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
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

std::string CompressedReadBuffer::describe_read_error(int code, const char* message) {
  if (code == Z_BUF_ERROR) {  // zlib's "unexpected end of file"
    return "the gzip data ends before its end marker: the file is truncated (an interrupted "
           "download or copy?); fetch it again";
  }
  if (code == Z_DATA_ERROR) {
    std::string detail = message != nullptr ? message : "";
    // zlib names a file it was given by descriptor "<fd:N>": say nothing of that.
    if (detail.rfind("<fd:", 0) == 0 && detail.find(": ") != std::string::npos) {
      detail = detail.substr(detail.find(": ") + 2);
    }
    return "the gzip data is damaged (" + detail + "); fetch the file again";
  }
  if (code == Z_ERRNO) {
    return std::string("reading the file failed: ") + std::strerror(errno);
  }
  return std::string("read error: ") + (message != nullptr ? message : "unknown");
}

bool CompressedReadBuffer::expands_like_a_bomb() {
  if (text_bytes_ < kExpansionCheckBytes || gzdirect(file_) != 0) {
    return false;
  }
  // gzoffset counts the compressed bytes used so far (not those still buffered).
  const auto compressed = static_cast<std::uint64_t>(std::max<z_off_t>(gzoffset(file_), 1));
  if (text_bytes_ <= kMaxExpansion * compressed) {
    return false;
  }
  error_ = "the gzip data expands more than " + std::to_string(kMaxExpansion) + " times (" +
           std::to_string(text_bytes_ >> 20) + " MiB of text from " +
           std::to_string(compressed >> 10) +
           " KiB so far; Matrix Market files expand 3 to "
           "10 times): refused as a decompression bomb";
  return true;
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
      error_ = describe_read_error(code, message);
    }
    return traits_type::eof();
  }
  text_bytes_ += static_cast<std::uint64_t>(count);
  if (expands_like_a_bomb()) {
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
