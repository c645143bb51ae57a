/// @file test_tile_cost_model.cpp
/// @brief CPU tests: the rates, thresholds, launch shapes and path choices the plan makes for
/// a T4, an A100-40GB, an L4 and an H100 must fit each GPU (shared memory per block and per
/// SM, cp.async only from sm_80) and stay reasonable (thresholds between a few entries and a
/// full tile, the dense product only where it is cheaper and fits).
///
/// Step 5, tests (going further): the cost model's choices on GPUs described in writing.
/// Read first: going_further/tile_cost_model.hpp and going_further/device_rates.hpp; the GPUs
/// are common/testing/described_gpus.hpp's.
#include "common/testing/catch2.hpp"

#include "common/testing/described_gpus.hpp"
#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"
#include "step5_tensor_core_sddmm/going_further/tile_cost_model.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using course::GpuDescription;

std::vector<GpuDescription> described_gpus() {
  return {course::testing::t4_description(), course::testing::a100_40gb_description(),
          course::testing::l4_description(), course::testing::h100_sxm_description()};
}

/// The masked-tile kernel's shape on @p device, its code compiled for that GPU (cp.async from
/// sm_80, as the course builds it).
course::step5::MaskedTileShape shape_on(const GpuDescription& device, int inner,
                                        int panels_wanted = 0) {
  const course::step5::TileCopies copies = course::step5::masked_tile_copies(device, true);
  return course::step5::choose_masked_tile_shape(device, copies, inner, panels_wanted);
}

}  // namespace

TEST_CASE("described GPUs give the rates of their data sheets") {
  // Peak DRAM bandwidth (GB/s) and fp16 Tensor Core peak with fp32 sums (TFLOP/s), from
  // NVIDIA's data sheets; the model applies efficiencies below 1 to both.
  struct Expected {
    GpuDescription device;
    double peak_dram_gb;
    double peak_tensor_tflops;
  };
  const std::vector<Expected> expected = {{course::testing::t4_description(), 320.0, 65.0},
                                          {course::testing::a100_40gb_description(), 1555.0, 312.0},
                                          {course::testing::l4_description(), 300.0, 121.0},
                                          {course::testing::h100_sxm_description(), 3352.0, 989.0}};
  for (const Expected& gpu : expected) {
    INFO(gpu.device.name);
    const course::step5::DeviceRates rates = course::step5::described_rates(gpu.device);
    CHECK(rates.dram_bytes_per_second / 1e9 > 0.7 * gpu.peak_dram_gb);
    CHECK(rates.dram_bytes_per_second / 1e9 <= 1.01 * gpu.peak_dram_gb);
    CHECK(rates.tensor_flops_per_second / 1e12 > 0.5 * gpu.peak_tensor_tflops);
    CHECK(rates.tensor_flops_per_second / 1e12 <= 1.01 * gpu.peak_tensor_tflops);
    // L2 serves gathers faster than DRAM on every one of these GPUs.
    CHECK(rates.l2_gather_bytes_per_second > rates.dram_bytes_per_second);
    CHECK(rates.launch_seconds > 0.0);
  }
}

TEST_CASE("a tile's threshold lies between a few entries and a whole tile") {
  for (const GpuDescription& device : described_gpus()) {
    const course::step5::DeviceRates rates = course::step5::described_rates(device);
    for (const int inner : {16, 32, 64, 128, 256, 512, 1024}) {
      INFO(device.name << " inner=" << inner);
      const course::step5::TileThreshold threshold = course::step5::tile_threshold(rates, inner);
      // A tile's 16 rows of Bᵀ cost about 16 entries' rows on the lane groups; the indices
      // a lane group also reads (and the tile's fixed cost) move it a little either way.
      CHECK(threshold.min_entries >= 4);
      CHECK(threshold.min_entries <= 64);
      CHECK(threshold.min_run >= 2);
      CHECK(threshold.min_run * course::step5::kMaskedTileEdge >= threshold.min_entries);
    }
  }
}

