// Step 5, experiments (lesson Part 2, "Full tiles"): small attention masks for the full-tile
// measurement. Read first: full_tiles.hpp (what the masks exercise).
/// @file attention_masks.hpp
/// @brief The attention masks that full_tile_bench measures approach 4's full tiles on:
/// block-sparse (optionally causal), sliding window with global rows and columns, and a
/// BigBird-style mix. Local to the experiment; every mask is a CSR pattern, sorted, one
/// entry per position.
#pragma once

#include "common/sparse_matrix.hpp"

#include <cstdint>

namespace course::step5::experiments {

/// @brief size×size mask of block×block blocks, each kept with probability @p density
/// (a hash of @p seed and the block); with @p causal only blocks on or below the diagonal,
/// the diagonal ones cut to col <= row.
/// @param size rows and columns
/// @param block edge of a block
/// @param density share of the blocks kept
/// @param causal keep nothing above the diagonal
/// @param seed seed of the choice
/// @return the mask
course::CsrMatrix block_sparse_mask(int size, int block, double density, bool causal,
                                    std::uint64_t seed);

/// @brief size×size mask: |row - col| <= @p half_width, plus the first @p global rows and
/// columns whole.
/// @param size rows and columns
/// @param half_width the window reaches this far on each side
/// @param global rows and columns that attend to and from everything
/// @return the mask
course::CsrMatrix sliding_window_mask(int size, int half_width, int global);

/// @brief The sliding window of @p half_width and @p global rows and columns, plus
/// @p random_per_row random columns in each row (BigBird).
/// @param size rows and columns
/// @param half_width the window reaches this far on each side
/// @param global rows and columns that attend to and from everything
/// @param random_per_row random columns added to each row
/// @param seed seed of the random columns
/// @return the mask
course::CsrMatrix bigbird_mask(int size, int half_width, int global, int random_per_row,
                               std::uint64_t seed);

}  // namespace course::step5::experiments
