/// @file output_file.cpp
/// @brief Files written through a temporary name and a rename (see output_file.hpp).
#include "common/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace course {
namespace {

// "out/x.csv" -> "out/.x.csv.partial-<pid>-<n>": hidden, beside the destination (a rename
// stays within one file system), unique within the process and among processes.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return folder + "." + name + ".partial-" + std::to_string(::getpid()) + "-" +
         std::to_string(counter++);
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  temporary_ = temporary_name(path_);
  // O_EXCL: never reuse (or follow a link at) an existing name; 0666 less the umask.
  descriptor_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (descriptor_ < 0) {
    const int error_number = errno;
    temporary_.clear();  // nothing was created
    fail("cannot create a file in its folder", error_number);
  }
}

OutputFile::~OutputFile() {
  if (descriptor_ >= 0) {
    ::close(descriptor_);
  }
  if (!committed_ && !temporary_.empty()) {
    ::unlink(temporary_.c_str());
  }
}

void OutputFile::fail(const std::string& what, int error_number) {
  if (descriptor_ >= 0) {
    ::close(descriptor_);
    descriptor_ = -1;
  }
  if (!temporary_.empty()) {
    ::unlink(temporary_.c_str());
    temporary_.clear();
  }
  throw std::runtime_error("cannot write " + path_ + ": " + what + " (" +
                           std::strerror(error_number) + "); nothing was written there");
}

void OutputFile::write(const char* data, std::size_t length) {
  while (length > 0) {
    const ssize_t written = ::write(descriptor_, data, length);
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail("writing failed", errno);
    }
    data += written;
    length -= static_cast<std::size_t>(written);
  }
}

void OutputFile::commit() {
  if (descriptor_ >= 0) {
    // The data must be on the disk before the name points at it: after a crash the
    // destination holds the old file or the whole new one.
    if (::fsync(descriptor_) != 0 && errno != EINVAL) {
      fail("flushing to the disk failed", errno);
    }
    const int descriptor = descriptor_;
    descriptor_ = -1;
    if (::close(descriptor) != 0) {
      fail("closing failed", errno);
    }
  }
  // rename() replaces the destination itself, a symbolic link included: it never writes
  // through a link.
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    fail("renaming the finished file into place failed", errno);
  }
  committed_ = true;
}

void write_output_file(const std::string& path, const std::string& text) {
  OutputFile file(path);
  file.write(text.data(), text.size());
  file.commit();
}

}  // namespace course
