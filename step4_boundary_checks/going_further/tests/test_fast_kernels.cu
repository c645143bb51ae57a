/// @file test_fast_kernels.cu
/// @brief The fast kernel of step 4 (every tile, its float4 and scalar paths, the automatic choice)
/// against the CPU reference with the checks of the lesson's kernels (tests/kernel_checks.hpp):
/// every small shape, the tile edges, thin and large ragged shapes; and misaligned matrices.
#include "common/testing/catch2.hpp"

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"
#include "step4_boundary_checks/tests/kernel_checks.hpp"

#include <algorithm>
#include <vector>

namespace {

using course::step4::FastVariant;
using course::step4::testing::Kernel;

Kernel fast(FastVariant variant, int tile_rows, int tile_depth, int tile_cols) {
  return {"fast " + course::step4::fast_variant_name(variant),
          [variant](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
            course::step4::launch_fast(a, b, c, sizes, nullptr, variant);
          },
          tile_rows, tile_depth, tile_cols};
}

std::vector<Kernel> fast_kernels() {
  return {
      fast(FastVariant::bm128_bn128_bk8, 128, 8, 128),
      fast(FastVariant::bm128_bn128_bk16, 128, 16, 128),
      fast(FastVariant::bm128_bn64_bk8, 128, 8, 64),
      fast(FastVariant::bm128_bn128_bk16_async, 128, 16, 128),
      fast(FastVariant::bm64_bn128_bk16_async, 64, 16, 128),
      fast(FastVariant::automatic, 128, 8, 128),
  };
}

}  // namespace

TEST_CASE("the fast kernel's tiles match the CPU reference on every shape up to 40",
          "[step4][gpu][sweep]") {
  std::vector<Kernel> kernels = fast_kernels();
  // For shapes this small, "fast auto" is one of the variants swept here anyway.
  kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                               [](const Kernel& kernel) { return kernel.name == "fast auto"; }),
                kernels.end());
  course::step4::testing::sweep_all_shapes(kernels, 40);
}

TEST_CASE("the fast kernel is right one below and at and one above each tile edge",
          "[step4][gpu]") {
  course::step4::testing::check_tile_edges(fast_kernels());
}

TEST_CASE("the fast kernel handles inner = 1 and single rows and single columns", "[step4][gpu]") {
  course::step4::testing::check_thin_shapes(fast_kernels());
}

TEST_CASE("the fast kernel is right on large ragged shapes", "[step4][gpu]") {
  course::step4::testing::check_large_ragged_shapes(fast_kernels());
}

TEST_CASE("the fast kernel falls back to scalar loads for misaligned matrices", "[step4][gpu]") {
  // inner and cols are multiples of 4, but the matrices start one float past a 16-byte boundary:
  // float4 loads would be misaligned, so the launcher must choose the scalar path.
  const std::uint64_t seed = course::fresh_seed();
  const int rows = 203;
  const int inner = 132;
  const int cols = 260;
  INFO("seed " << seed);
  course::HostMatrix<float> a_host(rows, inner);
  course::HostMatrix<float> b_host(inner, cols);
  course::fill_uniform(a_host, seed);
  course::fill_uniform(b_host, seed + 1);
  course::DeviceBuffer<float> a_device(a_host.size() + 1);
  course::DeviceBuffer<float> b_device(b_host.size() + 1);
  course::DeviceBuffer<float> c_device(static_cast<std::size_t>(rows) * cols + 1);
  CUDA_CHECK(cudaMemcpy(a_device.data() + 1, a_host.data(), a_host.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(b_device.data() + 1, b_host.data(), b_host.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  for (course::step4::FastVariant variant :
       {course::step4::FastVariant::bm128_bn128_bk8, course::step4::FastVariant::bm128_bn128_bk16,
        course::step4::FastVariant::bm128_bn64_bk8,
        course::step4::FastVariant::bm128_bn128_bk16_async}) {
    INFO("variant " << course::step4::fast_variant_name(variant));
    c_device.poison();
    course::step4::launch_fast(a_device.data() + 1, b_device.data() + 1, c_device.data() + 1,
                               {rows, inner, cols}, nullptr, variant);
    course::HostMatrix<float> got(rows, cols);
    CUDA_CHECK(cudaMemcpy(got.data(), c_device.data() + 1, got.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
    const course::CompareResult result = course::compare_with_reference(
        got, course::matmul_reference(a_host, b_host), course::Tolerance::fp32_accumulation(inner));
    INFO(result.summary());
    CHECK(result.ok());
  }
}
