/// @file test_described_gpus.cpp
/// @brief The fast kernel's choice on GPUs that are not in the machine: descriptions of an H100
/// (the GPU of the calibration), a T4, an A100-40GB and an L4 (common/testing/described_gpus.hpp),
/// and the choices made for each. CPU only: the choice is host code that reads a description of the
/// device.
#include "common/testing/catch2.hpp"

#include "common/testing/described_gpus.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_cost_model.hpp"

#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

using course::GpuDescription;
using course::ProductSizes;
using course::step4::FastConfig;
using course::step4::FastVariant;
using course::step4::TileFacts;

/// The automatic configuration on @p device, every compiled tile available.
FastConfig choose_on(const GpuDescription& device, const ProductSizes& sizes) {
  const std::vector<TileFacts> tiles = course::step4::described_tiles(device, true);
  return course::step4::resolve_fast_config(sizes, FastConfig{}, device, tiles, tiles);
}

/// The three GPUs other than the H100: a T4, an L4 and an A100-40GB, in order of SMs.
std::vector<GpuDescription> other_gpus() {
  using namespace course::testing;
  return {t4_description(), l4_description(), a100_40gb_description()};
}

bool is_async(FastVariant tile) {
  return tile == FastVariant::bm128_bn128_bk16_async || tile == FastVariant::bm64_bn128_bk16_async;
}

/// Shapes of every kind of the public set, and the extremes of what the kernel can do.
std::vector<ProductSizes> shapes_of_every_kind() {
  return {{1, 1, 1},          {512, 512, 512},    {1009, 1009, 1009}, {4096, 4096, 4096},
          {8192, 8192, 8192}, {4093, 4091, 4099}, {128, 65536, 128},  {64, 262144, 64},
          {3, 100000, 5},     {1, 4096, 4096},    {4096, 4096, 1},    {100000, 256, 64},
          {64, 4096, 100000}, {17, 64, 200003},   {33, 500000, 33},   {16, 2048, 16},
          {46340, 1, 46340},  {8388480, 16, 16},  {9, 238609294, 9},  {2097151, 1024, 9}};
}

}  // namespace

TEST_CASE("the occupancy model gives a described H100 the blocks per SM of the calibration",
          "[step4][config]") {
  // calibrate_choice.py's TILES: what cudaOccupancyMaxActiveBlocksPerMultiprocessor reported on
  // the H100 for 128x128x8, 64x128x8, 128x64x8, 128x128x16, 64x64x8, 32x128x8 and the two
  // asynchronous-copy tiles.
  const std::vector<int> expected = {2, 3, 3, 2, 6, 4, 2, 3};
  const std::vector<TileFacts> tiles =
      course::step4::described_tiles(course::testing::h100_sxm_description(), true);
  REQUIRE(tiles.size() == expected.size());
  for (std::size_t index = 0; index < tiles.size(); ++index) {
    INFO(course::step4::fast_variant_name(tiles[index].tile));
    CHECK(tiles[index].blocks_per_multiprocessor == expected[index]);
  }
}

TEST_CASE("on a described H100 the model makes the choices of the committed H100 run",
          "[step4][config]") {
  // lab/results/shapes_h100.md: the configuration the H100 chose for each shape of the public
  // set, from the device it read. The same model on the described H100 must choose the same.
  const std::string path = std::string(STEP4_LAB_RESULTS_DIR) + "/shapes_h100.md";
  std::ifstream results(path);
  REQUIRE(results);
  const std::regex row(R"(^\| (\d+)x(\d+)x(\d+) \| [^|]+ \| [^|]+ \| [^|]+ \| ([^|]+?) \|)");
  int compared = 0;
  std::string line;
  while (std::getline(results, line)) {
    std::smatch match;
    if (!std::regex_search(line, match, row)) {
      continue;
    }
    const ProductSizes sizes = course::step4::validate_shape(
        std::stoll(match[1]), std::stoll(match[2]), std::stoll(match[3]));
    INFO(sizes.text());
    CHECK(course::step4::fast_config_name(
              choose_on(course::testing::h100_sxm_description(), sizes)) == match[4].str());
    ++compared;
  }
  CHECK(compared >= 40);
}

TEST_CASE("no asynchronous copies where the GPU or the compiled code lacks cp.async",
          "[step4][config]") {
  using course::step4::described_tiles;
  using namespace course::testing;
  for (const TileFacts& tile : described_tiles(t4_description(), true)) {
    CHECK_FALSE(is_async(tile.tile));
  }
  for (const TileFacts& tile : described_tiles(a100_40gb_description(), false)) {
    CHECK_FALSE(is_async(tile.tile));  // an sm_80 GPU running code compiled for compute_75
  }
  int async_tiles = 0;
  for (const TileFacts& tile : described_tiles(a100_40gb_description(), true)) {
    async_tiles += is_async(tile.tile) ? 1 : 0;
  }
  CHECK(async_tiles == 2);
  for (const ProductSizes& sizes : shapes_of_every_kind()) {
    INFO(sizes.text());
    CHECK_FALSE(is_async(choose_on(t4_description(), sizes).tile));
  }
}

