/// @file sparse_matrix.cpp
/// @brief COO/CSR conversions, row-major sorting and validation.
#include "common/sparse_matrix.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace course {
namespace {

// Throws when the three entry vectors of a COO matrix differ in length.
void require_equal_lengths(const CooMatrix& matrix) {
  if (matrix.row_indices.size() != matrix.values.size() ||
      matrix.col_indices.size() != matrix.values.size()) {
    throw std::invalid_argument("COO size mismatch: " + std::to_string(matrix.row_indices.size()) +
                                " row indices, " + std::to_string(matrix.col_indices.size()) +
                                " column indices, " + std::to_string(matrix.values.size()) +
                                " values (all three must be equal)");
  }
}

// Reorders the entries of `matrix` so that entry k becomes old entry order[k].
void apply_permutation(CooMatrix& matrix, const std::vector<std::size_t>& order) {
  std::vector<int> rows(order.size());
  std::vector<int> cols(order.size());
  std::vector<float> values(order.size());
  for (std::size_t position = 0; position < order.size(); ++position) {
    rows[position] = matrix.row_indices[order[position]];
    cols[position] = matrix.col_indices[order[position]];
    values[position] = matrix.values[order[position]];
  }
  matrix.row_indices = std::move(rows);
  matrix.col_indices = std::move(cols);
  matrix.values = std::move(values);
}

// Stable order of the entries by (row, col): a counting sort by row (linear, stable) followed
// by a stable sort of each row's columns. Needs an array of rows + 1 counters, so it is used
// only when that array is not much larger than the entries themselves.
std::vector<std::size_t> order_by_counting_rows(const CooMatrix& matrix) {
  const std::size_t rows = static_cast<std::size_t>(matrix.rows);
  std::vector<std::size_t> row_start(rows + 1, 0);
  for (int row : matrix.row_indices) {
    ++row_start[static_cast<std::size_t>(row) + 1];
  }
  std::partial_sum(row_start.begin(), row_start.end(), row_start.begin());
  std::vector<std::size_t> next_slot(row_start.begin(), row_start.end() - 1);
  std::vector<std::size_t> order(matrix.nnz());
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    order[next_slot[static_cast<std::size_t>(matrix.row_indices[entry])]++] = entry;
  }
  for (std::size_t row = 0; row < rows; ++row) {
    std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(row_start[row]),
                     order.begin() + static_cast<std::ptrdiff_t>(row_start[row + 1]),
                     [&](std::size_t a, std::size_t b) {
                       return matrix.col_indices[a] < matrix.col_indices[b];
                     });
  }
  return order;
}

// Stable order of the entries by (row, col) with a comparison sort, for matrices with many
// more rows than entries (no per-row array).
std::vector<std::size_t> order_by_comparison(const CooMatrix& matrix) {
  std::vector<std::size_t> order(matrix.nnz());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (matrix.row_indices[a] != matrix.row_indices[b]) {
      return matrix.row_indices[a] < matrix.row_indices[b];
    }
    return matrix.col_indices[a] < matrix.col_indices[b];
  });
  return order;
}

}  // namespace

void validate(const CooMatrix& matrix) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("COO matrix has negative size " + std::to_string(matrix.rows) +
                                " x " + std::to_string(matrix.cols));
  }
  require_equal_lengths(matrix);
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    const int row = matrix.row_indices[entry];
    const int col = matrix.col_indices[entry];
    if (row < 0 || row >= matrix.rows) {
      throw std::invalid_argument("COO entry " + std::to_string(entry) + ": row index " +
                                  std::to_string(row) + " out of range [0, " +
                                  std::to_string(matrix.rows) + ")");
    }
    if (col < 0 || col >= matrix.cols) {
      throw std::invalid_argument("COO entry " + std::to_string(entry) + ": column index " +
                                  std::to_string(col) + " out of range [0, " +
                                  std::to_string(matrix.cols) + ")");
    }
  }
}

