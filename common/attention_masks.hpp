/// @file attention_masks.hpp
/// @brief Sparse attention masks (the S of SDDMM when scores = Q·Kᵀ are kept only at a mask):
/// block-sparse, sliding window with global rows and columns, and BigBird-style (window,
/// global and random columns per row), each with a causal option.
///
/// Every mask is built row by row, sorted row-major, with every value 1.0f, and never holds
/// anything of size rows * cols. The random ones (block-sparse, BigBird) draw with
/// course::Random (random_sampling.hpp): the same spec and seed give the same mask on every
/// platform. Causal means no entry above the diagonal: an entry (row, col) needs col <= row.
#pragma once

#include "common/sparse_matrix.hpp"

#include <cstdint>
#include <string>

namespace course {

/// @brief The three kinds of attention mask.
enum class AttentionKind {
  block_sparse,    ///< whole block_size×block_size blocks, a share block_density of them
  sliding_window,  ///< |row - col| <= half_width, plus the first `global` rows and columns
  bigbird          ///< the sliding window plus random_per_row random columns in each other row
};

/// @brief What an attention mask is made of. Fields that the kind does not use are ignored.
struct AttentionMaskSpec {
  AttentionKind kind = AttentionKind::sliding_window;  ///< which mask
  int rows = 0;                                        ///< rows of S (queries)
  int cols = 0;                                        ///< columns of S (keys)
  int block_size = 64;         ///< block_sparse: side of a block (the last ones cut by the edge)
  double block_density = 0.1;  ///< block_sparse: share of the blocks kept, in (0, 1]
  int half_width = 128;        ///< sliding_window, bigbird: entries with |row - col| <= this
  int global = 0;              ///< sliding_window, bigbird: the first rows and columns kept whole
  int random_per_row = 0;      ///< bigbird: random columns added to each non-global row
  bool causal = false;         ///< drop every entry above the diagonal (col > row)
  std::uint64_t seed = 1;      ///< block_sparse, bigbird: the random choice
};

/// @brief A block-sparse spec: blocks of @p block_size × @p block_size, @p density of them.
/// @param rows rows of S
/// @param cols columns of S
/// @param block_size side of a block
/// @param density share of the blocks kept, in (0, 1]
/// @param causal drop every entry above the diagonal
/// @param seed the random choice of blocks
/// @return the spec (not yet checked: attention_mask checks it)
AttentionMaskSpec block_sparse_spec(int rows, int cols, int block_size, double density, bool causal,
                                    std::uint64_t seed = 1);

/// @brief A sliding-window spec: |row - col| <= @p half_width, plus @p global whole rows and
/// columns.
/// @param rows rows of S
/// @param cols columns of S
/// @param half_width the band's half-width
/// @param global the first rows and columns kept whole
/// @param causal drop every entry above the diagonal
/// @return the spec (not yet checked)
AttentionMaskSpec sliding_window_spec(int rows, int cols, int half_width, int global, bool causal);

/// @brief A BigBird-style spec: a sliding window with global rows and columns, plus
/// @p random_per_row random columns in each other row.
/// @param rows rows of S
/// @param cols columns of S
/// @param half_width the band's half-width
/// @param global the first rows and columns kept whole
/// @param random_per_row random columns added to each non-global row
/// @param seed the random choice of columns
/// @return the spec (not yet checked)
AttentionMaskSpec bigbird_spec(int rows, int cols, int half_width, int global, int random_per_row,
                               std::uint64_t seed = 1);

/// @brief Checks @p spec; throws std::invalid_argument naming the first bad parameter and its
/// allowed range (sizes from 1; block size from 1 to max(rows, cols); block density in
/// (0, 1]; half-width from 0 to max(rows, cols) - 1; global from 0 to min(rows, cols);
/// random per row from 0 to cols; at most INT_MAX entries, the limit of CSR's int offsets).
/// @param spec the mask
void check_attention_mask(const AttentionMaskSpec& spec);

/// @brief Number of blocks a block-sparse mask keeps: block_density times the blocks it may
/// choose from (all of them; causal: those with an element on or below the diagonal),
/// rounded to nearest, at least one.
/// @param spec a block_sparse spec (checked)
/// @return the number of whole blocks (cut by the edges) in the mask
std::uint64_t attention_block_count(const AttentionMaskSpec& spec);

/// @brief The most entries the mask can hold, without building it: exact for a sliding
/// window; block-sparse counts every kept block whole; BigBird adds random_per_row to each
/// non-global row. For memory estimates and the INT_MAX check. Cheap for any size: rows with
/// equal counts are added at once; above INT_MAX it stops counting.
/// @param spec the mask (its sizes and parameters in range)
/// @return the bound, exact up to INT_MAX; any value above INT_MAX means "too many"
std::uint64_t attention_mask_max_nnz(const AttentionMaskSpec& spec);

/// @brief Builds the mask.
///
/// block_sparse: the blocks of the grid ceil(rows / block_size) × ceil(cols / block_size)
/// are chosen uniformly at random, attention_block_count() of them (causal: among the blocks
/// that reach the diagonal); each kept block is whole, cut at the matrix edge, and causal
/// cuts the blocks on the diagonal to their lower triangle.
/// sliding_window: (row, col) with |row - col| <= half_width, every column of the first
/// `global` rows and every row of the first `global` columns.
/// bigbird: the sliding window, plus in each non-global row min(random_per_row, free)
/// distinct random columns among those the row does not hold yet (causal: among col <= row).
/// @param spec the mask; checked first (check_attention_mask)
/// @return S, sorted row-major, every value 1.0f
CooMatrix attention_mask(const AttentionMaskSpec& spec);

/// @brief A name for tables and files, e.g. `block_16384_b128_d0.05`,
/// `window_8192_w256_g0_causal`, `bigbird_16384_w64_g32_r64` (rows×cols when not square).
/// @param spec the mask
/// @return the name
std::string attention_mask_name(const AttentionMaskSpec& spec);

/// @brief Parses the kind's command-line name: block-sparse, sliding-window or bigbird.
/// @param name the name
/// @return the kind; throws std::invalid_argument listing the names otherwise
AttentionKind attention_kind_from_name(const std::string& name);

}  // namespace course
