/// @file test_gpu_description.cpp
/// @brief The GPU described once: the figures derived from a description (the DRAM peak,
/// cp.async from the compute capability) on the described GPUs, and, on a GPU, the description
/// read from the device against what cudaGetDeviceProperties reports.
#include "common/testing/catch2.hpp"

#include "common/device.hpp"
#include "common/gpu_description.hpp"
#include "common/testing/described_gpus.hpp"

#include <cuda_runtime_api.h>

#include <vector>

namespace {

std::vector<course::GpuDescription> described_gpus() {
  using namespace course::testing;
  return {t4_description(), a100_40gb_description(), l4_description(), h100_sxm_description()};
}

}  // namespace

TEST_CASE("the DRAM peak is two transfers per memory clock over the whole bus",
          "[common][device]") {
  using namespace course::testing;
  // 2 · 2619 MHz · 5120 bits / 8 = 3352.32 GB/s: the H100 SXM's 3.35 TB/s of the data sheet.
  CHECK(course::dram_peak_bytes_per_second(h100_sxm_description()) == Approx(3352.32e9));
  // 2 · 5001 MHz · 256 bits / 8 = 320.064 GB/s: the T4's 320 GB/s.
  CHECK(course::dram_peak_bytes_per_second(t4_description()) == Approx(320.064e9));
  // 2 · 1215 MHz · 5120 bits / 8 = 1555.2 GB/s: the A100-40GB's 1555 GB/s.
  CHECK(course::dram_peak_bytes_per_second(a100_40gb_description()) == Approx(1555.2e9));
}

TEST_CASE("cp.async comes with compute capability 8.0", "[common][device]") {
  using namespace course::testing;
  CHECK_FALSE(course::has_async_copies(t4_description()));
  CHECK(course::has_async_copies(a100_40gb_description()));
  CHECK(course::has_async_copies(l4_description()));
  CHECK(course::has_async_copies(h100_sxm_description()));
  course::GpuDescription volta;
  volta.major = 7;
  volta.minor = 0;
  CHECK_FALSE(course::has_async_copies(volta));
}

TEST_CASE("every described GPU's limits fit together", "[common][device]") {
  for (const course::GpuDescription& gpu : described_gpus()) {
    INFO(gpu.name);
    CHECK(gpu.major * 10 + gpu.minor >= course::kMinComputeMajor * 10 + course::kMinComputeMinor);
    CHECK(gpu.sm_count > 0);
    CHECK(gpu.shared_bytes_per_block <= gpu.shared_bytes_per_sm);
    CHECK(gpu.registers_per_block <= gpu.registers_per_sm);
    CHECK(gpu.max_threads_per_sm >= 1024);
    CHECK(gpu.max_blocks_per_sm >= 16);
    CHECK(gpu.l2_bytes >= 4LL << 20);
    // The system keeps 1 KiB per block from sm_80 on, nothing before.
    CHECK(gpu.shared_bytes_reserved_per_block == (gpu.major >= 8 ? 1024 : 0));
  }
}

TEST_CASE("the current GPU's description agrees with cudaGetDeviceProperties",
          "[common][device][gpu]") {
  const course::GpuDescription& gpu = course::describe_current_gpu();
  CHECK(&course::require_cuda_device() == &gpu);  // read once per device
  int device = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  cudaDeviceProp properties{};
  REQUIRE(cudaGetDeviceProperties(&properties, device) == cudaSuccess);
  INFO(gpu.name);
  CHECK(gpu.name == properties.name);
  CHECK(gpu.major == properties.major);
  CHECK(gpu.minor == properties.minor);
  CHECK(gpu.sm_count == properties.multiProcessorCount);
  CHECK(gpu.memory_bus_bits == properties.memoryBusWidth);
  CHECK(gpu.shared_bytes_per_block == static_cast<int>(properties.sharedMemPerBlockOptin));
  CHECK(gpu.shared_bytes_per_sm == static_cast<int>(properties.sharedMemPerMultiprocessor));
  CHECK(gpu.shared_bytes_reserved_per_block ==
        static_cast<int>(properties.reservedSharedMemPerBlock));
  CHECK(gpu.registers_per_sm == properties.regsPerMultiprocessor);
  CHECK(gpu.registers_per_block == properties.regsPerBlock);
  CHECK(gpu.max_threads_per_sm == properties.maxThreadsPerMultiProcessor);
  CHECK(gpu.max_blocks_per_sm == properties.maxBlocksPerMultiProcessor);
  CHECK(gpu.l2_bytes == properties.l2CacheSize);
  // CUDA 13's cudaDeviceProp has no clocks: only the attributes report them.
  CHECK(gpu.sm_clock_khz > 0);
  CHECK(gpu.memory_clock_khz > 0);
  CHECK(course::dram_peak_bytes_per_second(gpu) > 1e11);
}
