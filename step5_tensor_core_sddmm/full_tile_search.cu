// Step 5, approach 4 (lesson Part 2, "Full tiles"): the plan's search, step by step.
// Read first: full_tiles.hpp, then full_tile_search.cuh (the kernels).
/// @file full_tile_search.cu
/// @brief find_full_tiles() and list_remaining_entries(): the search for full 64×64 tiles on
/// the GPU (count the candidates, write them, check their rows) and the list of the entries
/// left to the lane groups.
///
/// Why 64×64: it is the block tile of the Tensor Core kernels (BlockTileProduct), one panel
/// high, so a full tile and a dense panel never share rows halfway. A block-sparse mask of
/// 64×64 or 128×128 blocks is made of whole tiles; a sliding window of ±128 has three full
/// tiles in each row of tiles along its band.
///
/// Why a threshold (Options::full_tile_min_nnz, 65 536 entries, 16 tiles): the search costs
/// a pass over S and one read-back, and below about 16 tiles the lane groups compute the
/// same entries in the time of the extra launches.
#include "common/cuda_check.hpp"
#include "full_tile_search.cuh"
#include "full_tiles.hpp"
#include "launch_config.hpp"
#include "panel_classification.cuh"

#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace course::step5 {
namespace {

constexpr auto kPool = course::DeviceMemorySource::stream_pool;

/// Whether some 64-row panel holds as many entries as a full tile has (the tile's rows inside
/// the matrix times min(64, columns)): without one, S holds no full tile and the search is
/// skipped without touching the GPU.
bool some_panel_can_hold_a_tile(const DevicePattern& pattern) {
  const std::vector<std::int64_t>& counts = pattern.panel_nnz();
  const std::int64_t width = std::min(kFullTileEdge, pattern.cols());
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    const std::int64_t rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    if (counts[panel] >= rows * width) {
      return true;
    }
  }
  return false;
}

}  // namespace

FullTileSearch find_full_tiles(const DevicePattern& pattern, const Options& options) {
  FullTileSearch search;
  const std::int64_t nnz = pattern.nnz();
  if (!options.full_tiles || nnz == 0 || nnz < options.full_tile_min_nnz || nnz > INT_MAX ||
      !some_panel_can_hold_a_tile(pattern)) {
    return search;  // no full tile is possible or wanted: nothing runs on the GPU
  }
  // Pass 1 counts the candidates (and finds repeated entries), pass 2 writes them.
  const unsigned blocks = blocks_for(nnz, kThreadsPerBlock);
  course::DeviceBuffer<unsigned int> counters(2, "the counters of the full-tile search", kPool);
  CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, counters.bytes(), nullptr));
  full_tile_candidates_kernel<<<blocks, kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), nnz, pattern.cols(), counters.data(), nullptr);
  CUDA_CHECK_LAUNCH(full_tile_candidates_kernel);
  unsigned int counted[2] = {0, 0};
  CUDA_CHECK(cudaMemcpy(counted, counters.data(), sizeof(counted), cudaMemcpyDeviceToHost));
  if (counted[0] == 0 || counted[1] != 0) {
    return search;  // no candidate, or repeated entries (a tile row is then not consecutive)
  }
  const auto candidate_count = static_cast<int>(counted[0]);
  course::DeviceBuffer<FullTileCandidate> candidates(candidate_count, "full-tile candidates",
                                                     kPool);
  CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, sizeof(unsigned int), nullptr));
  full_tile_candidates_kernel<<<blocks, kThreadsPerBlock>>>(
      pattern.row_indices(), pattern.col_indices(), nnz, pattern.cols(), counters.data(),
      candidates.data());
  CUDA_CHECK_LAUNCH(full_tile_candidates_kernel);

  const std::size_t panel_count = pattern.panel_nnz().size();
  search.tiles = course::DeviceBuffer<FullTile>(candidate_count, "the full tiles", kPool);
  search.row_starts =
      course::DeviceBuffer<int>(static_cast<std::size_t>(candidate_count) * kFullTileEdge,
                                "the full tiles' row starts", kPool);
  search.covered = course::DeviceBuffer<unsigned char>(nnz, "the entries inside full tiles", kPool);
  CUDA_CHECK(cudaMemsetAsync(search.covered.data(), 0, search.covered.bytes(), nullptr));
  course::DeviceBuffer<unsigned long long> counts(1 + panel_count, "the full tiles' counts", kPool);
  CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), nullptr));
  full_tile_check_kernel<<<blocks_for(std::int64_t{candidate_count} * 32, kThreadsPerBlock),
                           kThreadsPerBlock>>>(
      candidates.data(), candidate_count, pattern.row_indices(), pattern.col_indices(), nnz,
      pattern.rows(), pattern.cols(), search.tiles.data(), search.row_starts.data(), counts.data(),
      search.covered.data());
  CUDA_CHECK_LAUNCH(full_tile_check_kernel);
  std::vector<unsigned long long> counted_tiles(1 + panel_count);
  CUDA_CHECK(
      cudaMemcpy(counted_tiles.data(), counts.data(), counts.bytes(), cudaMemcpyDeviceToHost));
  std::int64_t covered_total = 0;
  search.covered_per_panel.assign(panel_count, 0);
  for (std::size_t panel = 0; panel < panel_count; ++panel) {
    search.covered_per_panel[panel] = static_cast<std::int64_t>(counted_tiles[1 + panel]);
    covered_total += search.covered_per_panel[panel];
  }
  if (counted_tiles[0] == 0 || covered_total < options.full_tile_min_nnz) {
    return {};  // too few full tiles to pay for their launch
  }
  search.tile_count = static_cast<std::int64_t>(counted_tiles[0]);
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
