/// @file tile_cost_model.cpp
/// @brief The threshold of a Tensor Core tile, the masked-tile kernel's launch shape, and
/// the seconds of each path.
///
/// Step 5, going further: the cost model's arithmetic.
/// Read first: tile_cost_model.hpp.
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"

#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstdint>

namespace course::step5 {
namespace {

/// Bytes a lane group reads of S per nonzero besides the rows: its row, its column and its
/// place in the list of the lane groups' entries (4 bytes each), from memory.
constexpr double kIndexBytesPerEntry = 12.0;

/// A tile's fixed cost in bytes at the copy rate: its descriptor (16 starts and 16 masks,
/// 96 bytes), its place in the block's table and the masked store's partly used sectors.
/// Uncalibrated (an estimate) until the H100 round of issue 31.
constexpr double kTileFixedBytes = 384.0;

/// The most tile columns one stage holds (masked_tile_kernel's kMaxGroupSteps).
constexpr int kMaxGroupStepsModel = 4;

/// Shared memory the runtime reserves for each resident block (sm_80 and later: 1 KiB).
constexpr int kReservedPerBlock = 1024;

int blocks_per_sm(const GpuDescription& device, int shared_bytes, int panels) {
  const int by_shared = device.shared_bytes_per_sm / (shared_bytes + kReservedPerBlock);
  const int by_threads = 2048 / (32 * panels);
  return std::min({by_shared, by_threads, device.max_blocks_per_sm});
}

}  // namespace

double row_bytes(int inner) {
  return 2.0 * static_cast<double>((inner + 7) / 8 * 8);
}

TileThreshold tile_threshold(const DeviceRates& rates, int inner) {
  const double tile_seconds =
      (kMaskedTileEdge * row_bytes(inner) + kTileFixedBytes) / rates.tile_stream_bytes_per_second;
  const double entry_seconds = row_bytes(inner) / rates.l2_gather_bytes_per_second +
                               kIndexBytesPerEntry / rates.dram_bytes_per_second;
  TileThreshold threshold;
  threshold.min_entries = std::clamp(static_cast<int>(std::ceil(tile_seconds / entry_seconds)), 1,
                                     kMaskedTileEdge * kMaskedTileEdge);
  threshold.min_run = std::max(2, (threshold.min_entries + kMaskedTileEdge - 1) / kMaskedTileEdge);
  return threshold;
}

int masked_tile_chunk(int inner) {
  return std::clamp(wmma_padded(inner), kWmmaDepth, kMaskedMaxChunk);
}

int masked_group_steps(int inner) {
  const int chunk = masked_tile_chunk(inner);
  if (chunk < wmma_padded(inner)) {
    return 1;  // several chunks: one tile column per stage
  }
  return std::clamp(kMaskedMaxChunk / chunk, 1, kMaxGroupStepsModel);
}

int masked_tile_shared_bytes(int panels, int stages, int inner, int item_steps, int group_steps) {
  const int a_ld = wmma_padded(inner) + kMaskedTilePad;
  const int a_bytes = panels * kMaskedTileEdge * a_ld * 2;
  const int stage_ld = masked_tile_chunk(inner) + kMaskedTilePad;
  const int stage_bytes = stages * group_steps * kMaskedTileEdge * stage_ld * 2;
  const int table_bytes = item_steps * (1 + panels) * 4;
  return a_bytes + stage_bytes + table_bytes;
}

TileCopies masked_tile_copies(const GpuDescription& device, bool compiled_with_async_copy) {
  return has_async_copies(device) && compiled_with_async_copy ? TileCopies::async
                                                              : TileCopies::synchronous;
}

int masked_tile_stages(const GpuDescription& device, TileCopies copies, int inner, int panels,
                       int group, int stages_wanted) {
  if (copies != TileCopies::async) {
    return 2;
  }
  if (stages_wanted != 0) {
    return std::clamp(stages_wanted, 2, 4);
  }
  const auto resident = [&](int stages) {
    return blocks_per_sm(
        device, masked_tile_shared_bytes(panels, stages, inner, kMaxItemSteps, group), panels);
  };
  int stages = 4;
  while (stages > 2 && resident(stages) < resident(2)) {
    --stages;
  }
  return stages;
}

MaskedTileShape choose_masked_tile_shape(const GpuDescription& device, TileCopies copies, int inner,
                                         int panels_wanted, int group_wanted, int stages_wanted) {
  MaskedTileShape shape;
  const bool several_chunks = masked_tile_chunk(inner) < wmma_padded(inner);
  const int most_group = several_chunks      ? 1
                         : group_wanted == 0 ? masked_group_steps(inner)
                                             : std::clamp(group_wanted, 1, kMaxGroupStepsModel);
  for (const int panels : {4, 2, 1}) {
    if (panels_wanted != 0 && panels != panels_wanted) {
      continue;
    }
    for (int group = most_group; group >= 1; group /= 2) {
      const int stages = masked_tile_stages(device, copies, inner, panels, group, stages_wanted);
      const int bytes = masked_tile_shared_bytes(panels, stages, inner, kMaxItemSteps, group);
      if (bytes > device.shared_bytes_per_block) {
        continue;  // the panels' rows of A and the stages do not fit one block
      }
      const int resident = blocks_per_sm(device, bytes, panels);
      // Two blocks per SM, so that one computes while the other waits at a barrier; a single
      // panel per block is taken even alone on its SM.
      if (resident >= 2 || (panels == 1 && resident >= 1) || panels_wanted != 0) {
        shape.panels = panels;
        shape.stages = stages;
        shape.chunk = masked_tile_chunk(inner);
        shape.group_steps = group;
        shape.item_steps = kMaxItemSteps;
        shape.shared_bytes = bytes;
        shape.blocks_per_sm = std::max(resident, 1);
        return shape;
      }
    }
  }
  return shape;  // panels = 0: no masked tiles on this device for this inner
}

std::int64_t tiles_spanned(const std::vector<PanelSpan>& spans, int rows) {
  std::int64_t tiles = 0;
  for (std::size_t panel = 0; panel < spans.size(); ++panel) {
    if (spans[panel].first_col < 0) {
      continue;  // a panel without entries spans nothing
    }
    const std::int64_t first_row = static_cast<std::int64_t>(panel) * kPanelRows;
    const std::int64_t panel_rows = std::min<std::int64_t>(kPanelRows, rows - first_row);
    const std::int64_t tile_rows = (panel_rows + kMaskedTileEdge - 1) / kMaskedTileEdge;
    const std::int64_t tile_cols =
        spans[panel].last_col / kMaskedTileEdge - spans[panel].first_col / kMaskedTileEdge + 1;
    tiles += tile_rows * tile_cols;
  }
  return tiles;
}

bool fills_ring_share(std::int64_t tiles, std::int64_t spanned) {
  return spanned > 0 && static_cast<double>(tiles) >= kRingTileShare * static_cast<double>(spanned);
}

MaskedTileKernel masked_kernel_for(std::int64_t tiles, std::int64_t spanned, int ring_group_steps) {
  return fills_ring_share(tiles, spanned) && ring_group_steps > 1 ? MaskedTileKernel::ring
                                                                  : MaskedTileKernel::registers;
}

int register_tile_slices(int inner) {
  const int slices = (inner + kRegisterSliceDepth - 1) / kRegisterSliceDepth;
  return slices <= 2 ? 2 : slices <= 4 ? 4 : kMaxRegisterSlices;
}

int register_tile_shared_bytes(int slices) {
  constexpr int kPieceBytes = 16;
  constexpr int kValueSlotBytes = 2 * 8 * 32 * 4;  // two tiles' eight floats a lane (valued S)
  // Each lane's parked tile descriptor, a start and a mask (CurrentRow<true>).
  const int parked_row_bytes = register_tile_parks_rows(slices) ? 32 * 8 : 0;
  return kRegisterTileWarps * (slices * 2 * 32 * kPieceBytes + kValueSlotBytes + parked_row_bytes);
}

MaskedTileShape choose_register_tile_shape(const GpuDescription& device, int inner) {
  MaskedTileShape shape;
  const int slices = register_tile_slices(inner);
  shape.kernel = MaskedTileKernel::registers;
  shape.panels = 1;
  shape.stages = 0;
  shape.chunk = slices * kRegisterSliceDepth;
  shape.group_steps = 1;
  shape.item_steps = kMaxItemSteps;
  shape.shared_bytes = register_tile_shared_bytes(slices);
  shape.blocks_per_sm =
      std::max(1, std::min(register_tile_blocks_per_sm(slices),
                           blocks_per_sm(device, shape.shared_bytes, kRegisterTileWarps)));
  return shape;
}

int choose_item_steps(const GpuDescription& device, const MaskedTileShape& shape,
                      std::int64_t steps) {
  constexpr int kWaves = 2;
  const bool warps = shape.kernel == MaskedTileKernel::registers;
  const std::int64_t slots = static_cast<std::int64_t>(device.sm_count) *
                             std::max(shape.blocks_per_sm, 1) * (warps ? kRegisterTileWarps : 1) *
                             kWaves;
  const std::int64_t least = warps ? 1LL : 4LL * std::max(shape.group_steps, 1);
  return static_cast<int>(std::clamp<std::int64_t>(steps / std::max<std::int64_t>(slots, 1),
                                                   std::min<std::int64_t>(least, kMaxItemSteps),
                                                   kMaxItemSteps));
}

double lane_group_seconds(const DeviceRates& rates, int inner, std::int64_t entries) {
  const double count = static_cast<double>(entries);
  return count * row_bytes(inner) / rates.l2_gather_bytes_per_second +
         count * kIndexBytesPerEntry / rates.dram_bytes_per_second;
}

double masked_tile_seconds(const DeviceRates& rates, int inner, std::int64_t tiles,
                           std::int64_t steps, std::int64_t blocks, int panels) {
  const double b_bytes = static_cast<double>(steps) * kMaskedTileEdge * row_bytes(inner);
  const double a_bytes = static_cast<double>(blocks) * panels * kMaskedTileEdge * row_bytes(inner);
  const double fixed_bytes = static_cast<double>(tiles) * kTileFixedBytes;
  return (b_bytes + a_bytes + fixed_bytes) / rates.tile_stream_bytes_per_second;
}

std::uint64_t dense_product_buffer_bytes(int rows, int cols) {
  return static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols) * sizeof(float);
}

