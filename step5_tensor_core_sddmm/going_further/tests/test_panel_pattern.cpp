/// @file test_panel_pattern.cpp
/// @brief GPU test of S's panel statistics: PanelPattern's upload (on the GPU for a large S,
/// on the host for a small one) and panel_statistics() of a pattern the lesson uploaded must
/// both give the counts and spans of a count on the host. (Bad S refused by PanelPattern: the
/// lesson's tests/test_pattern_upload.cpp, through ExtraUpload.)
///
/// Step 5, going further, tests (lesson "Tests"): S measured by 64-row panel.
/// Read first: ../panel_statistics.hpp, ../panel_pattern.hpp.
#include "common/testing/catch2.hpp"

#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace {

/// Nonzeros and column span of each 64-row panel of @p s, counted on the host entry by entry.
std::pair<std::vector<std::int64_t>, std::vector<course::step5::PanelSpan>> panels_of(
    const course::CooMatrix& s) {
  const auto panel_count = static_cast<std::size_t>((s.rows + 63) / 64);
  std::vector<std::int64_t> counts(panel_count, 0);
  std::vector<course::step5::PanelSpan> spans(panel_count);
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const auto panel = static_cast<std::size_t>(s.row_indices[entry] / 64);
    const int col = s.col_indices[entry];
    ++counts[panel];
    course::step5::PanelSpan& span = spans[panel];
    span.first_col = span.first_col < 0 ? col : std::min(span.first_col, col);
    span.last_col = std::max(span.last_col, col);
  }
  return {counts, spans};
}

}  // namespace

TEST_CASE("approach 4's upload and a later measurement count the same panels and spans",
          "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 1000 rows: 16 panels, the last one partial, and 4 blocks of the CSR kernel, the last
  // one partial. Rows 130..330 are emptied, so whole panels and parts of panels hold nothing.
  course::CooMatrix s = course::random_uniform_mask(1000, 3000, 20000, seed);
  course::CooMatrix holes = s;
  holes.row_indices.clear();
  holes.col_indices.clear();
  holes.values.clear();
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    if (s.row_indices[entry] < 130 || s.row_indices[entry] > 330) {
      holes.row_indices.push_back(s.row_indices[entry]);
      holes.col_indices.push_back(s.col_indices[entry]);
      holes.values.push_back(s.values[entry]);
    }
  }
  const course::CooMatrix small = course::random_uniform_mask(200, 90, 1000, seed + 1);
  for (const course::CooMatrix* matrix : std::vector<const course::CooMatrix*>{&holes, &small}) {
    INFO("rows=" << matrix->rows << " cols=" << matrix->cols << " nnz=" << matrix->nnz());
    const auto expected = panels_of(*matrix);
    // The lesson's upload (measured afterwards by panel_statistics) and approach 4's.
    const course::step5::DevicePattern from_coo(*matrix);
    course::step5::PanelStatistics measured;
    const course::step5::PanelStatistics& after =
        course::step5::panel_statistics(from_coo, measured);
    const course::step5::PanelPattern from_csr(course::coo_to_csr(*matrix));
    for (const course::step5::PanelStatistics* panels : {&after, &from_csr.panels()}) {
      CHECK(panels->nnz == expected.first);
      REQUIRE(panels->spans.size() == expected.second.size());
      for (std::size_t panel = 0; panel < expected.second.size(); ++panel) {
        INFO("panel " << panel << (panels == &after ? " measured after" : " from the upload"));
        CHECK(panels->spans[panel].first_col == expected.second[panel].first_col);
        CHECK(panels->spans[panel].last_col == expected.second[panel].last_col);
      }
    }
  }
}
