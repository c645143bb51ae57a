/// @file problem_shape.cpp
/// @brief Validation of step 4's problem sizes.
#include "step4_boundary_checks/problem_shape.hpp"

#include <stdexcept>

namespace step4 {
namespace {

void check_dimension(const char* name, long long value) {
  if (value < 1 || value > kMaxDimension) {
    throw std::invalid_argument(std::string(name) + " must be from 1 to " +
                                std::to_string(kMaxDimension) + ", got " + std::to_string(value));
  }
}

void check_elements(const char* matrix, long long first, long long second) {
  if (first * second > kMaxElements) {
    throw std::invalid_argument(std::string(matrix) + " would have " + std::to_string(first) + "x" +
                                std::to_string(second) + " = " + std::to_string(first * second) +
                                " elements, more than the limit of " +
                                std::to_string(kMaxElements) +
                                " (INT_MAX: the kernels index elements with 32-bit int)");
  }
}

}  // namespace

std::string ProblemShape::text() const {
  return std::to_string(rows) + "x" + std::to_string(inner) + "x" + std::to_string(cols);
}

ProblemShape validate_shape(long long rows, long long inner, long long cols) {
  check_dimension("I (rows of M and P)", rows);
  check_dimension("J (columns of M, rows of N)", inner);
  check_dimension("K (columns of N and P)", cols);
  // Each factor is at most 2^30, so the products below cannot overflow long long.
  check_elements("M (I x J)", rows, inner);
  check_elements("N (J x K)", inner, cols);
  check_elements("P (I x K)", rows, cols);
  return {static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(cols)};
}

void validate_grid_rows(const ProblemShape& shape, int tile_rows, const std::string& approach) {
  const long long block_rows = (static_cast<long long>(shape.rows) + tile_rows - 1) / tile_rows;
  if (block_rows > kMaxGridRows) {
    throw std::invalid_argument(approach + ": I = " + std::to_string(shape.rows) + " needs " +
                                std::to_string(block_rows) + " block rows of " +
                                std::to_string(tile_rows) + ", more than CUDA's gridDim.y " +
                                "limit of " + std::to_string(kMaxGridRows) + " (at most " +
                                std::to_string(kMaxGridRows * tile_rows) + " rows)");
  }
}

}  // namespace step4
