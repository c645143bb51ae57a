// Step 5, approach 4 (lesson Part 2, "Column order"): the choice of panels and the sort.
// Read first: column_order.hpp (why column order), full_tile_search.cu (the list it sorts).
/// @file column_order.cu
/// @brief choose_column_ordered_panels() on the host, from the panel counts and spans that
/// came with the upload of S; order_by_column() on the GPU: one sort key per listed entry,
/// then CUB's radix sort of the list by those keys.
#include "column_order.hpp"
#include "common/cuda_check.hpp"
#include "launch_config.hpp"
#include "panel_classification.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace course::step5 {
namespace {

constexpr auto kPool = course::DeviceMemorySource::stream_pool;

/// @brief One thread per listed entry: its sort key, the panel in the high bits and, in an
/// ordered panel, the column in the low @p col_bits bits (0 in the other panels, whose
/// entries then keep S's order: the radix sort is stable).
/// @param listed the lane groups' entries
/// @param count their number
/// @param rows rows of S's entries
/// @param cols columns of S's entries
/// @param ordered one flag per panel (1: column order)
/// @param col_bits bits that hold a column
/// @param keys the keys, one per listed entry
__global__ void column_order_keys_kernel(const int* __restrict__ listed, std::int64_t count,
                                         const int* __restrict__ rows, const int* __restrict__ cols,
                                         const unsigned char* __restrict__ ordered, int col_bits,
                                         unsigned long long* __restrict__ keys) {
  const std::int64_t place = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (place >= count) {
    return;  // the last block's threads past the list's end
  }
  const int entry = listed[place];
  const int panel = rows[entry] / kPanelRows;
  const unsigned long long col = ordered[panel] != 0 ? static_cast<unsigned>(cols[entry]) : 0u;
  keys[place] = (static_cast<unsigned long long>(panel) << col_bits) | col;
}

/// Bits that hold every value below @p limit (at least 1).
int bits_below(std::int64_t limit) {
  int bits = 1;
  while ((std::int64_t{1} << bits) < limit) {
    ++bits;
  }
  return bits;
}

}  // namespace

std::vector<unsigned char> choose_column_ordered_panels(const DevicePattern& pattern,
                                                        const std::vector<std::int64_t>& counts,
                                                        const std::vector<int>& panel_slot,
                                                        const Options& options) {
  std::vector<unsigned char> ordered(counts.size(), 0);
  if (options.column_order_reuse <= 0.0 || pattern.nnz() > INT_MAX) {
    return {};  // switched off, or entries beyond the int list
  }
  const std::vector<PanelSpan>& spans = pattern.panel_spans();
  std::int64_t ordered_entries = 0;
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    const bool dense = !panel_slot.empty() && panel_slot[panel] != 0;
    if (dense || counts[panel] == 0) {
      continue;  // the Tensor Core kernel computes it, or the lane groups have nothing here
    }
    const double span_cols = spans[panel].last_col - spans[panel].first_col + 1;
    if (static_cast<double>(counts[panel]) < options.column_order_reuse * span_cols) {
      continue;  // too few entries per column to share rows of Bᵀ: S's order
    }
    ordered[panel] = 1;
    ordered_entries += counts[panel];
  }
  if (ordered_entries == 0 || ordered_entries < options.column_order_min_nnz) {
    return {};  // the lane groups finish in about one wave: the sort would not pay
  }
  return ordered;
}

void order_by_column(const DevicePattern& pattern, const std::vector<unsigned char>& ordered,
                     course::DeviceBuffer<int>& listed) {
  const auto count = static_cast<std::int64_t>(listed.size());
  if (count == 0) {
    return;  // nothing to sort
  }
  const int col_bits = bits_below(pattern.cols());
  const int end_bit = col_bits + bits_below(static_cast<std::int64_t>(ordered.size()));
  course::DeviceBuffer<unsigned char> flags(ordered.size(), "the column-order flags", kPool);
  flags.upload(ordered.data(), ordered.size());
  course::DeviceBuffer<unsigned long long> keys(static_cast<std::size_t>(count) * 2,
                                                "the column-order keys", kPool);
  course::DeviceBuffer<int> sorted(count, "the lane groups' entries in column order", kPool);
  column_order_keys_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(
      listed.data(), count, pattern.row_indices(), pattern.col_indices(), flags.data(), col_bits,
      keys.data());
  CUDA_CHECK_LAUNCH(column_order_keys_kernel);
  unsigned long long* keys_in = keys.data();
  unsigned long long* keys_out = keys.data() + count;
  std::size_t sort_bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_in, keys_out, listed.data(),
                                             sorted.data(), static_cast<int>(count), 0, end_bit));
  course::DeviceBuffer<unsigned char> temporary(std::max<std::size_t>(sort_bytes, 1),
                                                "CUB temporary storage", kPool);
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temporary.data(), sort_bytes, keys_in, keys_out,
                                             listed.data(), sorted.data(), static_cast<int>(count),
                                             0, end_bit));
  listed = std::move(sorted);  // the unsorted list is freed in stream order
}

}  // namespace course::step5