TEST_CASE("every tile offered fits the shared memory and registers and threads of its GPU",
          "[step4][config]") {
  using namespace course::testing;
  std::vector<GpuDescription> gpus = other_gpus();
  gpus.push_back(h100_sxm_description());
  for (const GpuDescription& device : gpus) {
    const std::vector<TileFacts> tiles = course::step4::described_tiles(device, true);
    CHECK(tiles.size() >= 6u);  // every tile with registers as staging fits every GPU from sm_75
    for (const TileFacts& tile : tiles) {
      INFO(device.name << ", " << course::step4::fast_variant_name(tile.tile));
      const int per_block = tile.shared_bytes + device.shared_bytes_reserved_per_block;
      CHECK(tile.blocks_per_multiprocessor >= 1);
      CHECK(tile.shared_bytes <= device.shared_bytes_per_block);
      CHECK(tile.blocks_per_multiprocessor * per_block <= device.shared_bytes_per_sm);
      CHECK(tile.blocks_per_multiprocessor * tile.threads <= device.max_threads_per_sm);
      CHECK(tile.blocks_per_multiprocessor * tile.threads * tile.registers_per_thread <=
            device.registers_per_sm);
    }
  }
  // A T4's 64 KiB hold one block of the 128x128x16 tile (33 KB), an A100's 164 KiB two.
  for (const TileFacts& tile : course::step4::described_tiles(t4_description(), true)) {
    if (tile.tile == FastVariant::bm128_bn128_bk16) {
      CHECK(tile.blocks_per_multiprocessor == 1);
    }
  }
}

TEST_CASE("split counts grow with the number of SMs", "[step4][config]") {
  using namespace course::testing;
  // Outputs far smaller than one wave with long inner dimensions: the splits fill the SMs.
  for (const ProductSizes& sizes :
       std::vector<ProductSizes>{{128, 65536, 128}, {64, 262144, 64}, {256, 32768, 256}}) {
    INFO(sizes.text());
    const int on_t4 = choose_on(t4_description(), sizes).splits;
    const int on_l4 = choose_on(l4_description(), sizes).splits;
    const int on_a100 = choose_on(a100_40gb_description(), sizes).splits;
    const int on_h100 = choose_on(h100_sxm_description(), sizes).splits;
    INFO("splits: T4 " << on_t4 << ", L4 " << on_l4 << ", A100 " << on_a100 << ", H100 "
                       << on_h100);
    CHECK(on_t4 > 1);
    CHECK(on_t4 <= on_l4);
    CHECK(on_l4 <= on_a100);
    CHECK(on_t4 < on_a100);
  }
  // The thin paths ask for 32 warps per SM: splits in proportion to the SMs (40, 58, 108, 132).
  const ProductSizes vector_like{1, 100000, 4096};  // 32 blocks of 4 warps without a split
  const int warps = 32 * 4;
  CHECK(course::step4::thin_splits(vector_like, t4_description(), warps) == 10);
  CHECK(course::step4::thin_splits(vector_like, l4_description(), warps) == 15);
  CHECK(course::step4::thin_splits(vector_like, a100_40gb_description(), warps) == 27);
  CHECK(course::step4::thin_splits(vector_like, h100_sxm_description(), warps) == 33);
}

TEST_CASE("no GPU refuses a shape the fast kernel can do", "[step4][config]") {
  using namespace course::testing;
  std::vector<GpuDescription> gpus = other_gpus();
  gpus.push_back(h100_sxm_description());
  for (const GpuDescription& device : gpus) {
    const std::vector<TileFacts> tiles = course::step4::described_tiles(device, true);
    for (const ProductSizes& sizes : shapes_of_every_kind()) {
      INFO(device.name << ", " << sizes.text());
      FastConfig config;
      REQUIRE_NOTHROW(config = choose_on(device, sizes));
      CHECK(config.splits >= 1);
      CHECK(config.splits <= course::kMaxGridZ);
      if (config.tile == FastVariant::thin_rows || config.tile == FastVariant::thin_cols) {
        continue;  // one thread per column or one warp per row: no tile, no block order
      }
      CHECK(config.group_rows >= 1);
      bool offered = false;
      for (const TileFacts& tile : tiles) {
        if (tile.tile == config.tile) {
          offered = true;
          CHECK(course::ceil_div(sizes.rows, tile.block_rows) <= course::kMaxGridY);
          CHECK(config.splits <= course::ceil_div(sizes.inner, tile.depth));
        }
      }
      CHECK(offered);
    }
  }
}

TEST_CASE("only a C taller than every tile's grid is refused by name before any GPU work",
          "[step4][config]") {
  // 65535 block rows of the tallest tile (128 rows) is the most gridDim.y allows.
  CHECK_NOTHROW(course::step4::validate_fast_shape({65535 * 128, 16, 9}));
  CHECK_THROWS_WITH(course::step4::validate_fast_shape({65535 * 128 + 1, 16, 9}),
                    Catch::Contains("gridDim.y") && Catch::Contains("65535"));
  // A thin C puts its rows in gridDim.x, which goes much further.
  CHECK_NOTHROW(course::step4::validate_fast_shape({1 << 30, 1, 1}));
  const FastConfig tall = choose_on(course::testing::t4_description(), {65535 * 128, 16, 9});
  CHECK((tall.tile == FastVariant::bm128_bn128_bk8 || tall.tile == FastVariant::bm128_bn64_bk8 ||
         tall.tile == FastVariant::bm128_bn128_bk16));
}
