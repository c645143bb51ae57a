/// @file temp_files.hpp
/// @brief Test fixtures on disk: a temporary directory removed at the end of the test, and
/// text written plain or gzip-compressed (with zlib itself, independently of the code under
/// test).
#pragma once

#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"

#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace course::testing {

namespace fs = std::filesystem;

/// @brief A fresh directory under the system's temporary directory, removed at the end of
/// the test.
class TempDir {
 public:
  /// @brief Creates the directory.
  TempDir() {
    path_ = fs::temp_directory_path() / ("course_mm_test_" + std::to_string(course::fresh_seed()));
    fs::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// @brief Removes the directory and what it holds.
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  /// @brief The directory's path.
  /// @return the path
  std::string path() const { return path_.string(); }
  /// @brief The path of file @p name in the directory.
  /// @param name file name
  /// @return its path
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

/// @brief Writes @p text to @p path as it is.
/// @param path file to write
/// @param text its bytes
inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

/// @brief Writes @p text gzip-compressed, with zlib itself (independently of the writer
/// under test).
/// @param path file to write
/// @param text the uncompressed bytes
inline void write_gzip(const std::string& path, const std::string& text) {
  gzFile file = gzopen(path.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, text.data(), static_cast<unsigned>(text.size())) ==
          static_cast<int>(text.size()));
  REQUIRE(gzclose(file) == Z_OK);
}

}  // namespace course::testing
