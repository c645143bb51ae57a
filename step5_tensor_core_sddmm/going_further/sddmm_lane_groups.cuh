/// @file sddmm_lane_groups.cuh
/// @brief Approach 4's CUDA-core part: a group of lanes per nonzero (the Tensor Core part for
/// dense panels is in sddmm_dense_panels.cuh).
///
/// Step 5, approach 4 (going further): the CUDA-core kernel, lane groups per nonzero.
/// Read first: sddmm_warp_per_nonzero.cuh (approach 1's warp reduction).
///
/// Most matrices of the benchmark are so sparse (99.97 % and more) that a 16×16 tile holds
/// one nonzero or none: a WMMA tile would compute 256 products to keep one. For them a small
/// group of lanes per nonzero reads the row of A and the row of Bᵀ with 16-byte vector loads
/// (8 halves per load), multiplies in float and adds the group's partial sums with shuffles.
/// The work is split by nonzero, not by row, so long rows cannot unbalance the warps, and it
/// needs no preprocessing at all. Four lanes per nonzero at inner = 256 (each lane reads 8
/// chunks of 16 bytes of each row) measured 10–25 % faster than eight: fewer shuffles, more
/// loads in flight per lane. Only 64-row panels whose density reaches HybridOptions::tc_density
/// go to the Tensor Core kernel (sddmm_dense_panels_kernel) instead.
#pragma once

#include "common/warp_lanes.cuh"
#include "step5_tensor_core_sddmm/going_further/panel_classification.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>

#include <cstdint>

namespace course::step5 {

/// @brief acc += dot of 8 halves of @p a with 8 halves of @p b, in float.
/// @param a 8 halves (16 bytes)
/// @param b 8 halves (16 bytes)
/// @param acc accumulator
/// @return the new accumulator
__device__ inline float dot8(const uint4& a, const uint4& b, float acc) {
  const __half2* a_pairs = reinterpret_cast<const __half2*>(&a);
  const __half2* b_pairs = reinterpret_cast<const __half2*>(&b);
#pragma unroll
  for (int pair = 0; pair < 4; ++pair) {
    const float2 a_values = __half22float2(a_pairs[pair]);
    const float2 b_values = __half22float2(b_pairs[pair]);
    acc = fmaf(a_values.x, b_values.x, acc);
    acc = fmaf(a_values.y, b_values.y, acc);
  }
  return acc;
}

/// @brief An L2 cache policy under which the lines a load brings in are evicted first
/// (PTX createpolicy, sm_80 and later; 0 elsewhere).
/// @return the policy, for load_row_of_a
__device__ inline unsigned long long l2_evict_first_policy() {
  unsigned long long policy = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}

/// @brief Loads 16 bytes of a row of A through the read-only path under @p policy.
///
/// A row of A serves the consecutive nonzeros of its row, which one block reads one after the
/// other from its L1; once the block moves on, the row is dead, but by default L2 keeps it as
/// long as a row of Bᵀ, which nonzeros all over S still need. Loaded with an evict-first
/// policy, A leaves more of L2 to Bᵀ: on the H200 cage11 took 0.043 ms instead of 0.045 and
/// soc-Slashdot0902 0.070 instead of 0.072; keeping Bᵀ's lines last as well changed nothing.
/// The asm is volatile so that the loads keep the order of the source (all of a lane's loads
/// before its first product). A first version, with a policy made for every load and the
/// asm not volatile, took 0.322 ms instead of 0.232 on the 36000² mask.
/// @param chunk address of the 16 bytes (16-byte aligned)
/// @param policy from l2_evict_first_policy
/// @return the 8 halves
__device__ inline uint4 load_row_of_a(const uint4* chunk, unsigned long long policy) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint4 value;
  asm volatile("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
               : "=r"(value.x), "=r"(value.y), "=r"(value.z), "=r"(value.w)
               : "l"(chunk), "l"(policy));
  return value;
#else
  (void)policy;
  return __ldg(chunk);
#endif
}

