/// @file sm_capacity.cpp
/// @brief An SM's fp32 lanes and the occupancy rules, for a described GPU (see sm_capacity.hpp).
#include "step4_boundary_checks/going_further/sm_capacity.hpp"

#include "common/launch_math.hpp"

#include <algorithm>

namespace course::step4 {
namespace {

/// Registers are given to a warp in units of this many (every GPU from sm_75 to sm_90).
constexpr int kRegisterUnit = 256;
/// ... from register files split into this many parts, one per warp scheduler.
constexpr int kSchedulersPerMultiprocessor = 4;
/// Shared memory is given to a block in units of this many bytes.
constexpr int kSharedUnit = 128;

}  // namespace

int fp32_lanes_per_multiprocessor(const GpuDescription& device) {
  const bool sm80_or_older = device.major < 8 || (device.major == 8 && device.minor == 0);
  return sm80_or_older ? 64 : 128;
}

double peak_flops_per_second(const GpuDescription& device) {
  const double clock_hz = device.sm_clock_khz * 1e3;
  return 2.0 * fp32_lanes_per_multiprocessor(device) * clock_hz * device.sm_count;
}

int blocks_per_multiprocessor(const GpuDescription& device, const BlockNeeds& block) {
  const int warps = ceil_div(block.threads, 32);
  const int registers = std::max(1, block.registers_per_thread);  // a thread has at least one
  const int registers_per_warp = ceil_div(registers * 32, kRegisterUnit) * kRegisterUnit;
  const int shared_per_block =
      ceil_div(block.shared_bytes + device.shared_bytes_reserved_per_block, kSharedUnit) *
      kSharedUnit;
  const bool fits = block.threads >= 1 && block.threads <= device.max_threads_per_sm &&
                    block.registers_per_thread * block.threads <= device.registers_per_block &&
                    block.shared_bytes <= device.shared_bytes_per_block;
  if (!fits) {
    return 0;
  }
  // Each scheduler holds the warps whose registers fit its part of the register file.
  const int warps_by_registers = device.registers_per_sm / kSchedulersPerMultiprocessor /
                                 registers_per_warp * kSchedulersPerMultiprocessor;
  const int by_registers = warps_by_registers / warps;
  const int by_threads = device.max_threads_per_sm / (warps * 32);
  const int by_shared = device.shared_bytes_per_sm / shared_per_block;
  return std::min({device.max_blocks_per_sm, by_registers, by_threads, by_shared});
}

}  // namespace course::step4
