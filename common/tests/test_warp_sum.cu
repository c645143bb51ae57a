/// @file test_warp_sum.cu
/// @brief warp_sum_all_lanes against sums on the CPU, on random values (GPU). Built for
///        sm_80+ it checks the one-instruction path, built for sm_75 (or compute_75 PTX) the
///        shuffle path.
#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/launch_math.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/random_sampling.hpp"
#include "common/warp_sum.cuh"

#include <cstdint>
#include <vector>

namespace {

/// Each lane writes its warp's sum of values[] (one value per thread).
__global__ void warp_sum_kernel(const unsigned* values, unsigned* sums) {
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  sums[thread] = course::warp_sum_all_lanes(values[thread]);
}

}  // namespace

TEST_CASE("warp sums equal the sums of each warp's 32 values on the CPU", "[common][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  constexpr int kThreads = 256 * 40;  // 40 blocks of 8 warps
  course::Random random(seed);
  std::vector<unsigned> values(kThreads);
  for (unsigned& value : values) {
    // Large values too, so that a sum wraps around 2^32 in some warps.
    value = static_cast<unsigned>(random.next() >> 32);
  }
  course::DeviceBuffer<unsigned> device_values(kThreads, "values");
  course::DeviceBuffer<unsigned> device_sums(kThreads, "sums");
  device_values.upload(values);
  device_sums.poison();
  warp_sum_kernel<<<course::ceil_div(kThreads, 256), 256>>>(device_values.data(),
                                                            device_sums.data());
  CUDA_CHECK_LAUNCH(warp_sum_kernel);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned> sums = device_sums.to_vector();
  for (int warp = 0; warp < kThreads / 32; ++warp) {
    std::uint32_t expected = 0;
    for (int lane = 0; lane < 32; ++lane) {
      expected += values[warp * 32 + lane];
    }
    for (int lane = 0; lane < 32; ++lane) {
      INFO("warp " << warp << " lane " << lane);
      REQUIRE(sums[warp * 32 + lane] == expected);
    }
  }
}