/// @brief The lane's part of the dot product of two rows of inner = 8·kFixedChunks halves: every
/// load of the lane first, then the products (the trip count is known at compile time, so
/// the chunks stay in registers).
/// @tparam kGroupLanes lanes per nonzero
/// @tparam kFixedChunks inner / 8
/// @param a_row row of A (16-byte aligned)
/// @param b_row row of Bᵀ (16-byte aligned)
/// @param lane_in_group the lane's place in its group
/// @return the lane's partial sum
template <int kGroupLanes, int kFixedChunks>
__device__ inline float row_dot_fixed(const __half* a_row, const __half* b_row, int lane_in_group) {
  static_assert(kFixedChunks % kGroupLanes == 0, "the same number of chunks in every lane");
  constexpr int kChunksPerLane = kFixedChunks / kGroupLanes;
  uint4 a_chunks[kChunksPerLane];
  uint4 b_chunks[kChunksPerLane];
  const unsigned long long a_policy = l2_evict_first_policy();
#pragma unroll
  for (int step = 0; step < kChunksPerLane; ++step) {
    const int chunk = lane_in_group + step * kGroupLanes;
    a_chunks[step] = load_row_of_a(reinterpret_cast<const uint4*>(a_row) + chunk, a_policy);
    b_chunks[step] = __ldg(reinterpret_cast<const uint4*>(b_row) + chunk);
  }
  float partial = 0.0f;
#pragma unroll
  for (int step = 0; step < kChunksPerLane; ++step) {
    partial = dot8(a_chunks[step], b_chunks[step], partial);
  }
  return partial;
}

/// @brief The lane's part of the dot product of two rows of any inner: 16-byte chunks when
/// @p kVector (then the inner % 8 tail one half at a time), else one half at a time.
/// @tparam kGroupLanes lanes per nonzero
/// @tparam kVector the rows allow 16-byte loads
/// @param a_row row of A
/// @param b_row row of Bᵀ
/// @param inner the inner size (length of each dot product)
/// @param lane_in_group the lane's place in its group
/// @return the lane's partial sum
template <int kGroupLanes, bool kVector>
__device__ inline float row_dot(const __half* a_row, const __half* b_row, int inner,
                                int lane_in_group) {
  float partial = 0.0f;
  int k_scalar = lane_in_group;
  if (kVector) {
    const unsigned long long a_policy = l2_evict_first_policy();
    const int full_chunks = inner / 8;
#pragma unroll 4
    for (int chunk = lane_in_group; chunk < full_chunks; chunk += kGroupLanes) {
      const uint4 a_chunk = load_row_of_a(reinterpret_cast<const uint4*>(a_row) + chunk, a_policy);
      const uint4 b_chunk = __ldg(reinterpret_cast<const uint4*>(b_row) + chunk);
      partial = dot8(a_chunk, b_chunk, partial);
    }
    k_scalar = full_chunks * 8 + lane_in_group;  // the inner % 8 tail, if any
  }
  for (int k = k_scalar; k < inner; k += kGroupLanes) {
    partial = fmaf(__half2float(a_row[k]), __half2float(b_row[k]), partial);
  }
  return partial;
}

/// @brief Which of S's nonzeros the lane groups compute.
enum class LaneSelection {
  every,              ///< all of them: no Tensor Core work
  skip_dense_panels,  ///< all but those of dense panels (sddmm_dense_panels_kernel writes them)
  listed              ///< those of a list: the rest are in full tiles or dense panels
};

