/// @file device_description.hpp
/// @brief What step 5's plan knows of a GPU: its compute capability, SM count, shared
/// memory, L2 cache and clocks, read from the device (describe_current_device) or written
/// out for a GPU the course is not running on (t4_description, a100_40gb_description,
/// l4_description, h100_sxm_description: the CPU tests check the plan's choices on them).
///
/// Step 5, going further: the figures of a GPU that the plan's choices read.
/// Read first: tile_cost_model.hpp (what the choices are), then this file.
///
/// The rates the cost model works with (described_rates) are derived from these figures
/// and a few calibrated efficiencies; each names the GPU and the date of its calibration.
#pragma once

#include <string>

namespace course::step5 {

/// @brief The figures of one GPU that the plan decides with.
struct DeviceDescription {
  std::string name;                ///< e.g. "NVIDIA H100 80GB HBM3"
  int major = 0;                   ///< compute capability, major
  int minor = 0;                   ///< compute capability, minor
  int sm_count = 0;                ///< streaming multiprocessors
  int shared_bytes_per_sm = 0;     ///< shared memory of one SM
  int shared_bytes_per_block = 0;  ///< the most one block may opt in to
  int max_blocks_per_sm = 0;       ///< resident blocks per SM, at most
  long long l2_bytes = 0;          ///< L2 cache
  int sm_clock_khz = 0;            ///< peak SM clock
  int memory_clock_khz = 0;        ///< peak memory clock
  int memory_bus_bits = 0;         ///< memory bus width
  /// cp.async: the device is sm_80 or newer *and* the kernels loaded for it were compiled
  /// for sm_80 or newer (a compute_75 PTX build JIT-compiled on an H100 has none)
  bool async_copy = false;
};

/// @brief The current device's description, read once per device (cudaDeviceGetAttribute,
/// and the masked-tile kernel's PTX version for async_copy). Throws course::CudaError when
/// there is no device.
/// @return the description
const DeviceDescription& describe_current_device();

/// @brief An NVIDIA T4 (sm_75, 40 SMs, 64 KiB shared per SM, 4 MiB L2, GDDR6 at 320 GB/s):
/// no cp.async.
/// @return the description, from NVIDIA's data sheet and the CUDA occupancy tables
DeviceDescription t4_description();

/// @brief An NVIDIA A100-SXM4-40GB (sm_80, 108 SMs, 164 KiB shared per SM, 40 MiB L2, HBM2
/// at 1555 GB/s).
/// @return the description
DeviceDescription a100_40gb_description();

/// @brief An NVIDIA L4 (sm_89, 58 SMs, 100 KiB shared per SM, 48 MiB L2, GDDR6 at 300 GB/s).
/// @return the description
DeviceDescription l4_description();

/// @brief An NVIDIA H100 SXM5 80GB (sm_90, 132 SMs, 228 KiB shared per SM, 50 MiB L2, HBM3
/// at 3.35 TB/s): the GPU the efficiencies below were calibrated on.
/// @return the description
DeviceDescription h100_sxm_description();

/// @brief The rates the cost model uses, in bytes or operations per second.
struct DeviceRates {
  double dram_bytes_per_second = 0.0;         ///< reading and writing device memory
  double l2_gather_bytes_per_second = 0.0;    ///< rows of Bᵀ read at random by lane groups
  double tile_stream_bytes_per_second = 0.0;  ///< 16-row tiles of Bᵀ copied into shared memory
  double tensor_flops_per_second = 0.0;       ///< cuBLAS's fp16 products with fp32 sums
  double launch_seconds = 0.0;                ///< one more kernel in the stream
};

/// @brief The rates of a GPU derived from its description: the peaks its clocks and widths
/// allow, times the efficiencies measured on the H100 (see device_description.cpp, where
/// each constant names its GPU and date).
/// @param device the GPU
/// @return its rates
DeviceRates described_rates(const DeviceDescription& device);

/// @brief Tensor Core fp16 multiply-adds with fp32 sums per SM and clock, times two (FLOPs),
/// as cuBLAS reaches them (NVIDIA's architecture white papers: 1024 on Turing and Ada, 2048 on
/// Ampere's A100, 4096 on Hopper through wgmma).
/// @param major compute capability, major
/// @param minor compute capability, minor
/// @return FLOPs per SM per clock
int tensor_flops_per_sm_clock(int major, int minor);

}  // namespace course::step5
