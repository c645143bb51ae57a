// The wide-tile kernels (wide_tile_gemm.cuh) against the CPU reference: every float4 path
// (inner and cols multiples of 4 or not), each side one below, at and one above the block tile,
// inner = 1, a single row or column, split-K that does not divide the inner tiles, and a long
// inner dimension with exact sums. Small shapes, so the sanitizers can run this file's tests.
#include <catch2/catch.hpp>

#include "common/product_operands.hpp"
#include "common/testing/product_checks.hpp"
#include "step4_boundary_checks/step4_launchers.hpp"

#include <vector>

namespace {

using course::step4::FastConfig;
using course::step4::FastVariant;

const std::vector<FastVariant> kWideTiles = {
    FastVariant::bm128_bn256_bk16_t8x16, FastVariant::bm128_bn256_bk32_t8x16,
    FastVariant::bm256_bn128_bk16_t8x16, FastVariant::bm128_bn128_bk16_t8x16,
    FastVariant::bm128_bn128_bk16_t8x8,  FastVariant::bm128_bn256_bk16_t8x16_s4,
    FastVariant::bm64_bn256_bk16_t8x16,  FastVariant::bm64_bn128_bk16_t8x8};

void check_wide(const course::ProductSizes& shape, const FastConfig& config,
                course::InputKind kind = course::InputKind::uniform) {
  course::testing::check_launch(course::step4::fast_config_name(config), shape, kind,
                                [&](const float* a, const float* b, float* c) {
                                  course::step4::launch_fast(a, b, c, shape, nullptr, config);
                                });
}

/// The facts of @p tile as the launcher reports them (its block tile and depth).
course::step4::TileFacts facts_of(FastVariant tile) {
  for (const course::step4::TileFacts& facts : course::step4::fast_tile_facts()) {
    if (facts.tile == tile) {
      return facts;
    }
  }
  FAIL("the launcher has no tile " << course::step4::fast_variant_name(tile));
  return {};
}

}  // namespace

TEST_CASE("the wide tiles are right at their tile edges on every float4 path", "[step4][gpu]") {
  for (FastVariant tile : kWideTiles) {
    const course::step4::TileFacts facts = facts_of(tile);
    // rows and cols one below, at and one above the block tile; inner a multiple of 4 (float4
    // copies of A), one past a tile (a ragged last tile) and not a multiple of 4 (4-byte copies).
    for (int rows : {facts.block_rows - 1, facts.block_rows + 1}) {
      for (int cols : {facts.block_cols - 1, facts.block_cols, facts.block_cols + 4}) {
        for (int inner : {facts.depth, facts.depth + 4, 2 * facts.depth + 1}) {
          check_wide({rows, inner, cols}, FastConfig{tile, 1});
        }
      }
    }
  }
}

TEST_CASE("the wide tiles handle inner = 1 and a single row or column with and without split-K",
          "[step4][gpu]") {
  for (FastVariant tile : kWideTiles) {
    for (int splits : {1, 3}) {
      const FastConfig config{tile, splits};
      check_wide({1, 1, 1}, config);
      check_wide({50, 1, 70}, config);
      check_wide({1, 203, 70}, config);
      check_wide({50, 203, 1}, config);
      check_wide({130, 203, 260}, config);
    }
  }
}

TEST_CASE("the wide tiles with split-K lose and double no partial product", "[step4][gpu]") {
  // Small integers make every sum exact in fp32 in any order: a split left out or added twice
  // changes C by a whole partial product. 4001 = 250 tiles of depth 16 and one more column.
  for (FastVariant tile : kWideTiles) {
    for (int splits : {7, 64}) {
      check_wide({9, 4001, 261}, FastConfig{tile, splits}, course::InputKind::small_integers);
      check_wide({133, 4000, 12}, FastConfig{tile, splits}, course::InputKind::small_integers);
    }
  }
}
