/// @file sparse_generators.hpp
/// @brief Random sparsity masks (the sparse matrix S of SDDMM) of exact size.
///
/// The generators never allocate rows * cols of anything: they draw 64-bit linear positions
/// (row * cols + col), sort them, drop duplicates and choose the missing ones among the
/// positions still free (Floyd's algorithm), so memory and time grow linearly with nnz, and
/// no step is ever retried, even for a density near 1. The same arguments and seed give the
/// same matrix.
///
/// Memory: a uniform mask of nnz entries needs at most mask_generation_bytes(nnz).
#pragma once

#include "common/sparse_matrix.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace course {

/// @brief A mask with exactly @p nnz distinct positions drawn uniformly at random.
/// @param rows number of rows (>= 0)
/// @param cols number of columns (>= 0)
/// @param nnz number of entries, at most rows * cols
/// @param seed generator seed
/// @return the mask, sorted row-major, every value 1.0f
/// @throws std::invalid_argument for negative sizes, nnz > rows * cols or nnz > INT_MAX
CooMatrix random_uniform_mask(int rows, int cols, std::size_t nnz, std::uint64_t seed);

/// @brief A mask whose row lengths follow a power law (Zipf-like), with exactly @p nnz
///        distinct positions.
///
/// Row r (in a random order of the rows) gets a share of the entries proportional to
/// 1 / (rank + 1)^exponent, capped at cols; the columns inside a row are uniform. Exponent 0
/// gives equal expected row lengths; larger exponents give a few very long rows.
/// @param rows number of rows (>= 0)
/// @param cols number of columns (>= 0)
/// @param nnz number of entries, at most rows * cols
/// @param exponent power-law exponent, finite and in [0, 10]
/// @param seed generator seed
/// @return the mask, sorted row-major, every value 1.0f
/// @throws std::invalid_argument for bad sizes or exponent, or nnz > rows * cols
CooMatrix random_power_law_mask(int rows, int cols, std::size_t nnz, double exponent,
                                std::uint64_t seed);

/// @brief Host bytes that random_uniform_mask() needs for @p nnz entries, at most: the 64-bit
/// positions and the radix sort's scratch copy (16 B each) and the COO mask it returns (12 B
/// each). Saturates instead of overflowing.
/// @param nnz number of entries
/// @return the bytes, for a course::MemoryEstimate
std::uint64_t mask_generation_bytes(std::uint64_t nnz);

/// @brief Host bytes that random_power_law_mask() needs per row besides its entries, at
/// most: the rows' weights, their sums, counts, fractions and order with the stable sort's
/// buffer (48 B per row at the peak), whatever the number of entries. Saturates.
/// @param rows number of rows
/// @return the bytes, for a course::MemoryEstimate
std::uint64_t power_law_row_bytes(std::uint64_t rows);

/// @brief The name the SDDMM note gives random masks: `matrix_<rows>_<cols>_<nnz>`.
/// @param rows number of rows
/// @param cols number of columns
/// @param nnz number of entries
/// @return e.g. "matrix_5000_5000_250000"
std::string uniform_mask_name(int rows, int cols, std::size_t nnz);

}  // namespace course
