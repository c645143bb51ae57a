/// @file full_tile_search.cu
/// @brief find_full_tiles() and list_remaining_entries(): the search for full 64×64 tiles on
/// the GPU (count the candidates, write them, check their rows) and the list of the entries
/// left to the lane groups.
///
/// Step 5, approach 4 (going further, "Full tiles"): the plan's search, step by step.
/// Read first: full_tiles.hpp, then full_tile_search.cuh (the kernels).
///
/// Why 64×64: it is the block tile of the Tensor Core kernels (BlockTileProduct), one panel
/// high, so a full tile and a dense panel never share rows halfway. A block-sparse mask of
/// 64×64 or 128×128 blocks is made of whole tiles; a sliding window of ±128 has three full
/// tiles in each row of tiles along its band.
///
/// Why a threshold (HybridOptions::full_tile_min_nnz, 65 536 entries, 16 tiles): the search costs
/// a pass over S and one read-back, and below about 16 tiles the lane groups compute the
/// same entries in the time of the extra launches.
#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/full_tile_search.cuh"
#include "step5_tensor_core_sddmm/going_further/full_tiles.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace course::step5 {
namespace {

constexpr auto kPool = course::DeviceMemorySource::stream_pool;

/// The most candidates S can have, or 0 when S cannot hold full tiles worth the search.
/// A candidate is a whole tile row in the first row of a panel, and different candidates of
/// a panel use different entries: a panel of n entries has at most n / min(64, cols) + 1 of
/// them (the +1: a narrower tile at the right edge), and at most one per column block. The
/// full tiles themselves lie in panels that hold at least a tile's worth of entries (its rows
/// times min(64, cols)), so when those panels together hold fewer than @p min_nnz entries,
/// no set of full tiles reaches the threshold and nothing runs on the GPU.
std::int64_t candidate_bound(const DevicePattern& pattern, const std::vector<std::int64_t>& counts,
                             long long min_nnz) {
  const std::int64_t width = std::min(kFullTileEdge, pattern.cols());
  const std::int64_t col_blocks = course::ceil_div<std::int64_t>(pattern.cols(), kFullTileEdge);
  std::int64_t bound = 0;
  std::int64_t in_eligible_panels = 0;
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    const std::int64_t rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    if (counts[panel] >= rows * width) {
      in_eligible_panels += counts[panel];
    }
    bound += std::min(col_blocks, counts[panel] / width + 1);
  }
  const bool worth_it = in_eligible_panels > 0 && in_eligible_panels >= min_nnz;
  return worth_it ? bound : 0;
}

}  // namespace

FullTileSearch find_full_tiles(const DevicePattern& pattern,
                               const std::vector<std::int64_t>& panel_nnz,
                               const HybridOptions& options) {
  FullTileSearch search;
  const std::int64_t nnz = pattern.nnz();
  if (!options.full_tiles || nnz == 0 || nnz > INT_MAX) {
    return search;  // switched off, nothing to cover, or entries beyond int indices
  }
  const std::int64_t capacity = candidate_bound(pattern, panel_nnz, options.full_tile_min_nnz);
  if (capacity == 0) {
    return search;  // no full tile is possible or worth it: nothing runs on the GPU
  }
  // One pass appends the candidates (and finds repeated entries), one warp per candidate
  // checks its rows; one read-back brings every count.
  const std::size_t panel_count = panel_nnz.size();
  course::DeviceBuffer<unsigned long long> counts(kPanelsFrom + panel_count,
                                                  "the full-tile search's counts", kPool);
  CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), nullptr));
  course::DeviceBuffer<FullTileCandidate> candidates(capacity, "full-tile candidates", kPool);
  full_tile_candidates_kernel<<<blocks_for(nnz, kThreadsPerBlock), kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), nnz, pattern.cols(), capacity, counts.data(),
      candidates.data());
  CUDA_CHECK_LAUNCH(full_tile_candidates_kernel);
  search.tiles = course::DeviceBuffer<FullTile>(capacity, "the full tiles", kPool);
  search.row_starts = course::DeviceBuffer<int>(static_cast<std::size_t>(capacity) * kFullTileEdge,
                                                "the full tiles' row starts", kPool);
  search.covered = course::DeviceBuffer<unsigned char>(nnz, "the entries inside full tiles", kPool);
  CUDA_CHECK(cudaMemsetAsync(search.covered.data(), 0, search.covered.bytes(), nullptr));
  full_tile_check_kernel<<<blocks_for(capacity * 32, kThreadsPerBlock), kThreadsPerBlock>>>(
      candidates.data(), capacity, pattern.row_indices(), pattern.col_indices(), nnz,
      pattern.rows(), pattern.cols(), search.tiles.data(), search.row_starts.data(), counts.data(),
      search.covered.data());
  CUDA_CHECK_LAUNCH(full_tile_check_kernel);
  const std::vector<unsigned long long> counted = counts.to_vector();
  std::int64_t covered_total = 0;
  search.covered_per_panel.assign(panel_count, 0);
  for (std::size_t panel = 0; panel < panel_count; ++panel) {
    search.covered_per_panel[panel] = static_cast<std::int64_t>(counted[kPanelsFrom + panel]);
    covered_total += search.covered_per_panel[panel];
  }
  const bool overflow = counted[kCandidates] > static_cast<unsigned long long>(capacity);
  if (counted[kRepeats] != 0 || overflow || counted[kTiles] == 0 ||
      covered_total < options.full_tile_min_nnz) {
    // Repeated entries (a tile row is then not consecutive in S), a broken bound (kept
    // safe), or too few full tiles to pay for their launch.
    return {};
  }
  search.tile_count = static_cast<std::int64_t>(counted[kTiles]);
  return search;
}

course::DeviceBuffer<int> list_remaining_entries(const DevicePattern& pattern,
                                                 const FullTileSearch& search,
                                                 const int* panel_slot, std::int64_t count) {
  course::DeviceBuffer<int> listed(count, "the entries left to the lane groups", kPool);
  if (count == 0) {
    return listed;
  }
  const std::int64_t nnz = pattern.nnz();
  const unsigned blocks = blocks_for(nnz, kThreadsPerBlock);
  course::DeviceBuffer<int> places(nnz, "the places of the lane groups' entries", kPool);
  remaining_entries_kernel<<<blocks, kThreadsPerBlock>>>(
      pattern.row_indices(), nnz, search.covered.data(), panel_slot, places.data());
  CUDA_CHECK_LAUNCH(remaining_entries_kernel);
  std::size_t scan_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, places.data(), places.data(),
                                           static_cast<int>(nnz)));
  course::DeviceBuffer<unsigned char> temporary(std::max<std::size_t>(scan_bytes, 1),
                                                "CUB temporary storage", kPool);
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temporary.data(), scan_bytes, places.data(),
                                           places.data(), static_cast<int>(nnz)));
  list_entries_kernel<<<blocks, kThreadsPerBlock>>>(
      pattern.row_indices(), nnz, search.covered.data(), panel_slot, places.data(), listed.data());
  CUDA_CHECK_LAUNCH(list_entries_kernel);
  return listed;
}

}  // namespace course::step5
