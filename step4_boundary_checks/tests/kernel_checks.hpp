/// @file kernel_checks.hpp
/// @brief The checks step 4's kernel tests run (tests/test_kernels.cu for the lesson's kernels,
/// going_further/tests/test_fast_kernels.cu for the fast kernel): each kernel against the double
/// CPU reference on fresh random inputs with its output poisoned, on every small shape, around
/// its tile edges, on thin and on large ragged shapes.
#pragma once

#include "common/product_sizes.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

/// @brief Support for step 4's kernel tests.
namespace course::step4::testing {

/// @brief A launcher under test: C = A·B of device matrices of these sizes, on the default stream.
using Launch = std::function<void(const float*, const float*, float*, const ProductSizes&)>;

/// @brief A kernel under test with the tile sizes whose edges it must survive.
struct Kernel {
  std::string name;  ///< for failure messages
  Launch launch;     ///< its launcher
  int tile_rows;     ///< rows of C per block
  int tile_depth;    ///< inner per phase
  int tile_cols;     ///< columns of C per block
};

/// @brief Runs each of @p kernels on the same fresh uniform inputs of one shape (exact-size
/// allocations, C poisoned before each kernel) and CHECKs each against one double reference.
/// @param kernels the kernels
/// @param rows rows of A and C
/// @param inner columns of A, rows of B
/// @param cols columns of B and C
/// @param seed seed of the inputs (named in failure messages)
void check_shape(const std::vector<Kernel>& kernels, int rows, int inner, int cols,
                 std::uint64_t seed);

/// @brief Every shape with rows, inner, cols in 1..@p limit, for each of @p kernels, checked
/// exactly on small integers (see kernel_checks.cu for how the sweep stays fast and catches
/// writes past the end of C).
/// @param kernels the kernels
/// @param limit largest size
void sweep_all_shapes(const std::vector<Kernel>& kernels, int limit);

/// @brief Each kernel one below, at and one above its tile edges (and twice the tile), every
/// combination of rows, inner and cols.
/// @param kernels the kernels
void check_tile_edges(const std::vector<Kernel>& kernels);

/// @brief inner = 1, single rows and single columns.
/// @param kernels the kernels
void check_thin_shapes(const std::vector<Kernel>& kernels);

/// @brief Large ragged shapes (1000×777×1031, 1024³, 513×2049×255, 130×4099×131).
/// @param kernels the kernels
void check_large_ragged_shapes(const std::vector<Kernel>& kernels);

}  // namespace course::step4::testing
