/// @file split_k_reduce.cuh
/// @brief Split-K's second pass: C is the sum of the partial products, added in a fixed order.
/// Read fast_gemm.cuh first (it writes the partial products); the launcher is fast_gemm_launch.cu.
#pragma once

namespace course::step4 {

/// @brief p[index] = partials[0·count + index] + partials[1·count + index] + … in split order.
///
/// Each thread adds its element (VECTOR: its 4 consecutive elements, one float4) over every
/// split, always from split 0 upwards, so the same partial products give the same bits on every
/// run: the result is deterministic, which atomicAdd into C (the other common split-K reduction)
/// would not be. The walk over the splits is unrolled so that 8 loads are in flight at once: a
/// small C with hundreds of splits has few threads, each walking a long way, and a walk that
/// waits for each load in turn would take the memory's latency per split.
/// Preconditions: gridDim.x = ceil(count / (PER_THREAD·blockDim.x)) with PER_THREAD = 4 when
/// VECTOR, else 1; @p partials holds @p splits slices of @p count floats; VECTOR only when
/// count % 4 == 0 and both pointers are 16-byte aligned.
/// @tparam VECTOR float4 loads and stores, 4 elements a thread
/// @param partials the workspace: slice s is split s's partial product (rows×cols floats)
/// @param c C, rows×cols (written)
/// @param count rows·cols
/// @param splits number of slices
template <bool VECTOR>
__global__ void split_k_reduce_kernel(const float* __restrict__ partials, float* __restrict__ c,
                                      int count, int splits) {
  constexpr int kPerThread = VECTOR ? 4 : 1;
  const long long first =
      (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * kPerThread;
  // Past the end of C: the last block of the grid is partly outside (with VECTOR, count % 4 == 0,
  // so a group of 4 is either all inside or all outside).
  if (first >= count) {
    return;
  }
  if constexpr (VECTOR) {
    float4 sum = *reinterpret_cast<const float4*>(partials + first);
#pragma unroll 8
    for (int split = 1; split < splits; ++split) {
      const float4 part = *reinterpret_cast<const float4*>(
          partials + static_cast<long long>(split) * count + first);
      sum.x += part.x, sum.y += part.y, sum.z += part.z, sum.w += part.w;
    }
    *reinterpret_cast<float4*>(c + first) = sum;
  } else {
    float sum = partials[first];
#pragma unroll 8
    for (int split = 1; split < splits; ++split) {
      sum += partials[static_cast<long long>(split) * count + first];
    }
    c[first] = sum;
  }
}

}  // namespace course::step4
