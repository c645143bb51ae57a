/// @file test_kernels.cu
/// @brief Step 4's lesson kernels (approaches 1 to 3 and the unchecked kernel) against the CPU
/// reference on every small shape, the tile edges, thin shapes and large ragged shapes, with
/// poisoned outputs and fresh seeds (the checks: kernel_checks.hpp). The fast kernel's tests are
/// in going_further/tests/.
#include "common/testing/catch2.hpp"

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/tests/kernel_checks.hpp"

#include <memory>
#include <vector>

namespace {

using course::step4::testing::Kernel;

std::vector<Kernel> kernels_under_test() {
  // One workspace shared by every call: shapes change between calls, so this also checks
  // that the padding is re-zeroed whenever the padded shape changes.
  auto workspace = std::make_shared<course::step4::PaddedWorkspace>();
  return {
      {"tiled checked 32",
       [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
         course::step4::launch_tiled_checked(a, b, c, sizes, nullptr, 32);
       },
       32, 32, 32},
      {"tiled checked 16",
       [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
         course::step4::launch_tiled_checked(a, b, c, sizes, nullptr, 16);
       },
       16, 16, 16},
      {"padded",
       [workspace](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
         course::step4::launch_padded(a, b, c, sizes, nullptr, *workspace);
       },
       32, 32, 32},
      {"rect tiles",
       [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
         course::step4::launch_rect_tiles(a, b, c, sizes);
       },
       64, 16, 64},
  };
}

/// The checks of kernel_checks.hpp on one kernel.
void check_shape(const Kernel& kernel, int rows, int inner, int cols, std::uint64_t seed) {
  course::step4::testing::check_shape({kernel}, rows, inner, cols, seed);
}

}  // namespace

TEST_CASE("the lesson's kernels match the CPU reference on every shape up to 40",
          "[step4][gpu][sweep]") {
  course::step4::testing::sweep_all_shapes(kernels_under_test(), 40);
}

TEST_CASE("the checked kernel with the note's tile width 2 matches on every shape up to 20",
          "[step4][gpu][sweep]") {
  const Kernel tile2{
      "tiled checked 2",
      [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
        course::step4::launch_tiled_checked(a, b, c, sizes, nullptr, 2);
      },
      2, 2, 2};
  course::step4::testing::sweep_all_shapes({tile2}, 20);
}

TEST_CASE("the lesson's kernels are right one below and at and one above each tile edge",
          "[step4][gpu]") {
  course::step4::testing::check_tile_edges(kernels_under_test());
}

TEST_CASE("the lesson's kernels handle inner = 1 and single rows and single columns",
          "[step4][gpu]") {
  course::step4::testing::check_thin_shapes(kernels_under_test());
}

TEST_CASE("the lesson's kernels are right on large ragged shapes", "[step4][gpu]") {
  course::step4::testing::check_large_ragged_shapes(kernels_under_test());
}

TEST_CASE("the unchecked kernel is right when every size is a multiple of its tile",
          "[step4][gpu]") {
  const Kernel unchecked32{
      "unchecked 32",
      [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
        course::step4::launch_tiled_unchecked(a, b, c, sizes, nullptr, 32);
      },
      32, 32, 32};
  const Kernel unchecked2{
      "unchecked 2",
      [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
        course::step4::launch_tiled_unchecked(a, b, c, sizes, nullptr, 2);
      },
      2, 2, 2};
  const std::uint64_t seed = course::fresh_seed();
  check_shape(unchecked32, 64, 96, 32, seed);
  check_shape(unchecked32, 32, 32, 160, seed + 1);
  check_shape(unchecked2, 4, 6, 8, seed + 2);
}

TEST_CASE("the unchecked kernel on the note's 3x3 example gets the product wrong", "[step4][gpu]") {
  // Allocations padded to cover everything the kernel touches, the slack filled with a
  // value standing for another array's data: the result must differ from the CPU's.
  const int size = 3;
  const std::size_t reach = 16;
  std::vector<float> a_values(reach, 100.0f);
  std::vector<float> b_values(reach, 100.0f);
  course::HostMatrix<float> a_host(size, size);
  course::HostMatrix<float> b_host(size, size);
  for (int index = 0; index < size * size; ++index) {
    a_host.data()[index] = a_values[index] = static_cast<float>(index + 1);
    b_host.data()[index] = b_values[index] = static_cast<float>(index % 4);
  }
  course::DeviceBuffer<float> a_device(reach);
  course::DeviceBuffer<float> b_device(reach);
  course::DeviceBuffer<float> c_device(reach);
  a_device.upload(a_values);
  b_device.upload(b_values);
  c_device.poison();
  course::step4::launch_unchecked_tile2_demo(a_device.data(), b_device.data(), c_device.data(),
                                             {size, size, size});
  course::HostMatrix<float> got(size, size);
  c_device.download(got.data(), got.size());
  const course::CompareResult result = course::compare_with_reference(
      got, course::matmul_reference(a_host, b_host), course::Tolerance::exact());
  INFO(result.summary());
  CHECK_FALSE(result.ok());
  // C0,0 only meets A0,3 (really A1,0 = 4) times B3,0 (slack, 100): 4 * 100 too much.
  const double expected_00 = 1.0 * 0 + 2.0 * 3 + 3.0 * 2;
  CHECK(got(0, 0) == Approx(expected_00 + 4.0 * 100.0));
}
