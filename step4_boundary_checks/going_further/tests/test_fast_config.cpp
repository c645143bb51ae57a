/// @file test_fast_config.cpp
/// @brief The fast kernel's choice of tile and split-K (a host function, tested without a GPU on
/// the figures of an H100 and tiles whose facts the tests fix).
#include "common/testing/catch2.hpp"

#include "common/testing/described_gpus.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_cost_model.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace {

using course::step4::FastConfig;
using course::step4::FastVariant;
using course::step4::TileFacts;

using course::testing::h100_sxm_description;

std::vector<TileFacts> tiles() {
  // {tile, BM, BN, BK, threads, resident blocks per SM, efficiency, ragged efficiency}
  return {{FastVariant::bm128_bn128_bk16, 128, 128, 16, 256, 2, 0.62, 0.62},
          {FastVariant::bm128_bn64_bk8, 128, 64, 8, 128, 4, 0.55, 0.45},
          {FastVariant::bm64_bn128_bk8, 64, 128, 8, 128, 4, 0.55, 0.45},
          {FastVariant::bm64_bn64_bk8, 64, 64, 8, 64, 8, 0.45, 0.40}};
}

FastConfig choose(int rows, int inner, int cols) {
  return course::step4::choose_fast_config(course::step4::validate_shape(rows, inner, cols),
                                           h100_sxm_description(), tiles());
}

}  // namespace

TEST_CASE("large squares take the largest tile and no split", "[step4][config]") {
  for (int size : {4096, 8192}) {
    const FastConfig config = choose(size, size, size);
    CHECK(config.tile == FastVariant::bm128_bn128_bk16);
    CHECK(config.splits == 1);
  }
}

TEST_CASE("small outputs with a long inner dimension are split to fill the GPU",
          "[step4][config]") {
  for (const auto& shape : std::vector<std::vector<int>>{
           {128, 65536, 128}, {256, 32768, 256}, {3, 100000, 5}, {64, 262144, 64}}) {
    INFO(shape[0] << "x" << shape[1] << "x" << shape[2]);
    const FastConfig config = choose(shape[0], shape[1], shape[2]);
    CHECK(config.splits >= 16);
    CHECK(config.splits <= shape[1] / course::step4::kMinSplitDepth);
  }
}

TEST_CASE("short inner dimensions and tiny problems are never split", "[step4][config]") {
  CHECK(choose(1, 1, 1).splits == 1);
  CHECK(choose(100, 100, 100).splits == 1);
  CHECK(choose(3000, 255, 7000).splits == 1);  // one split must keep 256 of inner
}

TEST_CASE("a short output dimension takes a tile of 64 along it", "[step4][config]") {
  const FastConfig tall = choose(100000, 256, 64);
  CHECK((tall.tile == FastVariant::bm128_bn64_bk8 || tall.tile == FastVariant::bm64_bn64_bk8));
  const FastConfig wide = choose(64, 4096, 100000);
  CHECK((wide.tile == FastVariant::bm64_bn128_bk8 || wide.tile == FastVariant::bm64_bn64_bk8));
}

TEST_CASE("the candidate splits stay within the inner tiles and the workspace limit",
          "[step4][config]") {
  const auto shape =
      course::step4::validate_shape(4000, 500000, 4000);  // 64 MB per partial product
  for (const TileFacts& tile : tiles()) {
    for (int splits : course::step4::candidate_splits(shape, h100_sxm_description(), tile)) {
      CHECK(splits >= 1);
      CHECK(splits <= (500000 + tile.depth - 1) / tile.depth);
      CHECK(4.0 * splits * 4000 * 4000 <= course::step4::kMaxWorkspaceBytes);
    }
  }
}

