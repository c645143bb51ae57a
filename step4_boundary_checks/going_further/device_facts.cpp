/// @file device_facts.cpp
/// @brief The GPU's description, read from the device or written down, and what follows from it
/// (see device_facts.hpp).
#include "step4_boundary_checks/going_further/device_facts.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/launch_math.hpp"

#include <algorithm>

namespace course::step4 {
namespace {

/// Registers are given to a warp in units of this many (every GPU from sm_75 to sm_90).
constexpr int kRegisterUnit = 256;
/// ... from register files split into this many parts, one per warp scheduler.
constexpr int kSchedulersPerMultiprocessor = 4;
/// Shared memory is given to a block in units of this many bytes.
constexpr int kSharedUnit = 128;

}  // namespace

int fp32_lanes_per_multiprocessor(const DeviceFacts& device) {
  const bool sm80_or_older =
      device.compute_major < 8 || (device.compute_major == 8 && device.compute_minor == 0);
  return sm80_or_older ? 64 : 128;
}

double peak_flops_per_second(const DeviceFacts& device) {
  const double clock_hz = device.clock_khz * 1e3;
  return 2.0 * fp32_lanes_per_multiprocessor(device) * clock_hz * device.multiprocessors;
}

double memory_bytes_per_second(const DeviceFacts& device) {
  // Double data rate: two transfers per memory clock over the whole bus.
  return 2.0 * device.memory_clock_khz * 1e3 * device.memory_bus_bits / 8.0;
}

bool has_async_copies(const DeviceFacts& device) {
  return device.compute_major >= 8;
}

int blocks_per_multiprocessor(const DeviceFacts& device, const BlockNeeds& block) {
  const int warps = ceil_div(block.threads, 32);
  const int registers = std::max(1, block.registers_per_thread);  // a thread has at least one
  const int registers_per_warp = ceil_div(registers * 32, kRegisterUnit) * kRegisterUnit;
  const int shared_per_block =
      ceil_div(block.shared_bytes + device.shared_bytes_reserved_per_block, kSharedUnit) *
      kSharedUnit;
  const bool fits = block.threads >= 1 && block.threads <= device.max_threads_per_multiprocessor &&
                    block.registers_per_thread * block.threads <= device.registers_per_block &&
                    block.shared_bytes <= device.shared_bytes_per_block;
  if (!fits) {
    return 0;
  }
  // Each scheduler holds the warps whose registers fit its part of the register file.
  const int warps_by_registers = device.registers_per_multiprocessor /
                                 kSchedulersPerMultiprocessor / registers_per_warp *
                                 kSchedulersPerMultiprocessor;
  const int by_registers = warps_by_registers / warps;
  const int by_threads = device.max_threads_per_multiprocessor / (warps * 32);
  const int by_shared = device.shared_bytes_per_multiprocessor / shared_per_block;
  return std::min({device.max_blocks_per_multiprocessor, by_registers, by_threads, by_shared});
}

const DeviceFacts& current_device_facts() {
  static const DeviceFacts facts = [] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    auto attribute = [device](cudaDeviceAttr which) {
      int value = 0;
      CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
      return value;
    };
    DeviceFacts result;
    result.name = course::gpu_name();
    result.compute_major = attribute(cudaDevAttrComputeCapabilityMajor);
    result.compute_minor = attribute(cudaDevAttrComputeCapabilityMinor);
    result.multiprocessors = attribute(cudaDevAttrMultiProcessorCount);
    result.clock_khz = attribute(cudaDevAttrClockRate);
    result.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate);
    result.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
    result.shared_bytes_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    result.shared_bytes_per_multiprocessor = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    result.shared_bytes_reserved_per_block = attribute(cudaDevAttrReservedSharedMemoryPerBlock);
    result.registers_per_multiprocessor = attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
    result.registers_per_block = attribute(cudaDevAttrMaxRegistersPerBlock);
    result.max_threads_per_multiprocessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    result.max_blocks_per_multiprocessor = attribute(cudaDevAttrMaxBlocksPerMultiprocessor);
    result.l2_bytes = attribute(cudaDevAttrL2CacheSize);
    return result;
  }();
  return facts;
}

}  // namespace course::step4
