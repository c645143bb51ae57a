/// @file regular_file.cpp
/// @brief Opening input files without blocking, refusing what is not a regular file.
#include "common/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace course {
namespace {

std::string refusal(const std::string& kind) {
  return kind + ", not a regular file (only regular files are read as input)";
}

}  // namespace

std::string non_regular_kind(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return "";
    case S_IFIFO:
      return "a FIFO (named pipe)";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFSOCK:
      return "a socket";
    case S_IFDIR:
      return "a folder";
    default:
      return "not a file of a known kind";
  }
}

void require_regular_file(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    throw InputFileError(path, std::strerror(errno));
  }
  const std::string kind = non_regular_kind(status.st_mode);
  if (!kind.empty()) {
    throw InputFileError(path, refusal(kind));
  }
}

int open_regular_file(const std::string& path) {
  // O_NONBLOCK: open() on a FIFO without a writer would otherwise wait for one forever.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (descriptor < 0) {
    const int open_errno = errno;
    struct stat status {};
    // A socket cannot be opened at all (ENXIO): name it from stat, which never blocks.
    if (::stat(path.c_str(), &status) == 0 && !non_regular_kind(status.st_mode).empty()) {
      throw InputFileError(path, refusal(non_regular_kind(status.st_mode)));
    }
    throw InputFileError(path, std::strerror(open_errno));
  }
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) {
    const int stat_errno = errno;
    ::close(descriptor);
    throw InputFileError(path, std::string("cannot examine it: ") + std::strerror(stat_errno));
  }
  const std::string kind = non_regular_kind(status.st_mode);
  if (!kind.empty()) {
    ::close(descriptor);
    throw InputFileError(path, refusal(kind));
  }
  // Back to blocking reads: a regular file never blocks anyway, and zlib expects them.
  if (::fcntl(descriptor, F_SETFL, 0) != 0) {
    const int fcntl_errno = errno;
    ::close(descriptor);
    throw InputFileError(path, std::string("cannot read it: ") + std::strerror(fcntl_errno));
  }
  return descriptor;
}

}  // namespace course