TEST_CASE("the masked-tile kernel's shape fits each GPU") {
  for (const GpuDescription& device : described_gpus()) {
    for (const int inner : {1, 17, 64, 128, 256, 1024}) {
      INFO(device.name << " inner=" << inner);
      const course::step5::MaskedTileShape shape = shape_on(device, inner);
      REQUIRE(shape.panels > 0);
      CHECK(shape.shared_bytes <= device.shared_bytes_per_block);
      CHECK(shape.blocks_per_sm >= 1);
      CHECK(static_cast<long long>(shape.blocks_per_sm) * (shape.shared_bytes + 1024) <=
            device.shared_bytes_per_sm);
      CHECK(shape.shared_bytes ==
            course::step5::masked_tile_shared_bytes(shape.panels, shape.stages, inner,
                                                    shape.item_steps, shape.group_steps));
      // A stage holds one chunk of inner for 1 to 4 tile columns: several only when one
      // chunk covers inner, and about 8 KiB of Bᵀ.
      CHECK(shape.chunk == course::step5::masked_tile_chunk(inner));
      CHECK(shape.group_steps >= 1);
      CHECK(shape.group_steps <= 4);
      CHECK((shape.group_steps == 1 || shape.chunk >= course::step5::wmma_padded(inner)));
      CHECK(shape.group_steps * 16 * (shape.chunk + 8) * 2 <= 10 * 1024);
      // Without cp.async two stages; with it the deepest ring that keeps as many blocks on an
      // SM as two stages do.
      if (!course::has_async_copies(device)) {
        CHECK(shape.stages == 2);
      } else {
        const auto with_stages = [&](int stages) {
          return course::step5::choose_masked_tile_shape(device, course::step5::TileCopies::async,
                                                         inner, shape.panels, shape.group_steps,
                                                         stages);
        };
        CHECK(shape.stages >= 2);
        CHECK(shape.stages <= 4);
        CHECK(shape.blocks_per_sm == with_stages(2).blocks_per_sm);
        CHECK((shape.stages == 4 ||
               with_stages(shape.stages + 1).blocks_per_sm < shape.blocks_per_sm));
      }
    }
  }
  // Code compiled for compute_75 has no cp.async even on an sm_80 GPU: two stages there.
  const GpuDescription a100 = course::testing::a100_40gb_description();
  CHECK(course::step5::masked_tile_copies(a100, false) == course::step5::TileCopies::synchronous);
  CHECK(course::step5::choose_masked_tile_shape(a100, course::step5::TileCopies::synchronous, 64)
            .stages == 2);
  // The common head sizes take four panels per block on every one of these GPUs.
  for (const GpuDescription& device : described_gpus()) {
    INFO(device.name);
    CHECK(shape_on(device, 64).panels == 4);
  }
  // On the T4, 64 KiB per SM: four panels at inner = 256 would leave one block per SM.
  CHECK(shape_on(course::testing::t4_description(), 256).panels < 4);
  CHECK(shape_on(course::testing::h100_sxm_description(), 256).panels == 4);
}

TEST_CASE("rows of A too long for shared memory leave the tiles out") {
  // One panel's rows of A at inner = 4096 take 16 * 4104 * 2 bytes = 128 KiB: more than a
  // T4 or an L4 block may have, less than an A100's or an H100's.
  CHECK(shape_on(course::testing::t4_description(), 4096).panels == 0);
  CHECK(shape_on(course::testing::l4_description(), 4096).panels == 0);
  CHECK(shape_on(course::testing::a100_40gb_description(), 4096).panels == 1);
  // A wanted panel count that does not fit is refused (0), never over-allocated.
  CHECK(shape_on(course::testing::t4_description(), 2048, 4).panels == 0);
}

TEST_CASE("items fill every SM about twice over") {
  for (const GpuDescription& device : described_gpus()) {
    const course::step5::MaskedTileShape shape = shape_on(device, 128);
    INFO(device.name);
    CHECK(course::step5::choose_item_steps(device, shape, 10) == 4 * shape.group_steps);
    CHECK(course::step5::choose_item_steps(device, shape, 1LL << 30) ==
          course::step5::kMaxItemSteps);
    const std::int64_t slots = 2LL * device.sm_count * shape.blocks_per_sm;
    const int middle = course::step5::choose_item_steps(device, shape, 30 * slots);
    CHECK(middle == 30);
  }
}

