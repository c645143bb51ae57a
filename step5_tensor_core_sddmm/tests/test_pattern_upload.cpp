/// @file test_pattern_upload.cpp
/// @brief GPU tests of DevicePattern: COO and CSR uploads of a bad S are refused with the
/// first bad entry or offset named; "is S a pattern?" (CPU).
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/host_sampling.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

TEST_CASE("a large S that is unsorted or out of range is refused", "[step5][gpu]") {
  course::CooMatrix s = course::random_uniform_mask(500, 500, 8000, course::fresh_seed());
  REQUIRE(s.nnz() > 4096);
  {
    const course::step5::DevicePattern valid(s);
    CHECK(valid.nnz() == 8000);
  }
  course::CooMatrix unsorted = s;
  std::swap(unsorted.row_indices[5000], unsorted.row_indices[6000]);
  std::swap(unsorted.col_indices[5000], unsorted.col_indices[6000]);
  CHECK_THROWS_WITH(course::step5::DevicePattern(unsorted), Catch::Contains("sorted"));
  course::CooMatrix out_of_range = s;
  out_of_range.col_indices[7000] = 500;
  CHECK_THROWS_WITH(course::step5::DevicePattern(out_of_range), Catch::Contains("out of range"));
}

namespace {

/// First entry at or after @p from whose successor lies in the same row of @p csr.
std::size_t first_pair_in_one_row(const course::CsrMatrix& csr, std::size_t from) {
  for (int row = 0; row < csr.rows; ++row) {
    const auto begin = std::max<std::size_t>(from, static_cast<std::size_t>(csr.row_offsets[row]));
    if (begin + 1 < static_cast<std::size_t>(csr.row_offsets[row + 1])) {
      return begin;
    }
  }
  throw std::logic_error("no row after entry " + std::to_string(from) + " holds two entries");
}

}  // namespace

TEST_CASE("a CSR pattern with bad offsets or columns is refused", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  using course::PatternValues;
  const std::vector<course::step5::testing::CsrUpload> uploads =
      course::step5::testing::uploads_under_test();
  for (std::size_t upload_index = 0; upload_index < uploads.size(); ++upload_index) {
    INFO("upload " << upload_index << " (0: the lesson's DevicePattern)");
    const auto upload = [&](const course::CsrMatrix& csr) {
      return uploads[upload_index](csr, PatternValues::upload);
    };
    // Large and small S (approach 4's upload checks the large one on the GPU).
    for (const std::size_t nnz : {std::size_t{8000}, std::size_t{200}}) {
      const course::CsrMatrix valid =
          course::coo_to_csr(course::random_uniform_mask(500, 500, nnz, seed));
      CHECK(uploads[upload_index](valid, PatternValues::all_ones)->nnz() ==
            static_cast<std::int64_t>(nnz));
      course::CsrMatrix decreasing = valid;
      std::swap(decreasing.row_offsets[100], decreasing.row_offsets[300]);
      REQUIRE(decreasing.row_offsets[100] > decreasing.row_offsets[101]);
      CHECK_THROWS_WITH(upload(decreasing), Catch::Contains("row offset"));
      course::CsrMatrix wrong_end = valid;
      wrong_end.row_offsets.back() -= 1;
      CHECK_THROWS_WITH(upload(wrong_end), Catch::Contains("row offset"));
      course::CsrMatrix out_of_range = valid;
      out_of_range.col_indices[nnz / 2] = 500;
      out_of_range.col_indices[nnz / 2 + 3] = -1;  // a later bad entry: the first is named
      CHECK_THROWS_WITH(upload(out_of_range),
                        Catch::Contains("S entry " + std::to_string(nnz / 2) + " (") &&
                            Catch::Contains("out of range"));
      course::CsrMatrix out_of_order = valid;
      const std::size_t swapped = first_pair_in_one_row(valid, nnz / 3);
      std::swap(out_of_order.col_indices[swapped], out_of_order.col_indices[swapped + 1]);
      CHECK_THROWS_WITH(upload(out_of_order),
                        Catch::Contains("entry " + std::to_string(swapped + 1) + " comes before"));
      course::CsrMatrix too_few_offsets = valid;
      too_few_offsets.row_offsets.pop_back();
      CHECK_THROWS_WITH(upload(too_few_offsets), Catch::Contains("rows + 1"));
    }
  }
}
