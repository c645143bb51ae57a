/// @file value_prefetch.cuh
/// @brief A valued S multiplies each product by its value before the store. The value is read
/// at the very position the store writes (S's order is C's order), so the bytes are few, but
/// each load sits between a product and its store: written as `output[e] = values[e] *
/// product` row after row, every row's load waits for DRAM before the next row's is issued
/// (the machine code of the sm_90 build showed eight such trips per masked tile and lane,
/// lab/NOTEBOOK.md, 2026-11-28). The kernels therefore ask L2 for a tile's values as soon as
/// they know where they lie, long before the store, and load a tile's values all at once
/// before multiplying; a pattern S (values == nullptr) runs the code it ran before.
///
/// Step 5, approach 4 (going further): S's values brought into L2 ahead of the stores that read
/// them.
/// Read first: sddmm_masked_tiles.cuh (store_masked_tile), sddmm_full_tiles.cuh (the copy-out).
#pragma once

#include <cstdint>

namespace course::step5 {

/// @brief Bytes of one L2 line: a run of consecutive values is fetched line by line.
constexpr int kL2LineBytes = 128;

/// @brief Asks L2 for the line holding @p address (PTX prefetch.global.L2; a hint that never
/// faults and holds no register, so a wrong guess costs one instruction).
/// @param address any address inside S's values
__device__ inline void prefetch_l2(const void* address) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(address));
}

/// @brief Asks L2 for the lines of @p count consecutive floats from @p first (count <= 64:
/// at most three lines, the first, the middle and the last float's).
/// @param first the first value
/// @param count values in the run (0: nothing)
__device__ inline void prefetch_value_run(const float* first, int count) {
  if (count <= 0) {
    return;  // an empty row of a tile
  }
  const auto line = [](const float* value) {
    return reinterpret_cast<std::uintptr_t>(value) / kL2LineBytes;
  };
  const float* last = first + (count - 1);
  const float* middle = first + (count - 1) / 2;
  prefetch_l2(first);
  if (line(middle) != line(first)) {
    prefetch_l2(middle);
  }
  if (line(last) != line(middle)) {
    prefetch_l2(last);
  }
}

/// @brief Loads one of S's values through the read-only path, kept in program order with
/// the other loads of this kind and ahead of every later memory operation (volatile asm with a
/// memory clobber). Plain loads let the compiler slip each product's store in after its own
/// value's load, so the second row's load waited for the first's (the sm_90 build of
/// 2026-11-28 did so even with all loads written first); in order, a tile's loads all leave
/// before its first store waits for one.
/// @param address the value (any of S's values: a lane with no entry loads values[0])
/// @return the value
__device__ inline float load_value_in_order(const float* address) {
  float value;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(value) : "l"(address) : "memory");
  return value;
}

}  // namespace course::step5
