/// @file file_checks.hpp
/// @brief Checks on the files a program is given, made before any work: an input must be a
/// regular file (a FIFO with no writer would block a reader forever, /dev/zero would never
/// end), an output must go to an existing, writable folder (a missing folder found only after
/// a long benchmark wastes the run).
#pragma once

#include <stdexcept>
#include <string>

namespace course {

/// @brief An input file that cannot be opened for reading: missing, unreadable, or not a
/// regular file. what() names the path and the problem.
class InputFileError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param path the path given
  /// @param problem what is wrong with it ("a FIFO (named pipe), not a regular file ...")
  InputFileError(const std::string& path, const std::string& problem)
      : std::runtime_error(path + ": " + problem), problem_(problem) {}

  /// @brief The problem without the path.
  /// @return the text
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

/// @brief What kind of file system entry @p path is, in words, when it is not a regular file.
/// @param path the path
/// @return "" for a regular file; otherwise e.g. "a FIFO (named pipe)", "a character
/// device", "a block device", "a socket", "a folder", "missing" or "unreadable (<reason>)"
std::string non_regular_kind(const std::string& path);

/// @brief Throws std::invalid_argument unless @p path is a regular file that can be read.
/// The message names @p what, the path and what it is instead ("--matrix: /tmp/p is a FIFO
/// (named pipe), not a regular file").
/// @param what the option or role of the file, for the message
/// @param path the path
void require_input_file(const std::string& what, const std::string& path);

/// @brief Throws std::invalid_argument unless @p path is a folder that can be listed.
/// @param what the option or role of the folder, for the message
/// @param path the path
void require_input_folder(const std::string& what, const std::string& path);

/// @brief Opens @p path for reading without ever blocking, and returns the descriptor (in
/// blocking mode again, ready for read() or gzdopen()). The check on the command line
/// (require_input_file) comes first, but the file may have changed since, and a reader may
/// be given a path from elsewhere (a folder's listing): so the file that is opened is asked
/// what it is (fstat) before anything reads from it. Opening a FIFO without a writer would
/// otherwise wait forever (O_NONBLOCK prevents it), and a device such as /dev/zero never ends.
/// @param path the file
/// @return an open file descriptor the caller must close
/// @throws InputFileError for a missing or unreadable path, and for anything but a regular
/// file, naming what it is
int open_regular_file(const std::string& path);

/// @brief Throws std::invalid_argument unless a file can be written at @p path: its folder
/// exists and is writable, and the path itself is absent, a regular file or a symbolic link
/// (which the writer replaces, never follows: output_file.hpp).
/// @param what the option or role of the file, for the message
/// @param path the path
void require_output_file(const std::string& what, const std::string& path);

/// @brief Throws std::invalid_argument unless @p path is an existing folder that can be
/// written into.
/// @param what the option or role of the folder, for the message
/// @param path the path
void require_output_folder(const std::string& what, const std::string& path);

/// @brief Which file a path names, as a key to compare: for an input, the file it reaches
/// (links followed: its device and inode); for an output, the entry it would replace (the
/// file itself when it exists and is no link, otherwise its folder's device and inode and
/// its name). Two paths name the same file when their keys are equal.
/// @param path the path
/// @param output true for a file to be written, false for one to be read
/// @return the key, or "" when the path (or its folder) cannot be examined
std::string file_identity(const std::string& path, bool output);

}  // namespace course
