/// @file gpu_description.cpp
/// @brief describe_current_gpu() and the figures derived from a description (see
/// gpu_description.hpp).
#include "common/gpu_description.hpp"

#include "common/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>

namespace course {
namespace {

int attribute(cudaDeviceAttr which, int device) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
  return value;
}

GpuDescription read_gpu(int device) {
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  GpuDescription gpu;
  gpu.name = properties.name;
  gpu.major = properties.major;
  gpu.minor = properties.minor;
  gpu.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  gpu.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
  gpu.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  gpu.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  gpu.shared_bytes_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  gpu.shared_bytes_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  gpu.shared_bytes_reserved_per_block = attribute(cudaDevAttrReservedSharedMemoryPerBlock, device);
  gpu.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, device);
  gpu.registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock, device);
  gpu.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
  gpu.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device);
  gpu.l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
  return gpu;
}

}  // namespace

const GpuDescription& describe_current_gpu() {
  static std::mutex mutex;
  static std::map<int, GpuDescription> described;  // by device; a map never moves its values
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = described.find(device);
  if (found == described.end()) {
    found = described.emplace(device, read_gpu(device)).first;
  }
  return found->second;
}

double dram_peak_bytes_per_second(const GpuDescription& gpu) {
  return 2.0 * 1e3 * gpu.memory_clock_khz * gpu.memory_bus_bits / 8.0;
}

bool has_async_copies(const GpuDescription& gpu) {
  return gpu.major >= 8;
}

}  // namespace course
