/// @file gpu_description.hpp
/// @brief A GPU described once for the whole course: the figures the CUDA runtime reports for
/// it (describe_current_gpu reads them from the device), and what every step derives from them:
/// the peak DRAM bandwidth and whether the GPU has asynchronous copies (cp.async).
///
/// The cost models of step 4 (fast_gemm_cost_model.hpp) and step 5 (tile_cost_model.hpp) read a
/// GpuDescription and nothing else of the device, so their tests can describe a GPU that is not
/// in the machine (common/testing/described_gpus.hpp writes out a T4, an A100, an L4 and an
/// H100).
#pragma once

#include <string>

namespace course {

/// @brief The figures of one GPU, as cudaDeviceGetAttribute reports them.
struct GpuDescription {
  std::string name;                         ///< marketing name, e.g. "NVIDIA H100 80GB HBM3"
  int major = 0;                            ///< compute capability, major part
  int minor = 0;                            ///< compute capability, minor part
  int sm_count = 0;                         ///< streaming multiprocessors
  int sm_clock_khz = 0;                     ///< SM clock, the largest the device reports
  int memory_clock_khz = 0;                 ///< memory clock, the largest the device reports
  int memory_bus_bits = 0;                  ///< memory bus width
  int shared_bytes_per_block = 0;           ///< shared memory one block may opt in to
  int shared_bytes_per_sm = 0;              ///< shared memory of one SM
  int shared_bytes_reserved_per_block = 0;  ///< what the system keeps per block (1 KiB from sm_80)
  int registers_per_sm = 0;                 ///< 32-bit registers of one SM
  int registers_per_block = 0;              ///< registers one block may use
  int max_threads_per_sm = 0;               ///< resident threads per SM, at most
  int max_blocks_per_sm = 0;                ///< resident blocks per SM, at most
  long long l2_bytes = 0;                   ///< L2 cache
};

/// @brief The current device's description, read once per device (cudaGetDeviceProperties for
/// the name, cudaDeviceGetAttribute for the figures; safe to call from several threads).
/// Throws course::CudaError when there is no device; require_cuda_device (device.hpp) says why
/// in the student's terms.
/// @return the description, valid for the rest of the process
const GpuDescription& describe_current_gpu();

/// @brief The peak DRAM bandwidth: two transfers (double data rate) per memory clock over the
/// whole bus. Copies reach a share of it (each cost model calibrates its own).
/// @param gpu the GPU
/// @return bytes per second
double dram_peak_bytes_per_second(const GpuDescription& gpu);

/// @brief Whether the GPU has asynchronous copies from global to shared memory (cp.async,
/// compute capability 8.0 and newer). Whether a kernel uses them also depends on the
/// architecture its code was compiled for: each step asks its kernel.
/// @param gpu the GPU
bool has_async_copies(const GpuDescription& gpu);

}  // namespace course
