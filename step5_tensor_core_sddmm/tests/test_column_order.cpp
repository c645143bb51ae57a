// Step 5, tests (lesson "Tests"): approach 4's lane groups in column order.
// Read first: column_order.hpp (when a panel is ordered), approach_checks.hpp.
/// @file test_column_order.cpp
/// @brief GPU tests of the column order of approach 4's lane groups: a short wide mask, the
/// order beside dense panels and very sparse rows, beside full tiles (a sliding window with
/// global columns), and the choice itself (off, too sparse, bad options).
#include <catch2/catch.hpp>

#include "common/attention_masks.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "step5_launchers.hpp"
#include "tests/approach_checks.hpp"

#include <cstdint>
#include <stdexcept>

using namespace course::step5::testing;  // the shared checks and matrices of approach_checks.hpp

namespace {

/// Options under which even a small S is ordered by column where its columns repeat.
course::step5::Options small_column_order() {
  course::step5::Options options;
  options.column_order_min_nnz = 0;
  return options;
}

/// Whether approach 4's plan orders some panels of @p s by column under @p options.
bool ordered_by_column(const course::CooMatrix& s, const course::step5::Options& options) {
  const course::step5::DevicePattern pattern(s);
  return course::step5::Plan(course::step5::Approach::hybrid, pattern, 64, options)
      .column_ordered();
}

/// Approach 4 on @p s at inner 64, 256 and 72, with 16-byte loads (ld = inner) and without
/// (ld = inner + 3), with 4 and 32 lanes per nonzero.
void check_column_order(const course::CooMatrix& s, std::uint64_t seed,
                        course::step5::Options options) {
  for (const int lanes : {4, 32}) {
    options.group_lanes = lanes;
    for (const int inner : {64, 256, 72}) {
      check_approach(course::step5::Approach::hybrid, s, inner, inner, seed, options);
      check_approach(course::step5::Approach::hybrid, s, inner, inner + 3, seed, options);
    }
  }
}

}  // namespace

TEST_CASE("approach 4 column order on a short wide mask", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 200 x 1500 at 4 %: about 2.6 entries per column in each 64-row panel, below the Tensor
  // Core density; the last panel has 8 rows.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(200, 1500, 12000, seed), seed);
  REQUIRE(ordered_by_column(s, small_column_order()));
  check_column_order(s, seed, small_column_order());
  check_csr_upload(s, course::step5::PatternValues::upload, 100, seed);
}

TEST_CASE("approach 4 column order beside dense panels and very sparse rows", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Rows 0..63 at 30 % (a dense panel), rows 64..191 at 4 % (ordered), rows 192..299 at
  // 0.1 % (S's order).
  const course::CooMatrix top =
      stack_rows(course::random_uniform_mask(64, 900, 17280, seed),
                 course::random_uniform_mask(128, 900, 4608, seed + 1), 1.5f);
  const course::CooMatrix s = with_random_values(
      stack_rows(top, course::random_uniform_mask(108, 900, 97, seed + 2), -1.0f), seed);
  course::step5::Options options = small_column_order();
  options.tc_min_nnz = 0;  // Tensor Cores even for this small S
  const course::step5::DevicePattern pattern(s);
  const course::step5::Plan plan(course::step5::Approach::hybrid, pattern, 64, options);
  CHECK(plan.tensor_core_units() == 1);
  CHECK(plan.column_ordered());
  check_column_order(s, seed, options);
}

TEST_CASE("approach 4 column order beside full tiles of a sliding window", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Window +-64 with 8 global rows and columns over 520 rows: full tiles on the diagonal,
  // the triangles beside them and the global columns left to the lane groups, the global
  // rows spread over all columns; the last panel has 8 rows.
  const course::CooMatrix s = with_random_values(
      course::attention_mask(course::sliding_window_spec(520, 520, 64, 8, false)), seed);
  course::step5::Options options = small_column_order();
  options.full_tile_min_nnz = 0;
  options.tc_density = 1.0;  // no dense panel: full tiles and lane groups only
  const course::step5::DevicePattern pattern(s);
  const course::step5::Plan plan(course::step5::Approach::hybrid, pattern, 64, options);
  CHECK(plan.full_tiles() > 0);
  CHECK(plan.column_ordered());
  check_column_order(s, seed, options);
}

TEST_CASE("approach 4 column order only where columns repeat and when asked", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  const course::CooMatrix wide = course::random_uniform_mask(200, 1500, 12000, seed);
  course::step5::Options off = small_column_order();
  off.column_order_reuse = 0.0;
  CHECK_FALSE(ordered_by_column(wide, off));
  CHECK_FALSE(ordered_by_column(wide, course::step5::Options{}));  // below column_order_min_nnz
  // 0.2 % of 3000 x 2000: 0.13 entries per spanned column in a panel.
  CHECK_FALSE(ordered_by_column(course::random_uniform_mask(3000, 2000, 12000, seed),
                                small_column_order()));
  course::step5::Options negative;
  negative.column_order_reuse = -1.0;
  CHECK_THROWS_AS(ordered_by_column(wide, negative), std::invalid_argument);
  course::step5::Options negative_min;
  negative_min.column_order_min_nnz = -1;
  CHECK_THROWS_AS(ordered_by_column(wide, negative_min), std::invalid_argument);
}
