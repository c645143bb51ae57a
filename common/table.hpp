/// @file table.hpp
/// @brief Benchmark output: a table printed as Markdown and written as CSV.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace course {

/// @brief A table of strings with a header row; rows must have as many cells as headers.
class ResultTable {
 public:
  /// @brief Creates a table with these column headers.
  /// @param headers column names
  explicit ResultTable(std::vector<std::string> headers);

  /// @brief Appends a row; throws std::invalid_argument if its width differs.
  /// @param cells one string per column
  void add_row(std::vector<std::string> cells);

  /// @brief The table as GitHub Markdown (numbers right-aligned).
  std::string markdown() const;
  /// @brief The table as CSV (RFC 4180 quoting where needed).
  std::string csv() const;
  /// @brief Writes csv() to @p path; throws std::runtime_error if it cannot.
  /// @param path file to write
  void write_csv(const std::string& path) const;
  /// @brief Number of data rows.
  std::size_t row_count() const { return rows_.size(); }

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

/// @brief Formats @p value with @p digits after the decimal point.
/// @param value number to format
/// @param digits digits after the point
std::string format_fixed(double value, int digits);

/// @brief Formats a measurement, or "-" when it was not measured.
/// @param value the measurement, if any
/// @param digits digits after the point
std::string format_optional(const std::optional<double>& value, int digits);

/// @brief Today's date as YYYY-MM-DD (local time), for benchmark headers.
std::string today_iso();

/// @brief The line every benchmark prints first: GPU name, compute capability and date.
std::string benchmark_header();

}  // namespace course