TEST_CASE("the register kernel's shape fits every GPU and its items are warps") {
  for (const GpuDescription& device : described_gpus()) {
    INFO(device.name);
    for (const int inner : {1, 64, 65, 128, 129, 256, 257, 4096}) {
      INFO("inner " << inner);
      const course::step5::MaskedTileShape shape =
          course::step5::choose_register_tile_shape(device, inner);
      const int slices = course::step5::register_tile_slices(inner);
      CHECK(shape.kernel == course::step5::MaskedTileKernel::registers);
      CHECK(shape.panels == 1);
      CHECK(shape.chunk == slices * course::step5::kRegisterSliceDepth);
      // A pass covers inner up to 256 values; beyond, the most slices a pass holds.
      CHECK(shape.chunk >= std::min(inner, 256));
      CHECK(shape.shared_bytes == course::step5::register_tile_shared_bytes(slices));
      CHECK(shape.shared_bytes <= 48 * 1024);  // static shared memory, no opt-in
      // The kernel's static shared memory as ptxas reports it for sm_90 (valued variants):
      // 16, 24 KiB at 2 and 4 slices; 40 KiB and the 1 KiB of parked descriptors at 8.
      CHECK(course::step5::register_tile_parks_rows(slices) == (slices == 8));
      CHECK(shape.shared_bytes == (slices == 2 ? 16384 : slices == 4 ? 24576 : 41984));
      CHECK(shape.blocks_per_sm >= 1);
      CHECK(shape.blocks_per_sm <= course::step5::register_tile_blocks_per_sm(slices));
    }
    const course::step5::MaskedTileShape shape =
        course::step5::choose_register_tile_shape(device, 256);
    // Items are warps, four a block: twice the resident warps, at least one tile each.
    const std::int64_t warps =
        2LL * device.sm_count * shape.blocks_per_sm * course::step5::kRegisterTileWarps;
    CHECK(course::step5::choose_item_steps(device, shape, 10) == 1);
    CHECK(course::step5::choose_item_steps(device, shape, 20 * warps) == 20);
    CHECK(course::step5::choose_item_steps(device, shape, 1LL << 30) ==
          course::step5::kMaxItemSteps);
  }
}

TEST_CASE(
    "the ring runs where the masked tiles fill their panels' columns and a stage holds several") {
  using course::step5::MaskedTileKernel;
  using course::step5::PanelSpan;
  // 200 rows: three whole 64-row panels and one of 8 rows (a single 16-row panel).
  // Spans: all 160 columns (10 tile columns), columns 16..47 (2), none, columns 5..5 (1).
  const std::vector<PanelSpan> spans = {{0, 159}, {16, 47}, {-1, -1}, {5, 5}};
  const std::int64_t spanned = course::step5::tiles_spanned(spans, 200);
  CHECK(spanned == 4 * 10 + 4 * 2 + 0 + 1 * 1);
  const auto share = [&](double fraction) {
    return static_cast<std::int64_t>(fraction * static_cast<double>(spanned));
  };
  // Stages of two or four tile columns (inner 128 or 64): the share decides.
  for (const int group_steps : {2, 4}) {
    CHECK(course::step5::masked_kernel_for(share(0.05), spanned, group_steps) ==
          MaskedTileKernel::registers);
    CHECK(course::step5::masked_kernel_for(share(0.29), spanned, group_steps) ==
          MaskedTileKernel::registers);
    CHECK(course::step5::masked_kernel_for(spanned, spanned, group_steps) ==
          MaskedTileKernel::ring);
    CHECK(course::step5::masked_kernel_for(share(0.5), spanned, group_steps) ==
          MaskedTileKernel::ring);
  }
  // One tile column a stage (inner from 129 on): the registers, however dense the mask.
  CHECK(course::step5::masked_kernel_for(spanned, spanned, 1) == MaskedTileKernel::registers);
  CHECK(course::step5::masked_kernel_for(share(0.5), spanned, 1) == MaskedTileKernel::registers);
  CHECK(course::step5::fills_ring_share(share(0.5), spanned));
  CHECK_FALSE(course::step5::fills_ring_share(share(0.29), spanned));
  // No entry, no span: never the ring.
  CHECK(course::step5::masked_kernel_for(0, 0, 4) == MaskedTileKernel::registers);
  CHECK_FALSE(course::step5::fills_ring_share(0, 0));
  CHECK(course::step5::tiles_spanned({}, 0) == 0);
}

