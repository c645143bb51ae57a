/// @file dense_strips.hpp
/// @brief The dense path cut into strips of rows: each strip's product is small enough to stay
/// in L2 between cuBLAS's GEMM that writes it and the gather that reads S's entries back, and
/// covers only the columns that the strip's entries span.
///
/// Step 5, going further: how the dense path computes the product a strip at a time.
/// Read first: dense_product_path.hpp (the path), panel_statistics.hpp (what a strip is made of).
///
/// The whole rows×cols product in one GEMM writes rows·cols floats to device memory and the
/// gather reads them back: on an 8192² mask that is 268 MB each way, more time than the GEMM
/// itself at inner 256. A strip of rows whose product fits in half the L2 is written to L2 and
/// read back from it before the next strip's GEMM overwrites the same buffer, so the product
/// never needs to reach device memory. A strip's columns are those its 64-row panels span
/// (PanelSpan): a causal mask's strips compute about half the product.
#pragma once

#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief One strip of the dense path: a block of rows, the columns their entries span, and
/// the range of S's entries (sorted row-major) that lie in it.
struct DenseStrip {
  int first_row = 0;       ///< first row of the strip
  int rows = 0;            ///< rows of the strip
  int first_col = 0;       ///< first column computed
  int cols = 0;            ///< columns computed (the product's leading dimension)
  std::int64_t begin = 0;  ///< first entry of S in the strip
  std::int64_t end = 0;    ///< one past the last entry of S in the strip
};

/// @brief The dense path's strips and what they need.
struct DenseStrips {
  int strip_rows = 0;              ///< rows per strip (the last may have fewer)
  int cols = 0;                    ///< columns of S (the widest a strip can be)
  bool in_l2 = false;              ///< a strip's product fits in the share of L2 kept for it
  std::vector<DenseStrip> strips;  ///< the strips holding entries, top to bottom
  /// @brief Floats of the buffer one strip's product is written to.
  /// @return strip_rows × cols
  std::int64_t buffer_floats() const { return static_cast<std::int64_t>(strip_rows) * cols; }
};

/// @brief Rows per strip: as many whole 64-row panels as fit half of @p l2_bytes of product
/// (the other half for A's and Bᵀ's rows and S's indices streaming through), at least
/// kMinDenseStripRows (a thinner GEMM leaves cuBLAS's tiles half empty), at most all of them.
/// @param l2_bytes the GPU's L2 (GpuDescription::l2_bytes)
/// @param rows rows of S
/// @param cols columns of S
/// @return rows per strip (a multiple of kPanelRows, or @p rows)
int dense_strip_rows(long long l2_bytes, int rows, int cols);

/// @brief The fewest rows per strip: four panels.
constexpr int kMinDenseStripRows = 4 * kPanelRows;

/// @brief Cuts S into strips of @p strip_rows rows from its panel statistics: each strip's
/// entries (the panels' counts summed: S is sorted row-major) and the columns its panels span,
/// widened to multiples of 8 (16-byte rows for cuBLAS); strips without entries are left out.
/// Throws std::invalid_argument when @p strip_rows is not a positive multiple of kPanelRows
/// or the statistics do not cover @p rows.
/// @param panels S's panel statistics
/// @param rows rows of S
/// @param cols columns of S
/// @param strip_rows rows per strip (dense_strip_rows, or an option's)
/// @param l2_bytes the GPU's L2, to say whether a strip's product fits in its share
/// @return the strips
DenseStrips plan_dense_strips(const PanelStatistics& panels, int rows, int cols, int strip_rows,
                              long long l2_bytes);

}  // namespace course::step5
