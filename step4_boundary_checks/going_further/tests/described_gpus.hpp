/// @file described_gpus.hpp
/// @brief Descriptions of GPUs the fast kernel's choice is tested on without having them: the
/// figures cudaDeviceGetAttribute reports on each (NVIDIA's data sheets and the CUDA programming
/// guide's table of compute capabilities), for the CPU tests of going_further/tests/.
#pragma once

#include "step4_boundary_checks/going_further/device_facts.hpp"

#include <vector>

namespace course::step4::testing {

/// @brief An NVIDIA H100 80GB HBM3 (SXM): sm_90, 132 SMs, 1980 MHz, HBM3 at 2619 MHz on 5120
/// bits (3.35 TB/s), 228 KiB shared memory per SM, 50 MiB L2: the GPU of the calibration.
/// @return the description
inline DeviceFacts h100() {
  DeviceFacts device;
  device.name = "NVIDIA H100 80GB HBM3";
  device.compute_major = 9;
  device.compute_minor = 0;
  device.multiprocessors = 132;
  device.clock_khz = 1980000;
  device.memory_clock_khz = 2619000;
  device.memory_bus_bits = 5120;
  device.shared_bytes_per_block = 227 * 1024;
  device.shared_bytes_per_multiprocessor = 228 * 1024;
  device.shared_bytes_reserved_per_block = 1024;
  device.max_threads_per_multiprocessor = 2048;
  device.max_blocks_per_multiprocessor = 32;
  device.l2_bytes = 50LL << 20;
  return device;
}

/// @brief An NVIDIA T4: sm_75, 40 SMs, 1590 MHz, GDDR6 at 5001 MHz on 256 bits (320 GB/s),
/// 64 KiB shared memory per SM, 4 MiB L2, at most 1024 threads and 16 blocks per SM.
/// @return the description
inline DeviceFacts t4() {
  DeviceFacts device;
  device.name = "Tesla T4";
  device.compute_major = 7;
  device.compute_minor = 5;
  device.multiprocessors = 40;
  device.clock_khz = 1590000;
  device.memory_clock_khz = 5001000;
  device.memory_bus_bits = 256;
  device.shared_bytes_per_block = 64 * 1024;
  device.shared_bytes_per_multiprocessor = 64 * 1024;
  device.shared_bytes_reserved_per_block = 0;
  device.max_threads_per_multiprocessor = 1024;
  device.max_blocks_per_multiprocessor = 16;
  device.l2_bytes = 4LL << 20;
  return device;
}

/// @brief An NVIDIA A100-SXM4-40GB: sm_80, 108 SMs, 1410 MHz, HBM2 at 1215 MHz on 5120 bits
/// (1.56 TB/s), 164 KiB shared memory per SM, 40 MiB L2.
/// @return the description
inline DeviceFacts a100_40gb() {
  DeviceFacts device;
  device.name = "NVIDIA A100-SXM4-40GB";
  device.compute_major = 8;
  device.compute_minor = 0;
  device.multiprocessors = 108;
  device.clock_khz = 1410000;
  device.memory_clock_khz = 1215000;
  device.memory_bus_bits = 5120;
  device.shared_bytes_per_block = 163 * 1024;
  device.shared_bytes_per_multiprocessor = 164 * 1024;
  device.shared_bytes_reserved_per_block = 1024;
  device.max_threads_per_multiprocessor = 2048;
  device.max_blocks_per_multiprocessor = 32;
  device.l2_bytes = 40LL << 20;
  return device;
}

/// @brief An NVIDIA L4: sm_89, 58 SMs, 2040 MHz, GDDR6 at 6251 MHz on 192 bits (300 GB/s),
/// 100 KiB shared memory per SM, 48 MiB L2, at most 1536 threads and 24 blocks per SM.
/// @return the description
inline DeviceFacts l4() {
  DeviceFacts device;
  device.name = "NVIDIA L4";
  device.compute_major = 8;
  device.compute_minor = 9;
  device.multiprocessors = 58;
  device.clock_khz = 2040000;
  device.memory_clock_khz = 6251000;
  device.memory_bus_bits = 192;
  device.shared_bytes_per_block = 99 * 1024;
  device.shared_bytes_per_multiprocessor = 100 * 1024;
  device.shared_bytes_reserved_per_block = 1024;
  device.max_threads_per_multiprocessor = 1536;
  device.max_blocks_per_multiprocessor = 24;
  device.l2_bytes = 48LL << 20;
  return device;
}

/// @brief The three GPUs other than the H100: a T4, an A100-40GB and an L4, in order of SMs.
/// @return the descriptions
inline std::vector<DeviceFacts> other_gpus() {
  return {t4(), l4(), a100_40gb()};
}

}  // namespace course::step4::testing
