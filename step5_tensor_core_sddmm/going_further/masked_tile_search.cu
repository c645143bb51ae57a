/// @file masked_tile_search.cu
/// @brief find_masked_tiles() (row offsets, candidates, descriptors), group_masked_tiles()
/// (CUB: sort the tiles by super-panel and tile column, run-length encode the steps, cut
/// items) and list_entries_outside() (CUB: select the lane groups' entries).
///
/// Step 5, going further: the search for masked tiles, step by step.
/// Read first: masked_tiles.hpp, then masked_tile_search.cuh (the kernels).
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tile_search.cuh"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace course::step5 {
namespace {

constexpr auto kPool = course::DeviceMemorySource::stream_pool;

/// CUB's temporary storage: asks its size with a null pointer, allocates, then runs.
template <typename Call>
void run_cub(const Call& call, const char* what) {
  std::size_t bytes = 0;
  CUDA_CHECK(call(nullptr, bytes));
  course::DeviceBuffer<unsigned char> temporary(std::max<std::size_t>(bytes, 1), what, kPool);
  CUDA_CHECK(call(temporary.data(), bytes));
}

int significant_bits(std::uint64_t largest) {
  int bits = 1;
  while (bits < 64 && (largest >> bits) != 0) {
    ++bits;
  }
  return bits;
}

/// Reads back @p count counters.
std::vector<unsigned long long> read_counts(
    const course::DeviceBuffer<unsigned long long>& counts) {
  return counts.to_vector();
}

}  // namespace

std::size_t MaskedTiles::bytes() const {
  return starts.bytes() + masks.bytes() + keys.bytes() + outside.bytes() + step_cols.bytes() +
         step_super_panels.bytes() + step_tiles.bytes() + item_first_steps.bytes() +
         lane_values.bytes();
}

MaskedTiles find_masked_tiles(const DevicePattern& pattern, const TileThreshold& threshold,
                              int panels, const MaskedExclusion& exclusion) {
  if (panels != 1 && panels != 2 && panels != 4) {
    throw std::invalid_argument("masked tiles group 1, 2 or 4 panels, got " +
                                std::to_string(panels));
  }
  if (threshold.min_run < 1 || threshold.min_entries < 1) {
    throw std::invalid_argument("a masked tile's threshold needs at least one entry");
  }
  MaskedTiles tiles;
  tiles.panels = panels;
  const std::int64_t nnz = pattern.nnz();
  if (nnz == 0 || nnz > INT_MAX) {
    return tiles;  // nothing to cover, or positions beyond the descriptors' int starts
  }
  tiles.outside =
      course::DeviceBuffer<unsigned char>(nnz, "the entries outside masked tiles", kPool);
  const unsigned entry_blocks = blocks_for(nnz, kThreadsPerBlock);
  if (exclusion.covered == nullptr && exclusion.panel_slot == nullptr) {
    CUDA_CHECK(cudaMemsetAsync(tiles.outside.data(), 1, tiles.outside.bytes(), nullptr));
  } else {
    exclusion_flags_kernel<<<entry_blocks, kThreadsPerBlock>>>(pattern.row_indices(), nnz,
                                                               exclusion, tiles.outside.data());
    CUDA_CHECK_LAUNCH(exclusion_flags_kernel);
  }
  course::DeviceBuffer<unsigned long long> counts(kMaskedCountSlots, "the masked tiles' counts",
                                                  kPool);
  CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), nullptr));
  // Room for the candidates: a sixteenth of the entries (one run of 16 per tile row) or a
  // million, whichever is more, and the exact count when that was too little (a second pass).
  std::int64_t capacity = std::min<std::int64_t>(nnz / threshold.min_run + 1,
                                                 std::max<std::int64_t>(nnz / 16, 1 << 20));
  course::DeviceBuffer<MaskedCandidate> candidates(capacity, "masked-tile candidates", kPool);
  course::DeviceBuffer<int> offsets(static_cast<std::size_t>(pattern.rows()) + 1, "S's row offsets",
                                    kPool);
  row_offsets_kernel<<<entry_blocks, kThreadsPerBlock>>>(pattern.row_indices(), nnz, pattern.rows(),
                                                         offsets.data());
  CUDA_CHECK_LAUNCH(row_offsets_kernel);
  const auto find_candidates = [&] {
    candidate_rows_kernel<<<entry_blocks, kThreadsPerBlock>>>(
        pattern.row_indices(), pattern.col_indices(), offsets.data(), tiles.outside.data(), nnz,
        threshold.min_run, capacity, counts.data(), candidates.data());
    CUDA_CHECK_LAUNCH(candidate_rows_kernel);
    return static_cast<std::int64_t>(read_counts(counts)[kCandidateCount]);
  };
  std::int64_t candidate_count = find_candidates();
  if (candidate_count > capacity) {
    capacity = candidate_count;
    candidates = course::DeviceBuffer<MaskedCandidate>(capacity, "masked-tile candidates", kPool);
    CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), nullptr));
    candidate_count = find_candidates();
  }
  if (candidate_count == 0) {
    return tiles;  // no row holds a long enough run: no tile can be dense enough
  }
  tiles.starts = course::DeviceBuffer<int>(candidate_count * kMaskedTileEdge,
                                           "the masked tiles' row starts", kPool);
  tiles.masks = course::DeviceBuffer<std::uint16_t>(candidate_count * kMaskedTileEdge,
                                                    "the masked tiles' row masks", kPool);
  tiles.keys =
      course::DeviceBuffer<std::uint64_t>(candidate_count, "the masked tiles' keys", kPool);
  const int tile_cols = (pattern.cols() + kMaskedTileEdge - 1) / kMaskedTileEdge;
  tile_descriptor_kernel<<<blocks_for(candidate_count * 32, kThreadsPerBlock), kThreadsPerBlock>>>(
      candidates.data(), candidate_count, pattern.col_indices(), offsets.data(), pattern.rows(),
      tile_cols, threshold.min_run, threshold.min_entries, panels,
      MaskedTileOutputs{tiles.starts.data(), tiles.masks.data(), tiles.keys.data(),
                        tiles.outside.data(), counts.data()});
  CUDA_CHECK_LAUNCH(tile_descriptor_kernel);
  const std::vector<unsigned long long> counted = read_counts(counts);
  tiles.tile_count = static_cast<std::int64_t>(counted[kTileCount]);
  tiles.covered = static_cast<std::int64_t>(counted[kCoveredCount]);
  return tiles;
}