TEST_CASE("effective_splits never leaves a split empty", "[step4][config]") {
  for (int inner = 1; inner <= 300; inner += 7) {
    for (int splits = 1; splits <= 50; ++splits) {
      const int tiles = (inner + 7) / 8;
      const int real = course::step4::effective_splits(inner, 8, splits);
      const int per_split = (tiles + splits - 1) / splits;
      CHECK(real >= 1);
      CHECK(real <= tiles);
      CHECK((real - 1) * per_split < tiles);  // the last split owns at least one tile
    }
  }
}

TEST_CASE("C with at most 8 rows or columns takes a thin path and is split to fill the GPU",
          "[step4][config]") {
  // Both sides thin: the lanes walk the inner dimension (thin_cols).
  CHECK(course::step4::thin_variant(course::step4::validate_shape(3, 100000, 5)) ==
        FastVariant::thin_cols);
  CHECK(course::step4::thin_variant(course::step4::validate_shape(3, 100000, 9)) ==
        FastVariant::thin_rows);
  CHECK(course::step4::thin_variant(course::step4::validate_shape(4096, 4096, 1)) ==
        FastVariant::thin_cols);
  CHECK(course::step4::thin_variant(course::step4::validate_shape(9, 100, 9)) ==
        FastVariant::automatic);
  // 1x4096x4096: 32 blocks of 128 columns, 4 warps each; 32 warps per SM would want 33 splits,
  // but inner has 32 chunks of 128, so at most 32 splits.
  CHECK(course::step4::thin_splits(course::step4::validate_shape(1, 4096, 4096),
                                   h100_sxm_description(), 128) == 32);
  // Plenty of warps already (6250 blocks of 8): no split.
  CHECK(course::step4::thin_splits(course::step4::validate_shape(50000, 1000, 1),
                                   h100_sxm_description(), 6250 * 8) == 1);
  // inner shorter than one chunk: never split.
  CHECK(course::step4::thin_splits(course::step4::validate_shape(2, 100, 2), h100_sxm_description(),
                                   8) == 1);
}

TEST_CASE("the fast kernel's launcher refuses null pointers before launching", "[step4][config]") {
  const float dummy[4] = {};
  float dummy_out[4] = {};
  CHECK_THROWS_WITH(course::step4::launch_fast(nullptr, dummy, dummy_out, {3, 3, 3}),
                    Catch::Contains("not null"));
  CHECK_THROWS_WITH(course::step4::launch_fast(dummy, dummy, dummy_out, {3, 0, 3}),
                    Catch::Contains("inner (columns of A, rows of B) must be from 1"));
}

TEST_CASE("on this GPU the occupancy model agrees with the runtime for every compiled tile",
          "[step4][gpu]") {
  // fast_tile_facts() holds each tile's occupancy from
  // cudaOccupancyMaxActiveBlocksPerMultiprocessor and the registers and shared memory of the code
  // the driver loaded: the rules the choice uses for described GPUs (blocks_per_multiprocessor)
  // must give the same count here.
  const course::GpuDescription& device = course::describe_current_gpu();
  const std::vector<TileFacts>& tiles = course::step4::fast_tile_facts();
  REQUIRE(tiles.size() >= 6u);
  for (const TileFacts& tile : tiles) {
    INFO(device.name << ", " << course::step4::fast_variant_name(tile.tile) << ": "
                     << tile.registers_per_thread << " registers, " << tile.shared_bytes
                     << " bytes of shared memory");
    CHECK(tile.blocks_per_multiprocessor >= 1);
    CHECK(course::step4::blocks_per_multiprocessor(
              device, {tile.threads, tile.registers_per_thread, tile.shared_bytes}) ==
          tile.blocks_per_multiprocessor);
  }
  // The asynchronous-copy tiles are offered exactly where they run with cp.async.
  const bool async_offered = std::any_of(tiles.begin(), tiles.end(), [](const TileFacts& tile) {
    return tile.tile == FastVariant::bm128_bn128_bk16_async ||
           tile.tile == FastVariant::bm64_bn128_bk16_async;
  });
  CHECK(async_offered == course::step4::async_copies_available());
  CHECK_FALSE((course::step4::async_copies_available() && device.major < 8));
}
