/// @file file_checks.cpp
/// @brief Checks on input and output paths (see file_checks.hpp).

#include "common/file_checks.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace course {
namespace {

std::string kind_of_mode(mode_t mode) {
  if (S_ISREG(mode)) {
    return "";
  }
  if (S_ISDIR(mode)) {
    return "a folder";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO (named pipe)";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a regular file";
}

// The folder part of a path: "out/x.csv" -> "out", "x.csv" -> ".", "/x" -> "/".
std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) {
    return ".";
  }
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string refusal(const std::string& kind) {
  return kind + ", not a regular file (only regular files are read as input)";
}

// Closes @p descriptor and throws: used once the opened file turned out to be unusable.
[[noreturn]] void close_and_refuse(int descriptor, const std::string& path,
                                   const std::string& problem) {
  ::close(descriptor);
  throw InputFileError(path, problem);
}

}  // namespace

std::string non_regular_kind(const std::string& path) {
  struct stat info {};
  // stat() follows links and never opens the file, so a FIFO is named, not waited on.
  if (::stat(path.c_str(), &info) != 0) {
    return errno == ENOENT ? "missing" : "unreadable (" + std::string(std::strerror(errno)) + ")";
  }
  return kind_of_mode(info.st_mode);
}

void require_input_file(const std::string& what, const std::string& path) {
  const std::string kind = non_regular_kind(path);
  if (kind == "missing") {
    throw std::invalid_argument(what + ": " + path + " does not exist");
  }
  if (!kind.empty()) {
    throw std::invalid_argument(what + ": " + path + " is " + kind +
                                ", not a regular file (give a file to read)");
  }
  if (::access(path.c_str(), R_OK) != 0) {
    throw std::invalid_argument(what + ": " + path + " cannot be read (" + std::strerror(errno) +
                                ")");
  }
}

void require_input_folder(const std::string& what, const std::string& path) {
  const std::string kind = non_regular_kind(path);
  if (kind == "missing") {
    throw std::invalid_argument(what + ": folder " + path + " does not exist");
  }
  if (kind != "a folder") {
    throw std::invalid_argument(what + ": " + path + " is " +
                                (kind.empty() ? std::string("a regular file") : kind) +
                                ", not a folder");
  }
  if (::access(path.c_str(), R_OK | X_OK) != 0) {
    throw std::invalid_argument(what + ": folder " + path + " cannot be listed (" +
                                std::strerror(errno) + ")");
  }
}

int open_regular_file(const std::string& path) {
  // O_NONBLOCK: open() on a FIFO without a writer would otherwise wait for one forever.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (descriptor < 0) {
    const int open_errno = errno;
    // A socket cannot be opened at all (ENXIO): name it from stat, which never blocks.
    const std::string kind = non_regular_kind(path);
    if (!kind.empty() && kind != "missing" && kind.rfind("unreadable", 0) != 0) {
      throw InputFileError(path, refusal(kind));
    }
    throw InputFileError(path, std::strerror(open_errno));
  }
  struct stat info {};
  if (::fstat(descriptor, &info) != 0) {
    close_and_refuse(descriptor, path, std::string("cannot examine it: ") + std::strerror(errno));
  }
  const std::string kind = kind_of_mode(info.st_mode);
  if (!kind.empty()) {
    close_and_refuse(descriptor, path, refusal(kind));
  }
  // Back to blocking reads: a regular file never blocks anyway, and zlib expects them.
  if (::fcntl(descriptor, F_SETFL, 0) != 0) {
    close_and_refuse(descriptor, path, std::string("cannot read it: ") + std::strerror(errno));
  }
  return descriptor;
}

void require_output_folder(const std::string& what, const std::string& path) {
  const std::string kind = non_regular_kind(path);
  if (kind == "missing") {
    throw std::invalid_argument(what + ": the folder " + path +
                                " does not exist (create it "
                                "first)");
  }
  if (kind != "a folder") {
    throw std::invalid_argument(what + ": " + path + " is " +
                                (kind.empty() ? std::string("a regular file") : kind) +
                                ", not a folder");
  }
  if (::access(path.c_str(), W_OK | X_OK) != 0) {
    throw std::invalid_argument(what + ": cannot write into the folder " + path + " (" +
                                std::strerror(errno) + ")");
  }
}

std::string file_identity(const std::string& path, bool output) {
  struct stat info {};
  const auto key = [](const struct stat& entry) {
    return std::to_string(entry.st_dev) + ":" + std::to_string(entry.st_ino);
  };
  if (!output) {
    return ::stat(path.c_str(), &info) == 0 ? key(info) : std::string();
  }
  if (::lstat(path.c_str(), &info) == 0 && !S_ISLNK(info.st_mode)) {
    return key(info);
  }
  const std::size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (::stat(folder_of(path).c_str(), &info) != 0) {
    return "";
  }
  return key(info) + "/" + name;
}

void require_output_file(const std::string& what, const std::string& path) {
  const std::string folder = folder_of(path);
  const std::string folder_kind = non_regular_kind(folder);
  if (folder_kind == "missing") {
    throw std::invalid_argument(what + ": the folder " + folder + " of " + path +
                                " does not exist (create it first)");
  }
  if (folder_kind != "a folder") {
    throw std::invalid_argument(
        what + ": " + folder + " (the folder of " + path + ") is " +
        (folder_kind.empty() ? std::string("a regular file") : folder_kind));
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw std::invalid_argument(what + ": cannot write into the folder " + folder + " (" +
                                std::strerror(errno) + ")");
  }
  struct stat link_info {};
  if (::lstat(path.c_str(), &link_info) == 0 && S_ISLNK(link_info.st_mode)) {
    return;  // the link is replaced by the new file, never written through
  }
  const std::string kind = non_regular_kind(path);
  if (kind != "missing" && !kind.empty()) {
    throw std::invalid_argument(what + ": " + path + " is " + kind +
                                ", not a regular file (give a file name to write)");
  }
}

}  // namespace course
