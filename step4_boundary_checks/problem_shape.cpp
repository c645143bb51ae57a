/// @file problem_shape.cpp
/// @brief Validation of step 4's problem sizes.
#include "step4_boundary_checks/problem_shape.hpp"

#include <stdexcept>

namespace course::step4 {
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

ProductSizes validate_shape(long long rows, long long inner, long long cols) {
  check_dimension("rows (rows of A and C)", rows);
  check_dimension("inner (columns of A, rows of B)", inner);
  check_dimension("cols (columns of B and C)", cols);
  // Each factor is at most 2^30, so the products below cannot overflow long long.
  check_elements("A (rows x inner)", rows, inner);
  check_elements("B (inner x cols)", inner, cols);
  check_elements("C (rows x cols)", rows, cols);
  return {static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(cols)};
}

void validate_grid_rows(const ProductSizes& sizes, int tile_rows, const std::string& approach) {
  const long long block_rows = ceil_div<long long>(sizes.rows, tile_rows);
  if (block_rows > kMaxGridY) {
    throw std::invalid_argument(
        approach + ": rows = " + std::to_string(sizes.rows) + " needs " +
        std::to_string(block_rows) + " block rows of " + std::to_string(tile_rows) +
        ", more than CUDA's gridDim.y " + "limit of " + std::to_string(kMaxGridY) + " (at most " +
        std::to_string(static_cast<long long>(kMaxGridY) * tile_rows) + " rows)");
  }
}

}  // namespace course::step4
