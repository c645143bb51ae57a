/// @file described_gpus.cpp
/// @brief The four described GPUs' figures (see described_gpus.hpp). Every GPU here keeps 64 Ki
/// registers per SM and per block; from sm_80 the system keeps 1 KiB of shared memory per block.
#include "common/testing/described_gpus.hpp"

namespace course::testing {

GpuDescription t4_description() {
  GpuDescription t4;
  t4.name = "Tesla T4 (described)";
  t4.major = 7;
  t4.minor = 5;
  t4.sm_count = 40;
  t4.sm_clock_khz = 1590000;
  t4.memory_clock_khz = 5001000;
  t4.memory_bus_bits = 256;
  t4.shared_bytes_per_block = 64 * 1024;
  t4.shared_bytes_per_sm = 64 * 1024;
  t4.shared_bytes_reserved_per_block = 0;
  t4.registers_per_sm = 65536;
  t4.registers_per_block = 65536;
  t4.max_threads_per_sm = 1024;
  t4.max_blocks_per_sm = 16;
  t4.l2_bytes = 4LL << 20;
  return t4;
}

GpuDescription a100_40gb_description() {
  GpuDescription a100;
  a100.name = "NVIDIA A100-SXM4-40GB (described)";
  a100.major = 8;
  a100.minor = 0;
  a100.sm_count = 108;
  a100.sm_clock_khz = 1410000;
  a100.memory_clock_khz = 1215000;
  a100.memory_bus_bits = 5120;
  a100.shared_bytes_per_block = 163 * 1024;
  a100.shared_bytes_per_sm = 164 * 1024;
  a100.shared_bytes_reserved_per_block = 1024;
  a100.registers_per_sm = 65536;
  a100.registers_per_block = 65536;
  a100.max_threads_per_sm = 2048;
  a100.max_blocks_per_sm = 32;
  a100.l2_bytes = 40LL << 20;
  return a100;
}

GpuDescription l4_description() {
  GpuDescription l4;
  l4.name = "NVIDIA L4 (described)";
  l4.major = 8;
  l4.minor = 9;
  l4.sm_count = 58;
  l4.sm_clock_khz = 2040000;
  l4.memory_clock_khz = 6251000;
  l4.memory_bus_bits = 192;
  l4.shared_bytes_per_block = 99 * 1024;
  l4.shared_bytes_per_sm = 100 * 1024;
  l4.shared_bytes_reserved_per_block = 1024;
  l4.registers_per_sm = 65536;
  l4.registers_per_block = 65536;
  l4.max_threads_per_sm = 1536;
  l4.max_blocks_per_sm = 24;
  l4.l2_bytes = 48LL << 20;
  return l4;
}

GpuDescription h100_sxm_description() {
  GpuDescription h100;
  h100.name = "NVIDIA H100 80GB HBM3 (described)";
  h100.major = 9;
  h100.minor = 0;
  h100.sm_count = 132;
  h100.sm_clock_khz = 1980000;
  h100.memory_clock_khz = 2619000;
  h100.memory_bus_bits = 5120;
  h100.shared_bytes_per_block = 227 * 1024;
  h100.shared_bytes_per_sm = 228 * 1024;
  h100.shared_bytes_reserved_per_block = 1024;
  h100.registers_per_sm = 65536;
  h100.registers_per_block = 65536;
  h100.max_threads_per_sm = 2048;
  h100.max_blocks_per_sm = 32;
  h100.l2_bytes = 50LL << 20;
  return h100;
}

}  // namespace course::testing
