/// @file product_checks.hpp
/// @brief Catch2 checks shared by the steps' tests: a launcher against the double CPU
/// reference, and the DEBUG check's verdicts.
#pragma once

#include "common/product_operands.hpp"
#include "common/product_sizes.hpp"
#include "common/timed_product.hpp"

#include <string>

/// @namespace course::testing
/// @brief Support for the steps' Catch2 tests (`common/testing/`, built into the course's
/// test main): checks of launchers and of the DEBUG check, command lines, program runs.
namespace course::testing {

/// @brief Runs @p launch on fresh random inputs (course::fresh_seed, named in the failure
/// message with @p what and the sizes) with a poisoned output, and CHECKs the result against
/// course::matmul_reference: bit-exact for small integers, the fp32 accumulation tolerance
/// for uniform floats.
/// @param what names the launcher in the failure message (may be empty)
/// @param sizes sizes of the product
/// @param kind what the inputs are made of
/// @param launch the launcher under test, for these sizes
void check_launch(const std::string& what, const ProductSizes& sizes, InputKind kind,
                  const ProductLaunch& launch);

/// @brief CHECKs that course::debug_verify accepts the serial CPU product of random inputs
/// of these @p sizes and prints no `wrong answer`, then that it says `wrong answer` and names
/// the element once element (@p row, @p col) is moved by @p delta.
/// @param sizes sizes of the product
/// @param row row of the corrupted element
/// @param col column of the corrupted element
/// @param delta added to the element
void check_debug_verify_flags(const ProductSizes& sizes, int row, int col, float delta);

}  // namespace course::testing