double dense_product_seconds(const DeviceRates& rates, int rows, int cols, int inner,
                             std::int64_t nnz) {
  const auto padded = [](int size) { return static_cast<double>(wmma_padded(size)); };
  const double flops = 2.0 * padded(rows) * padded(cols) * padded(inner);
  const double product_bytes = static_cast<double>(dense_product_buffer_bytes(rows, cols));
  // The gather reads a 32-byte sector per entry, or the whole product when S is that dense.
  const double gathered = std::min(32.0 * static_cast<double>(nnz), product_bytes);
  const double operand_bytes = 2.0 * (static_cast<double>(rows) + cols) * inner;
  // Beside the product: 8 bytes an entry, its output float and its share of the gather's
  // tables or its value (the gather by tiles reads 12 bytes for a tile row's 64 columns).
  // Launches: cuBLAS's GEMM (its own set-up on the host and often more than one kernel) and
  // the gather, against the lane groups' one.
  constexpr double kDenseLaunches = 3.0;
  return flops / rates.tensor_flops_per_second +
         (product_bytes + gathered + operand_bytes + 8.0 * static_cast<double>(nnz)) /
             rates.dram_bytes_per_second +
         kDenseLaunches * rates.launch_seconds;
}

bool dense_product_pays(double dense_seconds, double sparse_seconds, std::uint64_t buffer_bytes,
                        std::uint64_t free_bytes) {
  const bool fits = buffer_bytes <= free_bytes - free_bytes / 4;
  return fits && dense_seconds < sparse_seconds;
}

bool masked_tiles_pay(const DeviceRates& rates, int inner, std::int64_t covered,
                      double tile_seconds) {
  return lane_group_seconds(rates, inner, covered) - tile_seconds > rates.launch_seconds;
}

}  // namespace course::step5
