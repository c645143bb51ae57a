/// @file device_rates.cpp
/// @brief described_rates() with its calibrated efficiencies.
///
/// Step 5, going further: the rates derived from a GPU's figures.
/// Read first: device_rates.hpp.
#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"

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

}  // namespace

int tensor_flops_per_sm_clock(int major, int minor) {
  if (major == 8 && minor == 0) {
    return 2048;  // A100
  }
  if (major >= 9) {
    return 4096;  // Hopper's wgmma, which cuBLAS uses (mma.sync reaches about half)
  }
  return 1024;  // Turing, GA10x, Ada
}

DeviceRates described_rates(const GpuDescription& device) {
  const double sm_hz = 1e3 * device.sm_clock_khz;
  DeviceRates rates;
  rates.dram_bytes_per_second = kDramEfficiency * dram_peak_bytes_per_second(device);
  rates.l2_gather_bytes_per_second = kL2GatherBytesPerSmClock * device.sm_count * sm_hz;
  rates.tile_stream_bytes_per_second = kTileStreamOverGather * rates.l2_gather_bytes_per_second;
  rates.tensor_flops_per_second = kTensorEfficiency * device.sm_count * sm_hz *
                                  tensor_flops_per_sm_clock(device.major, device.minor);
  rates.launch_seconds = kLaunchSeconds;
  return rates;
}

}  // namespace course::step5