void validate(const CsrMatrix& matrix) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("CSR matrix has negative size " + std::to_string(matrix.rows) +
                                " x " + std::to_string(matrix.cols));
  }
  if (matrix.row_offsets.size() != static_cast<std::size_t>(matrix.rows) + 1) {
    throw std::invalid_argument(
        "CSR row_offsets has " + std::to_string(matrix.row_offsets.size()) +
        " entries, expected rows + 1 = " + std::to_string(static_cast<long long>(matrix.rows) + 1));
  }
  if (matrix.col_indices.size() != matrix.values.size()) {
    throw std::invalid_argument("CSR size mismatch: " + std::to_string(matrix.col_indices.size()) +
                                " column indices, " + std::to_string(matrix.values.size()) +
                                " values");
  }
  if (matrix.row_offsets.front() != 0) {
    throw std::invalid_argument("CSR row_offsets[0] is " +
                                std::to_string(matrix.row_offsets.front()) + ", expected 0");
  }
  for (std::size_t row = 0; row < static_cast<std::size_t>(matrix.rows); ++row) {
    if (matrix.row_offsets[row + 1] < matrix.row_offsets[row]) {
      throw std::invalid_argument("CSR row_offsets decrease at row " + std::to_string(row) + ": " +
                                  std::to_string(matrix.row_offsets[row]) + " then " +
                                  std::to_string(matrix.row_offsets[row + 1]));
    }
  }
  if (static_cast<std::size_t>(matrix.row_offsets.back()) != matrix.nnz()) {
    throw std::invalid_argument("CSR row_offsets[rows] is " +
                                std::to_string(matrix.row_offsets.back()) +
                                ", expected nnz = " + std::to_string(matrix.nnz()));
  }
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    const int col = matrix.col_indices[entry];
    if (col < 0 || col >= matrix.cols) {
      throw std::invalid_argument("CSR entry " + std::to_string(entry) + ": column index " +
                                  std::to_string(col) + " out of range [0, " +
                                  std::to_string(matrix.cols) + ")");
    }
  }
}

std::vector<std::size_t> row_major_order(const CooMatrix& matrix) {
  require_equal_lengths(matrix);
  // A per-row counter array is only worth it when it is not much larger than the entries:
  // a 2e9-row matrix with three entries must not allocate 16 GB of counters.
  const bool use_counting =
      matrix.rows > 0 && static_cast<std::size_t>(matrix.rows) <= 4 * matrix.nnz() + 1024;
  bool rows_in_range = true;
  for (int row : matrix.row_indices) {
    // The counting sort indexes by row: out-of-range rows (not yet validated) use the
    // comparison sort instead of writing outside the counters.
    if (row < 0 || row >= matrix.rows) {
      rows_in_range = false;
      break;
    }
  }
  return (use_counting && rows_in_range) ? order_by_counting_rows(matrix)
                                         : order_by_comparison(matrix);
}

void sort_row_major(CooMatrix& matrix) {
  apply_permutation(matrix, row_major_order(matrix));
}

CsrMatrix coo_to_csr(const CooMatrix& matrix) {
  validate(matrix);
  if (matrix.nnz() > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("COO matrix has " + std::to_string(matrix.nnz()) +
                                " entries; CSR with int offsets holds at most " +
                                std::to_string(INT_MAX));
  }
  CooMatrix sorted = matrix;
  sort_row_major(sorted);
  CsrMatrix csr;
  csr.rows = sorted.rows;
  csr.cols = sorted.cols;
  csr.row_offsets.assign(static_cast<std::size_t>(sorted.rows) + 1, 0);
  for (int row : sorted.row_indices) {
    ++csr.row_offsets[static_cast<std::size_t>(row) + 1];
  }
  std::partial_sum(csr.row_offsets.begin(), csr.row_offsets.end(), csr.row_offsets.begin());
  csr.col_indices = std::move(sorted.col_indices);
  csr.values = std::move(sorted.values);
  return csr;
}

CooMatrix csr_to_coo(const CsrMatrix& matrix) {
  validate(matrix);
  CooMatrix coo;
  coo.rows = matrix.rows;
  coo.cols = matrix.cols;
  coo.row_indices.resize(matrix.nnz());
  for (int row = 0; row < matrix.rows; ++row) {
    const auto begin = static_cast<std::size_t>(matrix.row_offsets[static_cast<std::size_t>(row)]);
    const auto end =
        static_cast<std::size_t>(matrix.row_offsets[static_cast<std::size_t>(row) + 1]);
    std::fill(coo.row_indices.begin() + static_cast<std::ptrdiff_t>(begin),
              coo.row_indices.begin() + static_cast<std::ptrdiff_t>(end), row);
  }
  coo.col_indices = matrix.col_indices;
  coo.values = matrix.values;
  return coo;
}

}  // namespace course
