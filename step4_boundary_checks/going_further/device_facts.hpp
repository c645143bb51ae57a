/// @file device_facts.hpp
/// @brief What the fast kernel's choice knows about a GPU: a description read from the device
/// at run time (current_device_facts) or written down for a GPU that is not in the machine (the
/// tests describe a T4, an A100 and an L4), and what follows from it: the fp32 peak, the memory
/// bandwidth, whether it has asynchronous copies, how many blocks of a kernel fit on one SM.
/// Read fast_gemm_cost_model.hpp, which uses it.
#pragma once

#include <string>

namespace course::step4 {

/// @brief A GPU as the fast kernel's choice sees it: the figures the CUDA runtime reports
/// (cudaDeviceGetAttribute), with the same names.
struct DeviceFacts {
  std::string name = "unnamed GPU";        ///< for messages and tables
  int compute_major = 7;                   ///< compute capability, major part
  int compute_minor = 5;                   ///< compute capability, minor part
  int multiprocessors = 1;                 ///< SMs
  int clock_khz = 1000000;                 ///< SM clock (the largest the device reports), kHz
  int memory_clock_khz = 1000000;          ///< memory clock, kHz
  int memory_bus_bits = 256;               ///< memory bus width, bits
  int shared_bytes_per_block = 48 * 1024;  ///< shared memory one block may use (opt-in)
  int shared_bytes_per_multiprocessor = 64 * 1024;  ///< shared memory of one SM
  int shared_bytes_reserved_per_block = 0;   ///< what the system keeps per block (1 KiB from sm_80)
  int registers_per_multiprocessor = 65536;  ///< 32-bit registers of one SM
  int registers_per_block = 65536;           ///< registers one block may use
  int max_threads_per_multiprocessor = 1024;  ///< resident threads per SM
  int max_blocks_per_multiprocessor = 16;     ///< resident blocks per SM
  long long l2_bytes = 4LL * 1024 * 1024;     ///< L2 cache
};

/// @brief FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86, sm_89 and sm_90.
/// @param device the GPU
/// @return lanes (each one fused multiply-add per clock)
int fp32_lanes_per_multiprocessor(const DeviceFacts& device);

/// @brief The fp32 FMA peak: 2 · lanes per SM · clock · SMs.
/// @param device the GPU
/// @return floating-point operations per second
double peak_flops_per_second(const DeviceFacts& device);

/// @brief The memory bandwidth: two transfers per memory clock over the whole bus.
/// @param device the GPU
/// @return bytes per second
double memory_bytes_per_second(const DeviceFacts& device);

/// @brief Whether the GPU has asynchronous copies from global to shared memory (cp.async,
/// compute capability 8.0 and newer).
/// @param device the GPU
bool has_async_copies(const DeviceFacts& device);

/// @brief What one block of a kernel needs from an SM.
struct BlockNeeds {
  int threads = 0;               ///< threads per block
  int registers_per_thread = 0;  ///< registers the compiler gave each thread
  int shared_bytes = 0;          ///< static shared memory per block
};

/// @brief How many such blocks an SM holds at once (occupancy), from the limits of @p device:
/// threads, registers (allocated per warp in units of 256), shared memory (with the bytes the
/// system keeps per block) and blocks per SM; 0 when one block does not fit at all. The same
/// rules as cudaOccupancyMaxActiveBlocksPerMultiprocessor, for a GPU that is not in the machine.
/// @param device the GPU
/// @param block what a block needs
/// @return resident blocks per SM
int blocks_per_multiprocessor(const DeviceFacts& device, const BlockNeeds& block);

/// @brief The current device's description, read once per process (needs a GPU).
/// @return the facts
const DeviceFacts& current_device_facts();

}  // namespace course::step4
