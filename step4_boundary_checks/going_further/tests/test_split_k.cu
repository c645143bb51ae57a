/// @file test_split_k.cu
/// @brief Split-K of the fast kernel against the CPU reference: splits that do not divide the inner
/// tiles, more splits than tiles, inner = 1, single rows and columns, a long inner dimension with
/// exact sums (a lost or doubled partial product shows), and bitwise determinism.
#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"
#include "common/testing/product_checks.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace {

using course::step4::FastConfig;
using course::step4::FastVariant;

const std::vector<FastVariant> kTiles = {
    FastVariant::bm128_bn128_bk16,       FastVariant::bm128_bn128_bk8,
    FastVariant::bm128_bn64_bk8,         FastVariant::bm64_bn128_bk8,
    FastVariant::bm64_bn64_bk8,          FastVariant::bm32_bn128_bk8,
    FastVariant::bm128_bn128_bk16_async, FastVariant::bm64_bn128_bk16_async};

void check_config(const course::ProductSizes& shape, const FastConfig& config,
                  course::InputKind kind) {
  course::testing::check_launch(course::step4::fast_config_name(config), shape, kind,
                                [&](const float* a, const float* b, float* c) {
                                  course::step4::launch_fast(a, b, c, shape, nullptr, config);
                                });
}

}  // namespace

TEST_CASE("split-K is right when the split does not divide the inner tiles", "[step4][gpu]") {
  // inner = 203: 26 tiles of depth 8 or 13 of depth 16; 3, 5 and 7 splits leave a short last one,
  // and inner itself ends in a ragged tile. 130x204x132 takes the float4 loads with the same
  // checks: its last tile is ragged too (204 = 25.5 tiles of 8), and its last rows of A and
  // columns of B lie in tiles that cross the edge of C (the clamped loads of tile_cursor.cuh).
  for (FastVariant tile : kTiles) {
    for (int splits : {1, 2, 3, 5, 7}) {
      check_config({67, 203, 45}, FastConfig{tile, splits}, course::InputKind::uniform);
      check_config({130, 203, 129}, FastConfig{tile, splits}, course::InputKind::uniform);
      check_config({130, 204, 132}, FastConfig{tile, splits}, course::InputKind::uniform);
    }
  }
}

TEST_CASE("split-K with more splits than inner tiles runs one split per tile", "[step4][gpu]") {
  for (FastVariant tile : kTiles) {
    check_config({33, 40, 17}, FastConfig{tile, 1000}, course::InputKind::uniform);
    CHECK(course::step4::effective_splits(40, 8, 1000) == 5);
    CHECK(course::step4::effective_splits(40, 16, 1000) == 3);
  }
}

TEST_CASE("split-K handles inner = 1 and single rows and single columns", "[step4][gpu]") {
  for (FastVariant tile : kTiles) {
    for (int splits : {1, 4}) {
      const FastConfig config{tile, splits};
      check_config({50, 1, 70}, config, course::InputKind::uniform);
      check_config({1, 300, 70}, config, course::InputKind::uniform);
      check_config({50, 300, 1}, config, course::InputKind::uniform);
      check_config({1, 1, 1}, config, course::InputKind::uniform);
      check_config({1, 999, 1}, config, course::InputKind::uniform);
    }
  }
}

TEST_CASE("split-K over a long inner dimension loses and doubles no partial product",
          "[step4][gpu]") {
  // Small integers make every sum exact in fp32 in any order, so the check is bit-exact: a
  // split left out or added twice changes C by a whole partial product.
  for (FastVariant tile : kTiles) {
    for (int splits : {3, 16, 61}) {
      check_config({5, 100003, 7}, FastConfig{tile, splits}, course::InputKind::small_integers);
    }
  }
  check_config({3, 100000, 5}, FastConfig{}, course::InputKind::small_integers);
  check_config({128, 65536, 128}, FastConfig{}, course::InputKind::small_integers);
}

