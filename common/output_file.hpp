/// @file output_file.hpp
/// @brief Files written whole or not at all: every program writes its outputs (tables, masks,
/// pictures) through a temporary file in the destination's folder, renamed over the
/// destination once everything was written and flushed.
///
/// What a user sees:
/// - a full disk, a crash or an error half-way leaves the earlier file (or none), never a
///   truncated one; the message names the file and the reason ("No space left on device");
/// - a symbolic link at the destination is replaced by the new file: the file it pointed to
///   (or the missing one, for a dangling link) is never written through it;
/// - the new file's permissions are the usual ones (0666 less the umask).
#pragma once

#include <string>

namespace course {

/// @brief A file being written to a temporary name beside its destination; commit() renames
/// it to the destination, and destroying it uncommitted removes it.
class OutputFile {
 public:
  /// @brief Creates the temporary file in the folder of @p path; throws std::runtime_error
  /// naming @p path and the reason when it cannot.
  /// @param path the destination
  explicit OutputFile(std::string path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// @brief The open descriptor of the temporary file (for zlib's gzdopen). After
  /// release_descriptor() the caller closes it.
  /// @return the descriptor
  int descriptor() const { return descriptor_; }

  /// @brief Gives the descriptor to the caller (who closes it, e.g. through gzclose) before
  /// commit().
  void release_descriptor() { descriptor_ = -1; }

  /// @brief Appends @p length bytes; throws std::runtime_error naming the destination and
  /// the reason when the system refuses them.
  /// @param data the bytes
  /// @param length how many
  void write(const char* data, std::size_t length);

  /// @brief Flushes the temporary file to the disk, closes it (unless released) and renames
  /// it to the destination; throws std::runtime_error naming the reason when any step fails
  /// (the temporary file is then removed).
  void commit();

  /// @brief The destination.
  /// @return the path given to the constructor
  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void fail(const std::string& what, int error_number);

  std::string path_;
  std::string temporary_;
  int descriptor_ = -1;
  bool committed_ = false;
};

/// @brief Writes @p text to @p path whole or not at all (see OutputFile).
/// @param path the destination
/// @param text the bytes to write
void write_output_file(const std::string& path, const std::string& text);

}  // namespace course
