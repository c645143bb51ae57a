/// @file device_description.cpp
/// @brief describe_current_device(), the four written-out GPUs and described_rates() with
/// its calibrated efficiencies.
///
/// Step 5, going further: the figures of a GPU, read or written out, and the rates derived.
/// Read first: device_description.hpp.
#include "step5_tensor_core_sddmm/going_further/device_description.hpp"

#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/going_further/masked_tiles.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>

namespace course::step5 {
namespace {

/// Share of the peak DRAM bandwidth (2 · memory clock · bus width) that a device-to-device
/// copy reaches. Calibrated on an NVIDIA H100 80GB HBM3, 2026-11-25: 2971 GB/s copied
/// against a peak of 3352 GB/s (sddmm_bench's start-up measurement, issue 31's round 1).
constexpr double kDramEfficiency = 0.88;

/// Bytes per SM and clock that lane groups gather from L2 when each nonzero reads a 512-byte
/// row of Bᵀ at random. Calibrated on an NVIDIA H100 80GB HBM3, 2026-11-25: 8228 GB/s
/// (sddmm_bench's start-up gather, issue 31's round 1) over 132 SMs at 1.98 GHz.
constexpr double kL2GatherBytesPerSmClock = 31.5;

/// Rate of the masked-tile kernel's copies of 16-row tiles of Bᵀ into shared memory, as a
/// share of the gather rate. NVIDIA H100 80GB HBM3, 2026-11-25 (issue 31's round 1): the
/// first kernel (2 KiB stages) reached about a tenth of the gather rate; the 8 KiB stages
/// that replaced it are taken at half until measured.
constexpr double kTileStreamOverGather = 0.5;

/// Share of the Tensor Cores' peak that cuBLAS's fp16 GEMM (fp32 output) reaches on large
/// products, the dense path's rate. NVIDIA H100 80GB HBM3, 2026-11-25: 721.6 TFLOP/s on
/// 8192 × 8192 × 4096 (sddmm_bench's start-up measurement), 0.67 of 4096 FLOPs per SM clock
/// (cuBLAS uses wgmma on sm_90).
constexpr double kTensorEfficiency = 0.67;

/// One more kernel launch in the same stream. NVIDIA H100 80GB HBM3, 2026-11-25: an empty
/// kernel timed between two events took 6.08 µs (sddmm_bench's launch floor); a second kernel
/// queued behind a running one costs less, about 3 µs (karate: 0.008 ms for two launches).
constexpr double kLaunchSeconds = 4e-6;

int attribute(cudaDeviceAttr which, int device) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, which, device));
  return value;
}

DeviceDescription read_device(int device) {
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  DeviceDescription described;
  described.name = properties.name;
  described.major = properties.major;
  described.minor = properties.minor;
  described.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  described.shared_bytes_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  described.shared_bytes_per_block = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  described.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device);
  described.l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
  described.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
  described.memory_clock_khz = attribute(cudaDevAttrMemoryClockRate, device);
  described.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  described.async_copy = described.major >= 8 && masked_tiles_compiled_with_async_copy();
  return described;
}

}  // namespace

const DeviceDescription& describe_current_device() {
  static std::mutex mutex;
  static std::map<int, DeviceDescription> described;
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = described.find(device);
  if (found == described.end()) {
    found = described.emplace(device, read_device(device)).first;
  }
  return found->second;
}

DeviceDescription t4_description() {
  DeviceDescription t4;
  t4.name = "NVIDIA T4 (described)";
  t4.major = 7;
  t4.minor = 5;
  t4.sm_count = 40;
  t4.shared_bytes_per_sm = 64 * 1024;
  t4.shared_bytes_per_block = 64 * 1024;
  t4.max_blocks_per_sm = 16;
  t4.l2_bytes = 4LL << 20;
  t4.sm_clock_khz = 1590000;
  t4.memory_clock_khz = 5001000;
  t4.memory_bus_bits = 256;
  t4.async_copy = false;
  return t4;
}

DeviceDescription a100_40gb_description() {
  DeviceDescription a100;
  a100.name = "NVIDIA A100-SXM4-40GB (described)";
  a100.major = 8;
  a100.minor = 0;
  a100.sm_count = 108;
  a100.shared_bytes_per_sm = 164 * 1024;
  a100.shared_bytes_per_block = 163 * 1024;
  a100.max_blocks_per_sm = 32;
  a100.l2_bytes = 40LL << 20;
  a100.sm_clock_khz = 1410000;
  a100.memory_clock_khz = 1215000;
  a100.memory_bus_bits = 5120;
  a100.async_copy = true;
  return a100;
}

DeviceDescription l4_description() {
  DeviceDescription l4;
  l4.name = "NVIDIA L4 (described)";
  l4.major = 8;
  l4.minor = 9;
  l4.sm_count = 58;
  l4.shared_bytes_per_sm = 100 * 1024;
  l4.shared_bytes_per_block = 99 * 1024;
  l4.max_blocks_per_sm = 24;
  l4.l2_bytes = 48LL << 20;
  l4.sm_clock_khz = 2040000;
  l4.memory_clock_khz = 6251000;
  l4.memory_bus_bits = 192;
  l4.async_copy = true;
  return l4;
}

DeviceDescription h100_sxm_description() {
  DeviceDescription h100;
  h100.name = "NVIDIA H100 SXM5 80GB (described)";
  h100.major = 9;
  h100.minor = 0;
  h100.sm_count = 132;
  h100.shared_bytes_per_sm = 228 * 1024;
  h100.shared_bytes_per_block = 227 * 1024;
  h100.max_blocks_per_sm = 32;
  h100.l2_bytes = 50LL << 20;
  h100.sm_clock_khz = 1980000;
  h100.memory_clock_khz = 2619000;
  h100.memory_bus_bits = 5120;
  h100.async_copy = true;
  return h100;
}

int tensor_flops_per_sm_clock(int major, int minor) {
  if (major == 8 && minor == 0) {
    return 2048;  // A100
  }
  if (major >= 9) {
    return 4096;  // Hopper's wgmma, which cuBLAS uses (mma.sync reaches about half)
  }
  return 1024;  // Turing, GA10x, Ada
}

DeviceRates described_rates(const DeviceDescription& device) {
  const double sm_hz = 1e3 * device.sm_clock_khz;
  const double peak_dram = 2.0 * 1e3 * device.memory_clock_khz * device.memory_bus_bits / 8.0;
  DeviceRates rates;
  rates.dram_bytes_per_second = kDramEfficiency * peak_dram;
  rates.l2_gather_bytes_per_second = kL2GatherBytesPerSmClock * device.sm_count * sm_hz;
  rates.tile_stream_bytes_per_second = kTileStreamOverGather * rates.l2_gather_bytes_per_second;
  rates.tensor_flops_per_second = kTensorEfficiency * device.sm_count * sm_hz *
                                  tensor_flops_per_sm_clock(device.major, device.minor);
  rates.launch_seconds = kLaunchSeconds;
  return rates;
}

}  // namespace course::step5
