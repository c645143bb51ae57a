/// @file test_fragment_shuffle.cpp
/// @brief GPU tests of the two small experiments: the fragment map against the hardware and
/// the shuffle-mask reductions.
///
/// Step 5, tests (lesson "Tests"): the two experiments on the GPU.
/// Read first: experiments/fragment_probe.hpp, experiments/shuffle_mask.hpp.
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "step5_tensor_core_sddmm/lab/experiments/fragment_probe.hpp"
#include "step5_tensor_core_sddmm/lab/experiments/shuffle_mask.hpp"
#include <cstddef>
#include <stdexcept>

TEST_CASE("fragment map equals the hardware layout", "[step5][gpu]") {
  const course::GpuDescription device = course::require_cuda_device(7, 0, "Tensor Cores");
  if (device.major < 8) {
    WARN("fragment_map.cuh describes sm_80+; this GPU is sm_" << device.major << device.minor
                                                              << " (approach 3 uses its "
                                                                 "layout-free path here)");
    return;
  }
  for (const auto shape : {course::step5::WmmaShape::m16n16k16, course::step5::WmmaShape::m32n8k16,
                           course::step5::WmmaShape::m8n32k16}) {
    const auto layout = course::step5::measure_accumulator_layout(shape);
    REQUIRE(layout.size() == 256);
    for (int lane = 0; lane < 32; ++lane) {
      for (int index = 0; index < 8; ++index) {
        const auto measured = layout[static_cast<std::size_t>(lane * 8 + index)];
        const auto mapped = course::step5::accumulator_element(shape, lane, index);
        INFO(course::step5::shape_name(shape)
             << " lane " << lane << " index " << index << ": hardware [" << measured.row << ","
             << measured.col << "], map [" << mapped.row << "," << mapped.col << "]");
        CHECK(measured.row == mapped.row);
        CHECK(measured.col == mapped.col);
      }
    }
  }
}

TEST_CASE("partial warp sums with a ballot mask or with all lanes staying", "[step5][gpu]") {
  for (int active = 1; active <= 32; ++active) {
    INFO("active lanes " << active);
    CHECK(course::step5::partial_warp_sum(active, course::step5::ShuffleMode::ballot_mask) ==
          course::step5::expected_partial_sum(active));
    CHECK(course::step5::partial_warp_sum(active, course::step5::ShuffleMode::all_lanes_stay) ==
          course::step5::expected_partial_sum(active));
  }
  CHECK_THROWS_AS(course::step5::partial_warp_sum(0, course::step5::ShuffleMode::ballot_mask),
                  std::invalid_argument);
}

TEST_CASE("expected partial warp sums", "[step5]") {
  CHECK(course::step5::expected_partial_sum(1) == 1);
  CHECK(course::step5::expected_partial_sum(32) == 528);
}
