/// @file described_gpus.hpp
/// @brief GPUs the cost models are tested on without having them: a T4, an A100-40GB, an L4 and
/// an H100, each a GpuDescription with the figures cudaDeviceGetAttribute reports on it (NVIDIA's
/// data sheets and the CUDA programming guide's table of compute capabilities). Step 4's and
/// step 5's CPU tests check their plans' choices on them.
#pragma once

#include "common/gpu_description.hpp"

namespace course::testing {

/// @brief An NVIDIA T4: sm_75, 40 SMs at 1590 MHz, GDDR6 at 5001 MHz on 256 bits (320 GB/s),
/// 64 KiB shared memory per SM, 4 MiB L2, at most 1024 threads and 16 blocks per SM: no
/// cp.async.
/// @return the description
GpuDescription t4_description();

/// @brief An NVIDIA A100-SXM4-40GB: sm_80, 108 SMs at 1410 MHz, HBM2 at 1215 MHz on 5120 bits
/// (1555 GB/s), 164 KiB shared memory per SM, 40 MiB L2.
/// @return the description
GpuDescription a100_40gb_description();

/// @brief An NVIDIA L4: sm_89, 58 SMs at 2040 MHz, GDDR6 at 6251 MHz on 192 bits (300 GB/s),
/// 100 KiB shared memory per SM, 48 MiB L2, at most 1536 threads and 24 blocks per SM.
/// @return the description
GpuDescription l4_description();

/// @brief An NVIDIA H100 80GB HBM3 (SXM5): sm_90, 132 SMs at 1980 MHz, HBM3 at 2619 MHz on 5120
/// bits (3.35 TB/s), 228 KiB shared memory per SM, 50 MiB L2: the GPU both steps' cost models
/// were calibrated on.
/// @return the description
GpuDescription h100_sxm_description();

}  // namespace course::testing
