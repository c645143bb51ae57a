/// @file product_operands.hpp
/// @brief The operands of one test or timed product C = A·B: random A and B from a seed, on
/// the host and uploaded, and a poisoned device C.
///
/// Every step program and test starts a product this way; keeping it in one place keeps the
/// seeding (A from the seed, B from seed + 1) and the poisoning of C the same everywhere.
#pragma once

#include "common/matrix.hpp"

#include <cstdint>
#include <string>

namespace course {

/// @brief What the random inputs are made of.
enum class InputKind {
  uniform,         ///< uniform floats in [-1, 1): the product needs an fp32 tolerance
  small_integers,  ///< small integers: every product and sum is exact in fp32
};

/// @brief Short name of @p kind for messages ("uniform floats", "small integers").
/// @param kind the kind of inputs
/// @return its name
const char* input_kind_name(InputKind kind);

/// @brief A rows×inner A and an inner×cols B filled from a seed, their device copies, and a
/// rows×cols device C poisoned with NaN so that an element a kernel forgets to write fails
/// any check.
struct ProductOperands {
  /// @brief Fills A from @p seed and B from @p seed + 1, uploads both, allocates and poisons C.
  /// @param rows rows of A and C
  /// @param inner columns of A, rows of B
  /// @param cols columns of B and C
  /// @param seed seed of the random inputs
  /// @param kind what the inputs are made of
  /// @param c_name what C is called in an out-of-memory message
  ProductOperands(int rows, int inner, int cols, std::uint64_t seed,
                  InputKind kind = InputKind::uniform, const std::string& c_name = "C");

  HostMatrix<float> a;           ///< left factor on the host
  HostMatrix<float> b;           ///< right factor on the host
  DeviceMatrix<float> device_a;  ///< left factor in device memory
  DeviceMatrix<float> device_b;  ///< right factor in device memory
  DeviceMatrix<float> device_c;  ///< the product's destination, poisoned until a kernel writes it
};

}  // namespace course
