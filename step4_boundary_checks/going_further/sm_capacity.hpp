/// @file sm_capacity.hpp
/// @brief What one SM of a described GPU (course::GpuDescription, common/gpu_description.hpp)
/// offers the fast kernel: its fp32 lanes, hence the GPU's fp32 peak, and how many blocks of a
/// kernel it holds at once (occupancy). Host code: the tests evaluate it for GPUs that are not in
/// the machine. Read fast_gemm_cost_model.hpp, which uses it.
#pragma once

#include "common/gpu_description.hpp"

namespace course::step4 {

/// @brief FP32 lanes per SM: 64 on sm_75 and sm_80, 128 on sm_86, sm_89 and sm_90.
/// @param device the GPU
/// @return lanes (each one fused multiply-add per clock)
int fp32_lanes_per_multiprocessor(const GpuDescription& device);

/// @brief The fp32 FMA peak: 2 · lanes per SM · clock · SMs.
/// @param device the GPU
/// @return floating-point operations per second
double peak_flops_per_second(const GpuDescription& device);

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
int blocks_per_multiprocessor(const GpuDescription& device, const BlockNeeds& block);

}  // namespace course::step4
