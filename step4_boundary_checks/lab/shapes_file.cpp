/// @file shapes_file.cpp
/// @brief The shape benchmark's list of shapes (see shapes_file.hpp).
#include "step4_boundary_checks/shapes_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace course::step4 {

std::vector<ProductSizes> parse_shapes(std::istream& input, const std::string& source) {
  std::vector<ProductSizes> shapes;
  std::string line;
  for (long long line_number = 1; std::getline(input, line); ++line_number) {
    const std::string content = line.substr(0, line.find('#'));
    std::istringstream fields(content);
    long long rows = 0;
    long long inner = 0;
    long long cols = 0;
    std::string extra;
    if (content.find_first_not_of(" \t\r") == std::string::npos) {
      continue;  // blank or comment only
    }
    const auto where = source + " line " + std::to_string(line_number);
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
  std::ifstream file(path);
  if (!file) {
    throw std::runtime_error("cannot read the shapes file '" + path + "'");
  }
  return parse_shapes(file, path);
}

}  // namespace course::step4
