/// @file described_gpus.hpp
/// @brief Descriptions of GPUs the fast kernel's choice is tested on without having them: the
/// figures cudaDeviceGetAttribute reports on each (NVIDIA's data sheets and the CUDA programming
/// guide's table of compute capabilities), for the CPU tests of going_further/tests/.
#pragma once

#include "step4_boundary_checks/going_further/device_facts.hpp"

#include <vector>

namespace course::step4::testing {

// Each description lists DeviceFacts' fields in order: name; compute capability; SMs; SM clock
// and memory clock (kHz); memory bus (bits); shared memory per block (opt-in), per SM and kept
// by the system per block (bytes); registers per SM and per block; threads and blocks per SM;
// L2 (bytes).
// clang-format off

/// @brief An NVIDIA H100 80GB HBM3 (SXM): sm_90, 132 SMs, 1980 MHz, HBM3 at 2619 MHz on 5120
/// bits (3.35 TB/s), 228 KiB shared memory per SM, 50 MiB L2: the GPU of the calibration.
/// @return the description
inline DeviceFacts h100() {
  return {"NVIDIA H100 80GB HBM3", 9, 0, 132, 1980000, 2619000, 5120,
          227 * 1024, 228 * 1024, 1024, 65536, 65536, 2048, 32, 50LL << 20};
}

/// @brief An NVIDIA T4: sm_75, 40 SMs, 1590 MHz, GDDR6 at 5001 MHz on 256 bits (320 GB/s),
/// 64 KiB shared memory per SM, 4 MiB L2, at most 1024 threads and 16 blocks per SM.
/// @return the description
inline DeviceFacts t4() {
  return {"Tesla T4",              7, 5,  40, 1590000, 5001000,  256,
           64 * 1024,  64 * 1024,    0, 65536, 65536, 1024, 16,  4LL << 20};
}

/// @brief An NVIDIA A100-SXM4-40GB: sm_80, 108 SMs, 1410 MHz, HBM2 at 1215 MHz on 5120 bits
/// (1.56 TB/s), 164 KiB shared memory per SM, 40 MiB L2.
/// @return the description
inline DeviceFacts a100_40gb() {
  return {"NVIDIA A100-SXM4-40GB", 8, 0, 108, 1410000, 1215000, 5120,
          163 * 1024, 164 * 1024, 1024, 65536, 65536, 2048, 32, 40LL << 20};
}

/// @brief An NVIDIA L4: sm_89, 58 SMs, 2040 MHz, GDDR6 at 6251 MHz on 192 bits (300 GB/s),
/// 100 KiB shared memory per SM, 48 MiB L2, at most 1536 threads and 24 blocks per SM.
/// @return the description
inline DeviceFacts l4() {
  return {"NVIDIA L4",             8, 9,  58, 2040000, 6251000,  192,
           99 * 1024, 100 * 1024, 1024, 65536, 65536, 1536, 24, 48LL << 20};
}

// clang-format on

/// @brief The three GPUs other than the H100: a T4, an A100-40GB and an L4, in order of SMs.
/// @return the descriptions
inline std::vector<DeviceFacts> other_gpus() {
  return {t4(), l4(), a100_40gb()};
}

}  // namespace course::step4::testing
