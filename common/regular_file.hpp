/// @file regular_file.hpp
/// @brief Input files are regular files: a FIFO, a device, a socket or a folder is refused at
/// once, by name, before anything waits on it or reads from it.
///
/// Opening a FIFO that has no writer blocks in open() forever, and /dev/zero never ends, so
/// every reader of the course opens its input through open_regular_file(): it opens without
/// blocking (O_NONBLOCK), asks the opened file what it is (fstat), refuses anything but a
/// regular file, and only then hands the descriptor back for reading.
#pragma once

#include <stdexcept>
#include <string>

namespace course {

/// @brief An input path that cannot be read: missing, unreadable, or not a regular file.
/// what() names the path and the problem ("/tmp/p: a FIFO (named pipe), not a regular file").
class InputFileError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param path the path given
  /// @param problem what is wrong with it
  InputFileError(const std::string& path, const std::string& problem)
      : std::runtime_error(path + ": " + problem), problem_(problem) {}

  /// @brief The problem without the path, e.g. "a FIFO (named pipe), not a regular file".
  /// @return the text
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

/// @brief What a file is when it is not a regular file, from its stat mode: "a FIFO (named
/// pipe)", "a character device", "a block device", "a socket", "a folder"; empty for a
/// regular file.
/// @param mode st_mode of the file
/// @return the kind, or an empty string
std::string non_regular_kind(unsigned mode);

/// @brief Checks, without opening it (stat only, which never blocks), that @p path names an
/// existing regular file; throws InputFileError naming the problem otherwise. For command
/// lines: an input file is refused when it is parsed, before any work.
/// @param path the path
void require_regular_file(const std::string& path);

/// @brief Opens @p path for reading without ever blocking and returns the descriptor (in
/// blocking mode again, ready for read() or gzdopen()). Throws InputFileError for a missing
/// or unreadable path, and for anything but a regular file, naming what it is.
/// @param path the file
/// @return an open file descriptor the caller must close
int open_regular_file(const std::string& path);

}  // namespace course
