// Step 5, approach 4 (lesson Part 2, "Column order"): the order in which the lane groups
// take the entries of a panel whose columns repeat.
// Read first: sddmm_hybrid.cuh (the lane groups), full_tiles.hpp (their list).
/// @file column_order.hpp
/// @brief Approach 4's column order: the lane groups compute the entries of a sparse panel
/// whose columns repeat column by column instead of row by row, so that the entries sharing
/// a row of Bᵀ run one after the other and read it from L1 instead of L2.
///
/// Why: in S's order (row by row) each entry reads its own row of Bᵀ (512 bytes at inner =
/// 256), and the next entry of the same column is a whole row of S later, in another block
/// on another SM. On a short wide mask like 2000×12000 at 3 % a 64-row panel holds two
/// entries per column, so half of those reads are repeats; on a sliding window nearly all of
/// them are. Column by column, the entries of one column are neighbours in a run of lane
/// groups: their row of Bᵀ is read from L2 once and then hit in L1, while the panel's 64 rows
/// of A (32 KiB at inner = 256) stay in L1 for the whole panel.
///
/// Why not always: on the very sparse matrices of the benchmark a column holds an entry in
/// a few panels at most, so there is nothing to share, and the list costs an index load per
/// entry. A panel is ordered by column when it holds at least Options::column_order_reuse
/// entries per column it spans (the mean number of entries that share a row of Bᵀ), and
/// only when the ordered panels hold Options::column_order_min_nnz entries together (below,
/// the lane groups finish in one wave and the sort's launches are not paid back).
#pragma once

#include "common/matrix.hpp"
#include "step5_launchers.hpp"

#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief Which panels the lane groups compute column by column.
/// @param pattern S on the device (its panel spans)
/// @param counts the entries of each panel the lane groups compute (after the full tiles)
/// @param panel_slot the plan's 1 + slot of each panel (0: sparse), empty when none is dense
/// @param options column_order_reuse and column_order_min_nnz
/// @return one flag per panel (1: column order), or an empty vector when no panel is
/// ordered
std::vector<unsigned char> choose_column_ordered_panels(const DevicePattern& pattern,
                                                        const std::vector<std::int64_t>& counts,
                                                        const std::vector<int>& panel_slot,
                                                        const Options& options);

/// @brief Sorts the lane groups' list so that the entries of each ordered panel come column
/// by column (rows in S's order within a column) and the other panels keep S's order; the
/// panels stay in S's order. Runs on the GPU (one key per entry, then CUB's radix sort).
/// @param pattern S on the device
/// @param ordered the flags of choose_column_ordered_panels (not empty)
/// @param listed the lane groups' entries, in S's order (list_remaining_entries); sorted in
/// place
void order_by_column(const DevicePattern& pattern, const std::vector<unsigned char>& ordered,
                     course::DeviceBuffer<int>& listed);

}  // namespace course::step5
