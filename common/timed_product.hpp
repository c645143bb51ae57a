/// @file timed_product.hpp
/// @brief One timed product C = A·B of a step program, with the DEBUG check.
///
/// Steps 1 to 3 run a single product the same way (random inputs, header, timing, the
/// DEBUG check while device memory is still allocated); only the label and the kernel
/// differ, so each step passes those and this runs the rest.
#pragma once

#include "common/matrix.hpp"
#include "common/product_sizes.hpp"

#include <functional>
#include <iosfwd>
#include <string>

namespace course {

/// @brief Launches the product on device memory: @p a is rows×inner, @p b inner×cols, @p c
/// rows×cols (the sizes are those of the TimedProduct or the test it is run with).
using ProductLaunch = std::function<void(const float* a, const float* b, float* c)>;

/// @brief What one timed product is: how it is labelled, its sizes, seed and repeats.
struct TimedProduct {
  /// @brief Printed first, just before the shape: "step 1, naive: " continues on the shape's
  /// line, "step 2, approach 3: ...\n" puts the shape on a line of its own.
  std::string label;
  /// @brief Printed after the shape, before the seed, e.g. ", one block of 1024 threads".
  std::string shape_note;
  ProductSizes sizes;   ///< rows, inner and cols of the product
  long long seed = -1;  ///< seed of the random inputs; -1 draws a fresh one (printed)
  int repeats = 5;      ///< timed runs of the launch (the median is printed)
};

/// @brief The DEBUG check: compares @p got with the plain serial CPU product of a and b and
/// prints the verdict (`wrong answer` and the first mismatches, or a line saying it matches).
/// @param a left factor
/// @param b right factor
/// @param got the GPU's product
/// @param out where the verdict is printed
/// @return true when every element matches
bool debug_verify(const HostMatrix<float>& a, const HostMatrix<float>& b,
                  const HostMatrix<float>& got, std::ostream& out);

/// @brief Runs @p launch on random inputs with a poisoned C, prints the header, the median
/// time and the GFLOP/s and, when @p verify is true, checks C with debug_verify before device
/// memory is freed.
/// @param product label, sizes, seed and repeats (already validated)
/// @param launch the kernel's launcher
/// @param verify true when the program was built with DEBUG
/// @param out where the report is printed
/// @return the exit code: 0, or 1 for a wrong answer
int run_timed_product(const TimedProduct& product, const ProductLaunch& launch, bool verify,
                      std::ostream& out);

}  // namespace course
