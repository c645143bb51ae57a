#include "common/table.hpp"

#include "common/device.hpp"
#include "common/output_file.hpp"

#include <cstdio>
#include <ctime>
#include <sstream>
#include <stdexcept>

namespace course {
namespace {

std::string csv_cell(const std::string& cell) {
  if (cell.find_first_of(",\"\n") == std::string::npos) {
    return cell;
  }
  std::string quoted = "\"";
  for (char character : cell) {
    quoted += character == '"' ? std::string("\"\"") : std::string(1, character);
  }
  return quoted + "\"";
}

}  // namespace

ResultTable::ResultTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void ResultTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) {
    throw std::invalid_argument("table row has " + std::to_string(cells.size()) +
                                " cells but the table has " + std::to_string(headers_.size()) +
                                " columns");
  }
  rows_.push_back(std::move(cells));
}

std::string ResultTable::markdown() const {
  std::ostringstream text;
  text << "|";
  for (const auto& header : headers_) {
    text << " " << header << " |";
  }
  text << "\n|";
  for (std::size_t column = 0; column < headers_.size(); ++column) {
    text << (column == 0 ? "---|" : "---:|");
  }
  text << "\n";
  for (const auto& row : rows_) {
    text << "|";
    for (const auto& cell : row) {
      text << " " << cell << " |";
    }
    text << "\n";
  }
  return text.str();
}

std::string ResultTable::csv() const {
  std::ostringstream text;
  auto write_line = [&text](const std::vector<std::string>& cells) {
    for (std::size_t column = 0; column < cells.size(); ++column) {
      text << (column == 0 ? "" : ",") << csv_cell(cells[column]);
    }
    text << "\n";
  };
  write_line(headers_);
  for (const auto& row : rows_) {
    write_line(row);
  }
  return text.str();
}

void ResultTable::write_csv(const std::string& path) const {
  write_output_file(path, csv());
}

std::string format_fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", digits, value);
  return text;
}

std::string format_optional(const std::optional<double>& value, int digits) {
  return value ? format_fixed(*value, digits) : std::string("-");
}

std::string today_iso() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &local);
  return text;
}

std::string benchmark_header() {
  std::ostringstream text;
  text << "GPU: " << gpu_name();
  if (has_cuda_device()) {
    const GpuDescription info = require_cuda_device();
    text << " (sm_" << info.major << info.minor << ", " << info.sm_count << " SMs)";
  }
  text << ", date: " << today_iso();
  return text.str();
}

}  // namespace course
