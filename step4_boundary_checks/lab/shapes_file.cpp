/// @file shapes_file.cpp
/// @brief A benchmark's list of shapes (see shapes_file.hpp).
#include "step4_boundary_checks/lab/shapes_file.hpp"

#include "common/file_checks.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace course::step4 {
namespace {

/// Reads one line (without its newline) of at most kMaxShapesLineBytes into @p line, counting
/// the bytes read in @p total; false at the end of the input. Never reads more than the limits.
bool read_line(std::istream& input, std::string& line, std::size_t& total,
               const std::string& where) {
  line.clear();
  char next = 0;
  bool any = false;
  while (input.get(next)) {
    any = true;
    if (++total > kMaxShapesFileBytes) {
      throw std::runtime_error(where + ": the list is longer than the limit of " +
                               std::to_string(kMaxShapesFileBytes) + " bytes");
    }
    if (next == '\n') {
      return true;
    }
    if (line.size() == kMaxShapesLineBytes) {
      throw std::runtime_error(where + ": line longer than the limit of " +
                               std::to_string(kMaxShapesLineBytes) +
                               " bytes (one 'rows inner cols' a line)");
    }
    line.push_back(next);
  }
  return any;
}

}  // namespace

std::vector<ProductSizes> parse_shapes(std::istream& input, const std::string& source) {
  std::vector<ProductSizes> shapes;
  std::string line;
  std::size_t total = 0;
  for (long long line_number = 1;; ++line_number) {
    const auto where = source + " line " + std::to_string(line_number);
    if (line_number > kMaxShapesLines) {
      if (read_line(input, line, total, where)) {
        throw std::runtime_error(source + " has more than the limit of " +
                                 std::to_string(kMaxShapesLines) + " lines");
      }
      break;
    }
    if (!read_line(input, line, total, where)) {
      break;
    }
    const std::string content = line.substr(0, line.find('#'));
    if (content.find_first_not_of(" \t\r") == std::string::npos) {
      continue;  // blank or comment only
    }
    std::istringstream fields(content);
    long long rows = 0;
    long long inner = 0;
    long long cols = 0;
    std::string extra;
    if (!(fields >> rows >> inner >> cols) || (fields >> extra)) {
      throw std::runtime_error(where + ": expected three whole numbers 'rows inner cols', got '" +
                               line + "'");
    }
    try {
      shapes.push_back(validate_shape(rows, inner, cols));
    } catch (const std::invalid_argument& error) {
      throw std::runtime_error(where + ": " + error.what());
    }
  }
  if (shapes.empty()) {
    throw std::runtime_error(source + " holds no shape (one 'rows inner cols' a line)");
  }
  return shapes;
}

std::vector<ProductSizes> read_shapes_file(const std::string& path) {
  // Asked before opening: opening a FIFO with no writer would block, and /dev/zero never ends.
  const std::string kind = non_regular_kind(path);
  if (kind == "missing") {
    throw std::runtime_error("cannot read the shapes file '" + path + "': no such file");
  }
  if (!kind.empty()) {
    throw std::runtime_error("the shapes file '" + path + "' is " + kind + ", not a regular file");
  }
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error("cannot read the shapes file '" + path + "'");
  }
  return parse_shapes(file, path);
}

}  // namespace course::step4