TEST_CASE("the automatic configuration is right on long-inner and skinny and tiny shapes",
          "[step4][gpu]") {
  for (const course::ProductSizes& shape : std::vector<course::ProductSizes>{{3, 100000, 5},
                                                                             {256, 32768, 256},
                                                                             {777, 12345, 555},
                                                                             {64, 4096, 3001},
                                                                             {1, 1, 1},
                                                                             {2049, 257, 2049}}) {
    check_config(shape, FastConfig{}, course::InputKind::uniform);
  }
}

TEST_CASE("split-K gives bitwise the same C on every run", "[step4][gpu]") {
  const int rows = 70;
  const int inner = 50001;
  const int cols = 90;
  course::ProductOperands operands(rows, inner, cols, course::fresh_seed());
  for (FastVariant tile : {FastVariant::bm128_bn128_bk16, FastVariant::bm64_bn64_bk8,
                           FastVariant::bm128_bn128_bk16_async}) {
    const FastConfig config{tile, 37};
    INFO(course::step4::fast_config_name(config));
    course::step4::launch_fast(operands.device_a.data(), operands.device_b.data(),
                               operands.device_c.data(), {rows, inner, cols}, nullptr, config);
    const course::HostMatrix<float> first = operands.device_c.to_host();
    for (int run = 0; run < 3; ++run) {
      operands.device_c.poison();
      course::step4::launch_fast(operands.device_a.data(), operands.device_b.data(),
                                 operands.device_c.data(), {rows, inner, cols}, nullptr, config);
      const course::HostMatrix<float> again = operands.device_c.to_host();
      CHECK(std::memcmp(again.data(), first.data(), first.size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("the thin paths are right when C has at most 8 rows or 8 columns", "[step4][gpu]") {
  for (int thin = 1; thin <= course::step4::kThinMax; ++thin) {
    for (int splits : {1, 3, 100}) {
      for (int inner : {1, 255, 257, 1000}) {
        check_config({thin, inner, 301}, FastConfig{FastVariant::thin_rows, splits},
                     course::InputKind::uniform);
        check_config({301, inner, thin}, FastConfig{FastVariant::thin_cols, splits},
                     course::InputKind::uniform);
      }
    }
  }
  // Long inner dimensions with exact sums: a lost or doubled split shows.
  check_config({3, 100003, 5}, FastConfig{FastVariant::thin_rows, 0},
               course::InputKind::small_integers);
  check_config({5, 100003, 3}, FastConfig{FastVariant::thin_cols, 0},
               course::InputKind::small_integers);
  // inner % 4 == 0, exact sums: a lost or doubled chunk shows.
  check_config({5, 100000, 3}, FastConfig{FastVariant::thin_cols, 0},
               course::InputKind::small_integers);
  // Both sides thin, chosen automatically (thin_cols), exact sums over a long inner dimension.
  check_config({3, 100003, 5}, FastConfig{}, course::InputKind::small_integers);
  check_config({8, 4099, 8}, FastConfig{}, course::InputKind::small_integers);
  check_config({1, 4096, 4096}, FastConfig{}, course::InputKind::uniform);
  check_config({4096, 4096, 1}, FastConfig{}, course::InputKind::uniform);
}

TEST_CASE("a thin path refuses a C that is not thin", "[step4]") {
  float dummy = 0.0f;  // never read: the refusal comes before any launch
  CHECK_THROWS_WITH(course::step4::launch_fast(&dummy, &dummy, &dummy, {9, 10, 9}, nullptr,
                                               FastConfig{FastVariant::thin_rows, 1}),
                    Catch::Contains("at most 8 rows"));
  CHECK_THROWS_WITH(course::step4::launch_fast(&dummy, &dummy, &dummy, {9, 10, 9}, nullptr,
                                               FastConfig{FastVariant::thin_cols, 1}),
                    Catch::Contains("at most 8 columns"));
}