namespace {

/// The tiles' keys sorted (super-panel, then tile column, then panel), and each sorted key's
/// tile.
struct SortedTiles {
  course::DeviceBuffer<std::uint64_t> keys;  ///< the keys in order
  course::DeviceBuffer<int> order;           ///< the tile of each sorted key
};

/// 1. The tiles sorted by key, on the bits a key can use (fewer radix passes for small S).
SortedTiles sort_tiles(const MaskedTiles& tiles, int rows, int tile_cols) {
  const std::int64_t count = tiles.tile_count;
  const int panels = tiles.panels;
  SortedTiles sorted{course::DeviceBuffer<std::uint64_t>(count, "sorted tile keys", kPool),
                     course::DeviceBuffer<int>(count, "tiles in sorted order", kPool)};
  course::DeviceBuffer<int> ids(count, "tile ids", kPool);
  tile_ids_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(count, ids.data());
  CUDA_CHECK_LAUNCH(tile_ids_kernel);
  const std::uint64_t super_panels =
      (static_cast<std::uint64_t>(rows) + kMaskedTileEdge * panels - 1) /
      (kMaskedTileEdge * panels);
  const int end_bit = significant_bits(
      std::max<std::uint64_t>(super_panels * static_cast<std::uint64_t>(tile_cols) * panels, 2) -
      1);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(storage, bytes, tiles.keys.data(),
                                               sorted.keys.data(), ids.data(), sorted.order.data(),
                                               count, 0, end_bit);
      },
      "CUB temporary storage (tile sort)");
  return sorted;
}

/// 2. The steps: runs of equal (super-panel, tile column) of the sorted keys. Fills the step
/// arrays and step_count of @p tiles; returns each step's flag of a super-panel's first step
/// (fill_steps_kernel's heads).
course::DeviceBuffer<int> build_steps(MaskedTiles& tiles, const SortedTiles& sorted,
                                      int tile_cols) {
  const std::int64_t count = tiles.tile_count;
  const int panels = tiles.panels;
  course::DeviceBuffer<std::uint64_t> step_keys(count, "step keys", kPool);
  step_keys_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(
      sorted.keys.data(), count, panels, step_keys.data());
  CUDA_CHECK_LAUNCH(step_keys_kernel);
  course::DeviceBuffer<std::uint64_t> unique_keys(count, "unique step keys", kPool);
  course::DeviceBuffer<int> lengths(count, "tiles per step", kPool);
  course::DeviceBuffer<int> step_count(1, "step count", kPool);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceRunLengthEncode::Encode(storage, bytes, step_keys.data(),
                                                  unique_keys.data(), lengths.data(),
                                                  step_count.data(), count);
      },
      "CUB temporary storage (steps)");
  int steps = 0;
  step_count.download(&steps, 1);
  tiles.step_count = steps;
  course::DeviceBuffer<int> step_offsets(steps, "each step's first tile", kPool);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(storage, bytes, lengths.data(), step_offsets.data(),
                                             steps);
      },
      "CUB temporary storage (step offsets)");
  tiles.step_cols = course::DeviceBuffer<int>(steps, "the steps' tile columns", kPool);
  tiles.step_super_panels = course::DeviceBuffer<int>(steps, "the steps' super-panels", kPool);
  tiles.step_tiles = course::DeviceBuffer<int>(static_cast<std::size_t>(steps) * panels,
                                               "the steps' tiles", kPool);
  course::DeviceBuffer<int> heads(steps, "the super-panels' first steps", kPool);
  fill_steps_kernel<<<blocks_for(steps, kThreadsPerBlock), kThreadsPerBlock>>>(
      StepTables{unique_keys.data(), step_offsets.data(), lengths.data(), sorted.keys.data(),
                 sorted.order.data(), tiles.step_cols.data(), tiles.step_super_panels.data(),
                 tiles.step_tiles.data(), heads.data()},
      steps, panels, tile_cols);
  CUDA_CHECK_LAUNCH(fill_steps_kernel);
  return heads;
}

