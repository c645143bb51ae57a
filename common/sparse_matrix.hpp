/// @file sparse_matrix.hpp
/// @brief Sparse matrices on the host: coordinate (COO) and compressed sparse row (CSR).
///
/// Both formats use 0-based indices and hold `float` values. Step 5 (SDDMM) samples a dense
/// product at the nonzeros of such a matrix, so a "pattern" matrix simply stores 1.0f in
/// every entry. Conversions keep entries in row-major order: by row, then by column.
/// Nothing here touches CUDA, so these files also build in the CPU-only fuzz target.
#pragma once

#include <cstddef>
#include <vector>

namespace course {

/// @brief Coordinate format: one (row, column, value) triple per stored entry.
///
/// The three vectors have the same length, nnz(). Entries are in no particular order unless
/// sort_row_major() was applied (read_matrix_market and the generators return them sorted).
struct CooMatrix {
  int rows = 0;                  ///< number of rows
  int cols = 0;                  ///< number of columns
  std::vector<int> row_indices;  ///< row of each entry, in [0, rows)
  std::vector<int> col_indices;  ///< column of each entry, in [0, cols)
  std::vector<float> values;     ///< value of each entry (pattern matrices: 1.0f)

  /// @brief Number of stored entries.
  /// @return values.size()
  std::size_t nnz() const { return values.size(); }
};

/// @brief Compressed sparse row format.
///
/// The entries of row `row` are at positions [row_offsets[row], row_offsets[row + 1]) of
/// col_indices and values, with increasing column within a row.
struct CsrMatrix {
  int rows = 0;                  ///< number of rows
  int cols = 0;                  ///< number of columns
  std::vector<int> row_offsets;  ///< rows + 1 entries; row_offsets[0] = 0, row_offsets[rows] = nnz
  std::vector<int> col_indices;  ///< column of each entry, in [0, cols)
  std::vector<float> values;     ///< value of each entry

  /// @brief Number of stored entries.
  /// @return values.size()
  std::size_t nnz() const { return values.size(); }
};

/// @brief The stable permutation that orders the entries by (row, column).
///
/// Entry k of the sorted matrix is entry order[k] of @p matrix; entries at the same position
/// keep their original order. Rows out of range are allowed (they sort by value).
/// @param matrix the matrix (its vectors must have equal length)
/// @return the permutation, of length nnz()
/// @throws std::invalid_argument when the three vectors differ in length
std::vector<std::size_t> row_major_order(const CooMatrix& matrix);

/// @brief Sorts the entries by (row, column); entries with equal position keep their order.
/// @param matrix the matrix to sort in place (its vectors must have equal length)
/// @throws std::invalid_argument when the three vectors differ in length
void sort_row_major(CooMatrix& matrix);

/// @brief Converts to CSR; works on a copy sorted by (row, column), duplicates are kept.
/// @param matrix a valid COO matrix (see validate())
/// @return the same entries in CSR form
/// @throws std::invalid_argument when @p matrix is not valid, or has more than INT_MAX entries
CsrMatrix coo_to_csr(const CooMatrix& matrix);

/// @brief Converts CSR back to COO, in the CSR order (row-major when the CSR is).
/// @param matrix a CSR matrix with consistent offsets
/// @return the same entries in COO form
/// @throws std::invalid_argument when the offsets or the index/value lengths are inconsistent
CooMatrix csr_to_coo(const CsrMatrix& matrix);

/// @brief Checks sizes and indices.
/// @param matrix the matrix to check
/// @throws std::invalid_argument naming the problem: negative sizes, vectors of different
///         length, or the first entry whose row or column is out of range (with the limit)
void validate(const CooMatrix& matrix);

/// @brief Checks sizes, offsets and column indices of a CSR matrix.
/// @param matrix the matrix to check
/// @throws std::invalid_argument naming the problem (offsets not starting at 0, decreasing,
///         not ending at nnz, or a column out of range)
void validate(const CsrMatrix& matrix);

}  // namespace course