TEST_CASE("the dense path is taken only when cheaper and when it fits") {
  const course::step5::DeviceRates rates =
      course::step5::described_rates(course::testing::h100_sxm_description());
  const std::uint64_t free_bytes = 60ULL << 30;
  // A uniform mask at 0.01 % density: the lane groups are far cheaper than the product.
  const std::int64_t sparse_nnz = 36000LL * 36000 / 10000;
  const double sparse = course::step5::lane_group_seconds(rates, 256, sparse_nnz);
  const double dense = course::step5::dense_product_seconds(rates, 36000, 36000, 256, sparse_nnz);
  CHECK(dense > 10 * sparse);
  CHECK_FALSE(course::step5::dense_product_pays(
      dense, sparse, course::step5::dense_product_buffer_bytes(36000, 36000), free_bytes));
  // A small S (512² at 10 %, like the DLMC enc0_q mask): one launch of lane groups costs
  // less than cuBLAS's GEMM and the gather (measured on the H100, 2026-11-25: 0.0083 ms on
  // the lane groups against 0.013 ms for the dense path).
  const std::int64_t small = 26214;
  const double small_lanes =
      course::step5::lane_group_seconds(rates, 256, small) + rates.launch_seconds;
  CHECK_FALSE(course::step5::dense_product_pays(
      course::step5::dense_product_seconds(rates, 512, 512, 256, small), small_lanes,
      course::step5::dense_product_buffer_bytes(512, 512), free_bytes));
  // Every entry of a 4096² S on the lane groups: the dense product wins.
  const std::int64_t full = 4096LL * 4096;
  const double all_lanes = course::step5::lane_group_seconds(rates, 256, full);
  const double dense_full = course::step5::dense_product_seconds(rates, 4096, 4096, 256, full);
  CHECK(dense_full < all_lanes);
  CHECK(course::step5::dense_product_pays(
      dense_full, all_lanes, course::step5::dense_product_buffer_bytes(4096, 4096), free_bytes));
  // ... but not when its buffer does not fit with a quarter of the memory to spare.
  CHECK_FALSE(course::step5::dense_product_pays(
      dense_full, all_lanes, course::step5::dense_product_buffer_bytes(4096, 4096), 64ULL << 20));
  // The same S as full masked tiles, four panels per block: cheaper than the dense product
  // (it writes each output once and reads no product back).
  const std::int64_t steps = (4096 / 64) * (4096 / 16);
  const double tiles =
      course::step5::masked_tile_seconds(rates, 256, full / 256, steps, steps / 16, 4);
  CHECK(tiles < dense_full);
}

TEST_CASE("masked tiles pay for their launch only with enough entries") {
  for (const GpuDescription& device : described_gpus()) {
    INFO(device.name);
    const course::step5::DeviceRates rates = course::step5::described_rates(device);
    // One full tile: 256 entries save less than a launch.
    const double one = course::step5::masked_tile_seconds(rates, 64, 1, 1, 1, 1);
    CHECK_FALSE(course::step5::masked_tiles_pay(rates, 64, 256, one));
    // 4096 full tiles in 1024 steps of 4 panels.
    const double many = course::step5::masked_tile_seconds(rates, 64, 4096, 1024, 64, 4);
    CHECK(course::step5::masked_tiles_pay(rates, 64, 4096LL * 256, many));
  }
}
