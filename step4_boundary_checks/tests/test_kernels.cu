// Step 4's kernels against the CPU reference on every small shape, the tile edges, thin
// shapes and large ragged shapes, with poisoned outputs and fresh seeds.
#include <catch2/catch.hpp>

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

using Launch = std::function<void(const float*, const float*, float*, const course::ProductSizes&)>;

/// A kernel under test with the tile sizes whose edges it must survive.
struct Kernel {
  std::string name;
  Launch launch;
  int tile_rows;   // rows of C per block
  int tile_depth;  // inner per phase
  int tile_cols;   // columns of C per block
};

std::vector<Kernel> kernels_under_test() {
  // One workspace shared by every call: shapes change between calls, so this also checks
  // that the padding is re-zeroed whenever the padded shape changes.
  auto workspace = std::make_shared<course::step4::PaddedWorkspace>();
  using course::step4::FastVariant;
  auto fast = [](FastVariant variant) {
    return [variant](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
      course::step4::launch_fast(a, b, c, sizes, nullptr, variant);
    };
  };
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
      {"fast 128x128x8", fast(FastVariant::bm128_bn128_bk8), 128, 8, 128},
      {"fast 128x128x16", fast(FastVariant::bm128_bn128_bk16), 128, 16, 128},
      {"fast 128x64x8", fast(FastVariant::bm128_bn64_bk8), 128, 8, 64},
      {"fast 128x128x16 async", fast(FastVariant::bm128_bn128_bk16_async), 128, 16, 128},
      {"fast 64x128x16 async", fast(FastVariant::bm64_bn128_bk16_async), 64, 16, 128},
      {"fast auto", fast(FastVariant::automatic), 128, 8, 128},
  };
}

/// Runs @p kernel on fresh uniform inputs of one shape (exact-size allocations, poisoned
/// output) and compares with the double reference.
void check_shape(const Kernel& kernel, int rows, int inner, int cols, std::uint64_t seed) {
  INFO(kernel.name << " on " << rows << "x" << inner << "x" << cols << ", seed " << seed);
  course::ProductOperands operands(rows, inner, cols, seed);
  kernel.launch(operands.device_a.data(), operands.device_b.data(), operands.device_c.data(),
                {rows, inner, cols});
  const course::HostMatrix<float> got = operands.device_c.to_host();
  const course::CompareResult result =
      course::compare_with_reference(got, course::matmul_reference(operands.a, operands.b),
                                     course::Tolerance::fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
}

/// Every shape with rows, inner, cols in 1..@p limit. The inputs are prefixes of two random pools
/// of small integers, uploaded once (a contiguous rows×inner matrix is just the first rows·inner
/// values), so each shape costs one memset, one launch and one copy back; small integers make every
/// product exact, so the comparison is exact too.
void sweep_all_shapes(const Kernel& kernel, int limit) {
  const std::uint64_t seed = course::fresh_seed();
  INFO(kernel.name << ", seed " << seed);
  const std::size_t pool_size = static_cast<std::size_t>(limit) * limit;
  std::vector<float> a_pool(pool_size);
  std::vector<float> b_pool(pool_size);
  course::fill_small_integers(a_pool.data(), pool_size, seed);
  course::fill_small_integers(b_pool.data(), pool_size, seed + 1);
  course::DeviceBuffer<float> a_device(pool_size);
  course::DeviceBuffer<float> b_device(pool_size);
  course::DeviceBuffer<float> c_device(pool_size);
  a_device.upload(a_pool);
  b_device.upload(b_pool);

  std::size_t failed_shapes = 0;
  std::string first_failure;
  for (int rows = 1; rows <= limit; ++rows) {
    for (int inner = 1; inner <= limit; ++inner) {
      course::HostMatrix<float> a_host(rows, inner);
      std::copy(a_pool.begin(), a_pool.begin() + a_host.size(), a_host.data());
      for (int cols = 1; cols <= limit; ++cols) {
        course::HostMatrix<float> b_host(inner, cols);
        std::copy(b_pool.begin(), b_pool.begin() + b_host.size(), b_host.data());
        c_device.poison();
        kernel.launch(a_device.data(), b_device.data(), c_device.data(), {rows, inner, cols});
        course::HostMatrix<float> got(rows, cols);
        c_device.download(got.data(), got.size());
        const course::CompareResult result = course::compare_with_reference(
            got, course::matmul_reference(a_host, b_host), course::Tolerance::exact());
        if (!result.ok()) {
          if (failed_shapes == 0) {
            first_failure = std::to_string(rows) + "x" + std::to_string(inner) + "x" +
                            std::to_string(cols) + ": " + result.summary();
          }
          ++failed_shapes;
        }
      }
    }
  }
  INFO("first failing shape " << first_failure);
  CHECK(failed_shapes == 0);
}

std::vector<int> around(int tile) {
  std::vector<int> sizes;
  for (int size : {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1}) {
    if (size >= 1) {
      sizes.push_back(size);
    }
  }
  return sizes;
}

}  // namespace

TEST_CASE("step 4 kernels match the CPU reference on every shape up to 40", "[step4][gpu][sweep]") {
  for (const Kernel& kernel : kernels_under_test()) {
    if (kernel.name == "fast auto") {
      continue;  // for shapes this small, auto is one of the variants swept here
    }
    sweep_all_shapes(kernel, 40);
  }
}

TEST_CASE("the checked kernel with the note's tile width 2 matches on every shape up to 20",
          "[step4][gpu][sweep]") {
  const Kernel tile2{
      "tiled checked 2",
      [](const float* a, const float* b, float* c, const course::ProductSizes& sizes) {
        course::step4::launch_tiled_checked(a, b, c, sizes, nullptr, 2);
      },
      2, 2, 2};
  sweep_all_shapes(tile2, 20);
}

TEST_CASE("step 4 kernels are right one below and at and one above each tile edge",
          "[step4][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  for (const Kernel& kernel : kernels_under_test()) {
    for (int rows : around(kernel.tile_rows)) {
      for (int inner : around(kernel.tile_depth)) {
        for (int cols : around(kernel.tile_cols)) {
          check_shape(kernel, rows, inner, cols, seed + rows * 7 + inner * 13 + cols);
        }
      }
    }
  }
}

TEST_CASE("step 4 kernels handle inner = 1 and single rows and single columns", "[step4][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  const int shapes[][3] = {{1, 1, 1},       {1, 1000, 1}, {1, 777, 1031}, {1000, 777, 1},
                           {1000, 1, 1031}, {517, 1, 1},  {1, 1, 613},    {300, 2, 5}};
  for (const Kernel& kernel : kernels_under_test()) {
    for (const auto& shape : shapes) {
      check_shape(kernel, shape[0], shape[1], shape[2], seed);
    }
  }
}

TEST_CASE("step 4 kernels are right on large ragged shapes", "[step4][gpu]") {
  const int shapes[][3] = {
      {1000, 777, 1031}, {1024, 1024, 1024}, {513, 2049, 255}, {130, 4099, 131}};
  for (const Kernel& kernel : kernels_under_test()) {
    for (const auto& shape : shapes) {
      check_shape(kernel, shape[0], shape[1], shape[2], course::fresh_seed());
    }
  }
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