/// @brief One group of kGroupLanes lanes per nonzero, CUDA cores.
///
/// Each block takes @p iterations runs of blockDim.x / kGroupLanes consecutive nonzeros, one
/// run after the other: nonzeros of neighbouring rows of a banded matrix then share rows of
/// Bᵀ in the SM's L1 cache, and the loads of one run overlap those of the next. The launcher
/// picks @p iterations so that the grid still fills every SM (on the H200, 1 run took 0.420 ms
/// and the automatic 8 runs 0.316 ms on matrix_36000_36000_4000000; small grids get 1).
/// When inner is known at compile time (kFixedChunks = inner / 8 > 0) the loop over a lane's chunks
/// is unrolled completely (row_dot_fixed) and all of the lane's loads are in flight before the
/// first product, in 40 registers where the runtime-inner loop takes 52 (ptxas, sm_90). On the
/// H200 at inner = 256 that took the benchmark's 36000² mask (4 million nonzeros) from 0.322 to
/// 0.239 ms and the 916000² mask, whose Bᵀ is far larger than L2, from 0.851 to 0.740 ms.
/// Preconditions: blockDim.x is a multiple of 32; kVector only when A and Bᵀ allow 16-byte
/// loads (allows_vector_loads); kFixedChunks > 0 only with kVector and inner = 8·kFixedChunks;
/// LaneSelection::skip_dense_panels only with @p panel_is_dense from the plan's panel
/// classification; LaneSelection::listed only with @p listed (list_remaining_entries).
/// @tparam kGroupLanes lanes per nonzero (a power of two, 1..32)
/// @tparam kVector read 8 halves per load
/// @tparam kSelection which nonzeros to compute
/// @tparam kFixedChunks inner / 8 when it is fixed at compile time, 0 for any inner
/// @param operands A and Bᵀ
/// @param count nonzeros to compute: S's, or the list's with LaneSelection::listed
/// @param row_indices row of each nonzero
/// @param col_indices column of each nonzero
/// @param values value of each nonzero, or nullptr when every value is one
/// @param panel_is_dense one int per 64-row panel, nonzero for a dense one
/// @param listed the nonzeros to compute (LaneSelection::listed), in S's order
/// @param iterations runs of nonzeros per block (>= 1)
/// @param output one float per nonzero
template <int kGroupLanes, bool kVector, LaneSelection kSelection, int kFixedChunks = 0>
__global__ void __launch_bounds__(256)
    sddmm_lane_groups_kernel(DenseOperands operands, std::int64_t count,
                             const int* __restrict__ row_indices,
                             const int* __restrict__ col_indices, const float* __restrict__ values,
                             const int* __restrict__ panel_is_dense, const int* __restrict__ listed,
                             int iterations, float* __restrict__ output) {
  static_assert(kGroupLanes >= 1 && kGroupLanes <= 32 && (kGroupLanes & (kGroupLanes - 1)) == 0,
                "a group is a power of two of lanes within one warp");
  static_assert(kFixedChunks == 0 || (kVector && kFixedChunks % kGroupLanes == 0),
                "a fixed inner reads whole 16-byte chunks, the same number in every lane");
  const int groups_per_block = static_cast<int>(blockDim.x) / kGroupLanes;
  const int lane_in_group = static_cast<int>(threadIdx.x) % kGroupLanes;
  const std::int64_t first_number =
      static_cast<std::int64_t>(blockIdx.x) * iterations * groups_per_block +
      static_cast<int>(threadIdx.x) / kGroupLanes;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    // The group's nonzero is number `number` of those it computes (S's, or the list's).
    const std::int64_t number =
        first_number + static_cast<std::int64_t>(iteration) * groups_per_block;
    // Lanes past the last nonzero (and of dense panels) stay: they must join the shuffles.
    bool active = number < count;
    std::int64_t nonzero = number;
    float partial = 0.0f;
    if (active) {
      if constexpr (kSelection == LaneSelection::listed) {
        nonzero = __ldg(listed + number);
      }
      const int row = __ldg(row_indices + nonzero);
      const int col = __ldg(col_indices + nonzero);
      if (kSelection == LaneSelection::skip_dense_panels && panel_is_dense[row / kPanelRows] != 0) {
        active = false;  // the Tensor Core kernel writes this nonzero
      } else {
        const __half* a_row = operands.a + static_cast<std::int64_t>(row) * operands.lda;
        const __half* b_row = operands.b_transposed + static_cast<std::int64_t>(col) * operands.ldb;
        if constexpr (kFixedChunks > 0) {
          partial = row_dot_fixed<kGroupLanes, kFixedChunks>(a_row, b_row, lane_in_group);
        } else {
          partial = row_dot<kGroupLanes, kVector>(a_row, b_row, operands.inner, lane_in_group);
        }
      }
    }
    // Butterfly inside the group: offsets below kGroupLanes keep partners in the same group,
    // and every lane of the warp executes every shuffle (the loop count is uniform across
    // the block), so the full mask is exact.
#pragma unroll
    for (int offset = kGroupLanes / 2; offset > 0; offset >>= 1) {
      partial += __shfl_xor_sync(kAllLanes, partial, offset);
    }
    if (active && lane_in_group == 0) {
      // S's value is loaded only here: loading it beside the indices cost 25 % on the
      // 916000² mask (H200), as the early load changed how the row loads were scheduled.
      // A pattern S has no values to load (values == nullptr).
      output[nonzero] = values == nullptr ? partial : __ldg(values + nonzero) * partial;
    }
  }
}

}  // namespace course::step5