/// 3. The items: every item_steps-th step of a super-panel, from its first, starts one.
/// Fills the item arrays of @p tiles.
void build_items(MaskedTiles& tiles, course::DeviceBuffer<int>& heads,
                 const std::function<int(std::int64_t steps)>& item_steps_for) {
  const int steps = static_cast<int>(tiles.step_count);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceScan::InclusiveScan(storage, bytes, heads.data(), heads.data(),
                                              cuda::maximum<>{}, steps);
      },
      "CUB temporary storage (super-panel starts)");
  const int item_steps = item_steps_for(steps);
  if (item_steps < 1 || item_steps > kMaxItemSteps) {
    throw std::invalid_argument("an item holds 1 to " + std::to_string(kMaxItemSteps) +
                                " steps, got " + std::to_string(item_steps));
  }
  tiles.item_steps = item_steps;
  course::DeviceBuffer<int> flags(static_cast<std::size_t>(steps) + 1, "item flags", kPool);
  course::DeviceBuffer<int> item_index(static_cast<std::size_t>(steps) + 1, "item index", kPool);
  const unsigned sentinel_blocks =
      blocks_for(static_cast<std::int64_t>(steps) + 1, kThreadsPerBlock);
  item_flags_kernel<<<sentinel_blocks, kThreadsPerBlock>>>(heads.data(), steps, item_steps,
                                                           flags.data());
  CUDA_CHECK_LAUNCH(item_flags_kernel);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceScan::ExclusiveSum(storage, bytes, flags.data(), item_index.data(),
                                             steps + 1);
      },
      "CUB temporary storage (items)");
  int items = 0;
  CUDA_CHECK(cudaMemcpy(&items, item_index.data() + steps, sizeof(int), cudaMemcpyDeviceToHost));
  tiles.item_count = items;
  tiles.item_first_steps = course::DeviceBuffer<int>(static_cast<std::size_t>(items) + 1,
                                                     "the items' first steps", kPool);
  item_starts_kernel<<<sentinel_blocks, kThreadsPerBlock>>>(flags.data(), item_index.data(), steps,
                                                            tiles.item_first_steps.data());
  CUDA_CHECK_LAUNCH(item_starts_kernel);
}

}  // namespace

void group_masked_tiles(MaskedTiles& tiles, int rows, int cols,
                        const std::function<int(std::int64_t steps)>& item_steps_for) {
  if (tiles.tile_count <= 0) {
    throw std::invalid_argument("group_masked_tiles needs at least one tile");
  }
  const int tile_cols = (cols + kMaskedTileEdge - 1) / kMaskedTileEdge;
  const SortedTiles sorted = sort_tiles(tiles, rows, tile_cols);
  course::DeviceBuffer<int> heads = build_steps(tiles, sorted, tile_cols);
  build_items(tiles, heads, item_steps_for);
  tiles.keys = {};  // sorted into the steps: no longer needed (freed in stream order)
}

course::DeviceBuffer<int> list_entries_outside(const MaskedTiles& tiles, std::int64_t nnz,
                                               std::int64_t count) {
  if (tiles.outside.size() != static_cast<std::size_t>(nnz)) {
    throw std::logic_error("list_entries_outside needs one flag per entry of S");
  }
  // The flags are counted first, so that the list is never written past its end: a count
  // that differs from the caller's is a bug in the plan's arithmetic, refused here.
  course::DeviceBuffer<int> flagged(1, "the lane groups' entry count", kPool);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceReduce::Reduce(storage, bytes, tiles.outside.data(), flagged.data(), nnz,
                                         cuda::std::plus<int>{}, 0);
      },
      "CUB temporary storage (the lane groups' entry count)");
  int counted = 0;
  flagged.download(&counted, 1);
  if (counted != count) {
    throw std::logic_error("the lane groups' list holds " + std::to_string(counted) +
                           " entries, the plan counted " + std::to_string(count));
  }
  course::DeviceBuffer<int> listed(count, "the entries left to the lane groups", kPool);
  if (count == 0) {
    return listed;
  }
  const thrust::counting_iterator<int> positions(0);
  run_cub(
      [&](void* storage, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(storage, bytes, positions, tiles.outside.data(),
                                          listed.data(), flagged.data(), nnz);
      },
      "CUB temporary storage (the lane groups' entries)");
  return listed;
}

}  // namespace course::step5
