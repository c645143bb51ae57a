/// @file step3_program.hpp
/// @brief Step 3's program, apart from main(): what makes the program with approaches
/// (course::run_approach_program) step 3's: its texts, approach 4 next to step 2's three, and
/// Table 2.
///
/// Kept out of main.cu so that the tests can parse command lines and run the benchmark
/// without the program, and so that main.cu holds only the note's `#define` switches.
#pragma once

#include "common/approach_program.hpp"
#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

namespace course::step3 {

/// @brief What step 3's command line asks for (the options of every program with
/// approaches; --approach is 1 to 4).
using Options = ApproachOptions;

/// @brief Launches approach @p number: 4 is step 3's tiled kernel, 1 to 3 are step 2's
/// (course::step2::launch_approach); throws std::invalid_argument for another number.
/// @param number the approach (1 to 4)
/// @param a left factor, rows×inner, device memory
/// @param b right factor, inner×cols, device memory
/// @param c result, rows×cols, device memory
/// @param sizes rows, inner and cols of the product
/// @param stream stream to launch on (default stream when nullptr)
void launch_approach(int number, const float* a, const float* b, float* c,
                     const ProductSizes& sizes, cudaStream_t stream = nullptr);

/// @brief Step 3's program: the command line (approach 4, or step 2's 1 to 3 for
/// comparison; sizes and benchmark sizes that are multiples of 32 for approach 4), the report
/// of a single run, and the note's Table 2 (approach 4 with the serial CPU product, step 2's
/// approaches 2 and 3, and cuBLAS at the benchmark sizes).
/// @return the description, built once
const ApproachStep& program();

}  // namespace course::step3
