/// @file kernel_checks.cu
/// @brief The checks of step 4's kernel tests (see kernel_checks.hpp).
#include "step4_boundary_checks/tests/kernel_checks.hpp"

#include "common/testing/catch2.hpp"

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/matrix.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"

#include <algorithm>

namespace course::step4::testing {
namespace {

// Where the C of each width 1..limit starts in the sweep's output buffer, for @p rows rows: the
// products of one (rows, inner) pair lie side by side, each start rounded up to 4 floats so
// that every C is 16-byte aligned like a fresh allocation (the fast kernel's float4 path stays
// in play); the last entry is the buffer's length.
std::vector<std::size_t> sweep_offsets(int rows, int limit) {
  std::vector<std::size_t> offsets(limit + 2, 0);
  for (int cols = 1; cols <= limit; ++cols) {
    const std::size_t end = offsets[cols] + static_cast<std::size_t>(rows) * cols;
    offsets[cols + 1] = (end + 3) / 4 * 4;
  }
  return offsets;
}

// The sizes one below, at and one above the tile and twice the tile, those >= 1.
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

void check_shape(const std::vector<Kernel>& kernels, int rows, int inner, int cols,
                 std::uint64_t seed) {
  course::ProductOperands operands(rows, inner, cols, seed);
  const course::ReferenceProduct reference = course::matmul_reference(operands.a, operands.b);
  for (const Kernel& kernel : kernels) {
    INFO(kernel.name << " on " << rows << "x" << inner << "x" << cols << ", seed " << seed);
    operands.device_c.poison();
    kernel.launch(operands.device_a.data(), operands.device_b.data(), operands.device_c.data(),
                  {rows, inner, cols});
    const course::CompareResult result = course::compare_with_reference(
        operands.device_c.to_host(), reference, course::Tolerance::fp32_accumulation(inner));
    INFO(result.summary());
    CHECK(result.ok());
  }
}

// Every shape with rows, inner, cols in 1..limit, for each kernel. The inputs are
// prefixes of two random pools of small integers, uploaded once (a contiguous rows×inner matrix
// is just the first rows·inner values); small integers make every product exact, so the
// comparison is exact too. The shapes of one (rows, inner) pair share one poisoned output
// buffer, one copy back and the double references (computed once for all kernels), so the
// sweep costs about one launch per shape. The launches go from the widest C to the narrowest:
// a kernel that writes past the end of its C lands in the next, already written, product and
// spoils it, so such a write fails the sweep instead of being overwritten.
void sweep_all_shapes(const std::vector<Kernel>& kernels, int limit) {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const std::size_t pool_size = static_cast<std::size_t>(limit) * limit;
  std::vector<float> a_pool(pool_size);
  std::vector<float> b_pool(pool_size);
  course::fill_small_integers(a_pool.data(), pool_size, seed);
  course::fill_small_integers(b_pool.data(), pool_size, seed + 1);
  course::DeviceBuffer<float> a_device(pool_size);
  course::DeviceBuffer<float> b_device(pool_size);
  course::DeviceBuffer<float> c_device(sweep_offsets(limit, limit).back());
  a_device.upload(a_pool);
  b_device.upload(b_pool);

  std::size_t failed_shapes = 0;
  std::string first_failure;
  for (int rows = 1; rows <= limit; ++rows) {
    const std::vector<std::size_t> offsets = sweep_offsets(rows, limit);
    for (int inner = 1; inner <= limit; ++inner) {
      course::HostMatrix<float> a_host(rows, inner);
      std::copy(a_pool.begin(), a_pool.begin() + a_host.size(), a_host.data());
      std::vector<course::ReferenceProduct> references;
      for (int cols = 1; cols <= limit; ++cols) {
        course::HostMatrix<float> b_host(inner, cols);
        std::copy(b_pool.begin(), b_pool.begin() + b_host.size(), b_host.data());
        references.push_back(course::matmul_reference(a_host, b_host));
      }
      for (const Kernel& kernel : kernels) {
        c_device.poison();
        for (int cols = limit; cols >= 1; --cols) {
          kernel.launch(a_device.data(), b_device.data(), c_device.data() + offsets[cols],
                        {rows, inner, cols});
        }
        const std::vector<float> outputs = c_device.to_vector();
        for (int cols = 1; cols <= limit; ++cols) {
          course::HostMatrix<float> got(rows, cols);
          std::copy(outputs.begin() + offsets[cols], outputs.begin() + offsets[cols] + got.size(),
                    got.data());
          const course::CompareResult result =
              course::compare_with_reference(got, references[cols - 1], course::Tolerance::exact());
          if (!result.ok() && failed_shapes++ == 0) {
            first_failure = kernel.name + " on " + std::to_string(rows) + "x" +
                            std::to_string(inner) + "x" + std::to_string(cols) + ": " +
                            result.summary();
          }
        }
      }
    }
  }
  INFO("first failing shape " << first_failure);
  CHECK(failed_shapes == 0);
}

void check_tile_edges(const std::vector<Kernel>& kernels) {
  const std::uint64_t seed = course::fresh_seed();
  for (const Kernel& kernel : kernels) {
    for (int rows : around(kernel.tile_rows)) {
      for (int inner : around(kernel.tile_depth)) {
        for (int cols : around(kernel.tile_cols)) {
          check_shape({kernel}, rows, inner, cols, seed + rows * 7 + inner * 13 + cols);
        }
      }
    }
  }
}

void check_thin_shapes(const std::vector<Kernel>& kernels) {
  const std::uint64_t seed = course::fresh_seed();
  const int shapes[][3] = {{1, 1, 1},       {1, 1000, 1}, {1, 777, 1031}, {1000, 777, 1},
                           {1000, 1, 1031}, {517, 1, 1},  {1, 1, 613},    {300, 2, 5}};
  for (const auto& shape : shapes) {
    check_shape(kernels, shape[0], shape[1], shape[2], seed);
  }
}

void check_large_ragged_shapes(const std::vector<Kernel>& kernels) {
  const int shapes[][3] = {
      {1000, 777, 1031}, {1024, 1024, 1024}, {513, 2049, 255}, {130, 4099, 131}};
  for (const auto& shape : shapes) {
    check_shape(kernels, shape[0], shape[1], shape[2], course::fresh_seed());
  }
}

}  // namespace course::step4::testing
