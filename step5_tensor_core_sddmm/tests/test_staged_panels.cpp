// Step 5, tests (lesson "Tests"): approach 4's staged panels against the CPU reference.
// Read first: approach_checks.hpp, then sddmm_staged_panels.cuh (the kernel tested here).
/// @file test_staged_panels.cpp
/// @brief GPU tests of approach 4's staged panels: ragged panels and column blocks, empty rows,
/// inner = 64, 128, 256 and 72 (and sizes that are no multiple of 8), scalar staging, pattern
/// values, and staged panels beside Tensor Core panels, full tiles and lane groups.
#include <catch2/catch.hpp>

#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "step5_launchers.hpp"
#include "tests/approach_checks.hpp"

#include <cstddef>
#include <cstdint>

using namespace course::step5::testing;  // the shared checks and matrices of approach_checks.hpp

namespace {

/// @p s without the entries of rows [first, last].
course::CooMatrix without_rows(const course::CooMatrix& s, int first, int last) {
  course::CooMatrix kept;
  kept.rows = s.rows;
  kept.cols = s.cols;
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    if (s.row_indices[entry] < first || s.row_indices[entry] > last) {
      kept.row_indices.push_back(s.row_indices[entry]);
      kept.col_indices.push_back(s.col_indices[entry]);
      kept.values.push_back(s.values[entry]);
    }
  }
  return kept;
}

/// Options under which a small S gets staged panels (and Tensor Core panels and full tiles).
course::step5::Options small_staged() {
  course::step5::Options options;
  options.staged_min_nnz = 0;
  options.tc_min_nnz = 0;
  options.full_tile_min_nnz = 0;
  return options;
}

/// Staged column ranges in approach 4's plan of @p s at @p inner.
std::int64_t staged_ranges(const course::CooMatrix& s, int inner,
                           const course::step5::Options& options) {
  const course::step5::DevicePattern pattern(s);
  return course::step5::Plan(course::step5::Approach::hybrid, pattern, inner, options)
      .staged_ranges();
}

}  // namespace

TEST_CASE("approach 4 staged panels with ragged edges and empty rows", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // 300 x 2000 at 4 %: every panel holds 2.6 entries per column (the last, 44 rows high, 1.8),
  // above staged_reuse and below the Tensor Core density. 2000 columns end in a 16-column
  // block; each panel spans 32 blocks, 4 ranges of 8. Rows 70..90 (inside panel 1) and 299
  // (the matrix's last) are empty.
  const course::CooMatrix s = with_random_values(
      without_rows(without_rows(course::random_uniform_mask(300, 2000, 24000, seed), 70, 90), 299,
                   299),
      seed);
  const course::step5::Options options = small_staged();
  CHECK(staged_ranges(s, 256, options) == 20);
  for (const int inner : {64, 128, 256, 72, 7, 1}) {
    // ld = inner: 16-byte staging when inner % 8 == 0; ld = inner + 3: staging one half at a time.
    check_approach(course::step5::Approach::hybrid, s, inner, inner, seed, options);
    check_approach(course::step5::Approach::hybrid, s, inner, inner + 3, seed, options);
  }
  // A pattern uploaded from CSR: the staged kernel then reads no values.
  check_csr_upload(s, course::step5::PatternValues::all_ones, 128, seed);
  check_csr_upload(s, course::step5::PatternValues::upload, 72, seed);
  // Above kStagedMaxInner, or switched off, or below staged_min_nnz: the lane groups compute all.
  CHECK(staged_ranges(s, 264, options) == 0);
  check_approach(course::step5::Approach::hybrid, s, 264, 264, seed, options);
  course::step5::Options off = options;
  off.staged_panels = false;
  CHECK(staged_ranges(s, 256, off) == 0);
  CHECK(staged_ranges(s, 256, course::step5::Options{}) == 0);  // 24000 < 131072 entries
}

TEST_CASE("approach 4 staged panels beside Tensor Core panels full tiles and lane groups",
          "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Rows 0..63 at 30 % (a Tensor Core panel), 64..191 at 4 % (staged), 192..255 at 4 % with a
  // full 64 x 64 tile at columns 128..191 (no staged panel holds a full tile: lane groups and
  // the full-tile kernel), 256..329 at 0.2 % (lane groups).
  course::CooMatrix s = course::random_uniform_mask(64, 700, 13440, seed);
  s = stack_rows(s, course::random_uniform_mask(128, 700, 3584, seed + 1), 1.0f);
  const course::CooMatrix random_part = course::random_uniform_mask(64, 700, 1792, seed + 2);
  course::CooMatrix full;  // the random entries outside columns 128..191, all 4096 inside
  full.rows = 64;
  full.cols = 700;
  for (std::size_t entry = 0; entry < random_part.nnz(); ++entry) {
    const int col = random_part.col_indices[entry];
    if (col < 128 || col >= 192) {
      full.row_indices.push_back(random_part.row_indices[entry]);
      full.col_indices.push_back(col);
      full.values.push_back(1.0f);
    }
  }
  for (int row = 0; row < 64; ++row) {
    for (int col = 128; col < 192; ++col) {
      full.row_indices.push_back(row);
      full.col_indices.push_back(col);
      full.values.push_back(1.0f);
    }
  }
  course::sort_row_major(full);
  s = stack_rows(s, full, 1.0f);
  s = stack_rows(s, course::random_uniform_mask(74, 700, 100, seed + 3), 1.0f);
  s = with_random_values(s, seed);
  const course::step5::Options options = small_staged();
  {
    const course::step5::DevicePattern pattern(s);
    const course::step5::Plan plan(course::step5::Approach::hybrid, pattern, 64, options);
    CHECK(plan.tensor_core_units() == 1);
    CHECK(plan.staged_ranges() == 4);  // 2 panels of 11 column blocks, 2 ranges each
    CHECK(plan.full_tiles() == 1);
  }
  for (const int inner : {64, 128, 256, 72}) {
    check_approach(course::step5::Approach::hybrid, s, inner, inner, seed, options);
  }
}
