/// @file product_operands.cpp
/// @brief Random operands of a product, uploaded, with a poisoned result.

#include "common/product_operands.hpp"

#include "common/random_fill.hpp"

namespace course {
namespace {

// Built in a function so that the members can be initialized in order: the host matrices
// must hold their values before the device copies are made from them.
HostMatrix<float> random_matrix(int rows, int cols, std::uint64_t seed, InputKind kind) {
  HostMatrix<float> matrix(rows, cols);
  if (kind == InputKind::small_integers) {
    fill_small_integers(matrix, seed);
  } else {
    fill_uniform(matrix, seed);
  }
  return matrix;
}

}  // namespace

const char* input_kind_name(InputKind kind) {
  return kind == InputKind::small_integers ? "small integers" : "uniform floats";
}

ProductOperands::ProductOperands(int rows, int inner, int cols, std::uint64_t seed, InputKind kind,
                                 const std::string& c_name)
    : a(random_matrix(rows, inner, seed, kind)),
      b(random_matrix(inner, cols, seed + 1, kind)),
      device_a(a),
      device_b(b),
      device_c(rows, cols, 0, c_name) {
  device_c.poison();  // an element the kernel forgets to write stays NaN and fails the check
}

}  // namespace course
