/// @file shapes_file.hpp
/// @brief Reads a benchmark's list of shapes (`--shapes FILE`): one `rows inner cols` a line.
/// Read shape_benchmark.cu, which uses it.
///
/// The list is small by nature (the public set has 47 shapes), so the reader refuses anything
/// that is not: a path that is not a regular file (a FIFO, a device such as /dev/zero, a
/// socket, a folder) before opening it, a line longer than kMaxShapesLineBytes, more than
/// kMaxShapesLines lines or kMaxShapesFileBytes bytes; each refusal names the limit.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace course::step4 {

/// @brief Longest line of a shapes list, in bytes (a shape takes about 20, comments more).
constexpr std::size_t kMaxShapesLineBytes = 1024;

/// @brief Most lines of a shapes list.
constexpr long long kMaxShapesLines = 10000;

/// @brief Most bytes of a shapes list.
constexpr std::size_t kMaxShapesFileBytes = std::size_t{1} << 20;

/// @brief Parses a shapes list: each non-empty line holds three whole numbers `rows inner cols`
/// (rows, inner, cols); `#` starts a comment. Throws std::runtime_error naming @p source and
/// the line number for a line that is not three numbers or whose shape validate_shape
/// refuses, for a list with no shape at all, and at the limits above.
/// @param input the text
/// @param source its name, for messages
std::vector<ProductSizes> parse_shapes(std::istream& input, const std::string& source);

/// @brief parse_shapes on the file at @p path. Throws std::runtime_error, before opening it,
/// when @p path is missing or not a regular file (naming what it is: "a FIFO (named pipe)",
/// "a character device", ...), and when it cannot be read.
/// @param path the file
std::vector<ProductSizes> read_shapes_file(const std::string& path);

}  // namespace course::step4
