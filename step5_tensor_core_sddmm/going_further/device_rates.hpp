/// @file device_rates.hpp
/// @brief The rates step 5's plan works with (described_rates): derived from a GPU's
/// description (course::GpuDescription, common/gpu_description.hpp: read from the device by
/// describe_current_gpu, or written out in common/testing/described_gpus.hpp for the CPU tests)
/// and a few calibrated efficiencies, each naming the GPU and the date of its calibration.
///
/// Step 5, going further: what a GPU's figures mean for the plan's paths.
/// Read first: tile_cost_model.hpp (what the choices are), then this file.
#pragma once

#include "common/gpu_description.hpp"

namespace course::step5 {

/// @brief The rates the cost model uses, in bytes or operations per second.
struct DeviceRates {
  double dram_bytes_per_second = 0.0;         ///< reading and writing device memory
  double l2_gather_bytes_per_second = 0.0;    ///< rows of Bᵀ read at random by lane groups
  double tile_stream_bytes_per_second = 0.0;  ///< 16-row tiles of Bᵀ copied into shared memory
  double tensor_flops_per_second = 0.0;       ///< cuBLAS's fp16 products with fp32 sums
  double launch_seconds = 0.0;                ///< one more kernel in the stream
};

/// @brief The rates of a GPU derived from its description: the peaks its clocks and widths
/// allow, times the efficiencies measured on the H100 (see device_rates.cpp, where
/// each constant names its GPU and date).
/// @param device the GPU
/// @return its rates
DeviceRates described_rates(const GpuDescription& device);

/// @brief Tensor Core fp16 multiply-adds with fp32 sums per SM and clock, times two (FLOPs),
/// as cuBLAS reaches them (NVIDIA's architecture white papers: 1024 on Turing and Ada, 2048 on
/// Ampere's A100, 4096 on Hopper through wgmma).
/// @param major compute capability, major
/// @param minor compute capability, minor
/// @return FLOPs per SM per clock
int tensor_flops_per_sm_clock(int major, int minor);

}  // namespace course::step5
