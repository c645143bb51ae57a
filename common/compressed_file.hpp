/// @file compressed_file.hpp
/// @brief Plain or gzip-compressed text files, read and written through bounded buffers.
///
/// The Matrix Market reader and writer use these so that the format code never sees zlib:
/// a `.gz` file is read through a fixed 64 KiB buffer (plus zlib's own 256 KiB), whatever
/// the size of the file or of its lines, and written in 1 MiB chunks.
#pragma once

#include "common/output_file.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <streambuf>
#include <string>

struct gzFile_s;

namespace course {

/// @brief A read-only stream buffer over a file opened with zlib: a gzip file is
/// decompressed, any other file is read as it is. Wrap it in a std::istream.
class CompressedReadBuffer : public std::streambuf {
 public:
  /// @brief Opens @p path; check is_open() (and open_error()) before reading. Only a
  /// regular file is opened: a FIFO, device, socket or folder is refused at once (see
  /// file_checks.hpp), never waited on.
  /// @param path file to read
  explicit CompressedReadBuffer(const std::string& path);
  ~CompressedReadBuffer() override;
  CompressedReadBuffer(const CompressedReadBuffer&) = delete;
  CompressedReadBuffer& operator=(const CompressedReadBuffer&) = delete;

  /// @brief Whether the file could be opened.
  /// @return true when it is open
  bool is_open() const { return file_ != nullptr; }

  /// @brief Why the file could not be opened (the system's message, or what the path is when
  /// it is not a regular file: "a FIFO (named pipe), not a regular file ...").
  /// @return the message, empty when it is open
  const std::string& open_error() const { return open_error_; }

  /// @brief Empty when the data was read without error, else what went wrong, in words: a
  /// truncated or damaged gzip file, or one that expands more than kMaxExpansion times (a
  /// decompression bomb: "1 1" repeated compresses about 1000 to 1) ends the text early, and
  /// this says why.
  /// @return the message
  const std::string& error() const { return error_; }

 protected:
  /// @brief Refills the buffer from the file.
  /// @return the next character, or eof at the end or after an error
  int_type underflow() override;

 public:
  /// @brief Largest ratio of text to compressed bytes accepted: real Matrix Market files
  /// expand 3 to 10 times, a decompression bomb about 1000 times.
  static constexpr std::uint64_t kMaxExpansion = 100;
  /// @brief Text read before the ratio is checked (a file's first bytes may pack well).
  static constexpr std::uint64_t kExpansionCheckBytes = std::uint64_t{2} << 20;

 private:
  static std::string describe_read_error(int code, const char* message);
  bool expands_like_a_bomb();

  static constexpr std::size_t kBufferBytes = std::size_t{1} << 16;
  std::uint64_t text_bytes_ = 0;
  gzFile_s* file_ = nullptr;
  std::string open_error_;
  std::string error_;
  char buffer_[kBufferBytes];
};

/// @brief A text file being written, plain or gzip-compressed, through a 1 MiB buffer. It is
/// written whole or not at all (OutputFile in output_file.hpp): until close() it lives under
/// a temporary name, and a sink destroyed before close() leaves nothing behind.
class TextSink {
 public:
  /// @brief Opens @p path for writing; throws std::runtime_error when it cannot.
  /// @param path file to write
  /// @param compress write gzip
  TextSink(const std::string& path, bool compress);
  ~TextSink();
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;

  /// @brief Appends @p length bytes of @p text.
  /// @param text the bytes
  /// @param length how many
  void append(const char* text, std::size_t length);

  /// @brief Writes what is buffered, closes the file and puts it in place; throws (naming
  /// the file and the reason) if anything failed.
  void close();

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
  void flush();

  OutputFile file_;
  gzFile_s* gz_ = nullptr;  // compresses into a duplicate of file_'s descriptor
  std::string buffer_;
};

}  // namespace course
