/// @file shapes_file.hpp
/// @brief Reads the shape benchmark's list of shapes (`--shapes FILE`): one `rows inner cols`
/// a line. Read shape_benchmark.cu, which uses it.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <istream>
#include <string>
#include <vector>

namespace course::step4 {

/// @brief Parses a shapes list: each non-empty line holds three whole numbers `rows inner cols`
/// (rows, inner, cols); `#` starts a comment. Throws std::runtime_error naming @p source and
/// the line number for a line that is not three numbers or whose shape validate_shape
/// refuses, and for a list with no shape at all.
/// @param input the text
/// @param source its name, for messages
std::vector<ProductSizes> parse_shapes(std::istream& input, const std::string& source);

/// @brief parse_shapes on the file at @p path (std::runtime_error if it cannot be read).
/// @param path the file
std::vector<ProductSizes> read_shapes_file(const std::string& path);

}  // namespace course::step4
