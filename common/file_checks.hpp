/// @file file_checks.hpp
/// @brief Checks on the files a program is given, made before any work: an input must be a
/// regular file (a FIFO with no writer would block a reader forever, /dev/zero would never
/// end), an output must go to an existing, writable folder (a missing folder found only after
/// a long benchmark wastes the run).
#pragma once

#include <string>

namespace course {

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

/// @brief Throws std::invalid_argument unless a file can be written at @p path: its folder
/// exists and is writable, and the path itself is either absent or a regular file.
/// @param what the option or role of the file, for the message
/// @param path the path
void require_output_file(const std::string& what, const std::string& path);

}  // namespace course
