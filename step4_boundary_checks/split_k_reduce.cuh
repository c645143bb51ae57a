/// @file split_k_reduce.cuh
/// @brief Split-K's second pass: C is the sum of the partial products, added in a fixed order.
/// Read fast_gemm.cuh first (it writes the partial products); the launcher is fast_gemm_launch.cu.
#pragma once

namespace course::step4 {

/// @brief p[index] = partials[0·count + index] + partials[1·count + index] + … in split order.
///
/// Each thread adds 4 consecutive elements over every split, always from split 0 upwards, so
/// the same partial products give the same bits on every run: the result is deterministic,
/// which atomicAdd into C (the other common split-K reduction) would not be.
/// Preconditions: gridDim.x = ceil(count / (4·blockDim.x)); @p partials holds @p splits slices
/// of @p count floats; VECTOR only when count % 4 == 0 and both pointers are 16-byte aligned.
/// @tparam VECTOR float4 loads and stores
/// @param partials the workspace: slice s is split s's partial product (rows×cols floats)
/// @param c C, rows×cols (written)
/// @param count rows·cols
/// @param splits number of slices
template <bool VECTOR>
__global__ void split_k_reduce_kernel(const float* __restrict__ partials, float* __restrict__ c,
                                      int count, int splits) {
  const long long first = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * 4;
  if constexpr (VECTOR) {
    // Past the end of C: the last block of the grid is partly outside (count % 4 == 0 here,
    // so a group of 4 is either all inside or all outside).
    if (first >= count) {
      return;
    }
    float4 sum = *reinterpret_cast<const float4*>(partials + first);
    for (int split = 1; split < splits; ++split) {
      const float4 part = *reinterpret_cast<const float4*>(
          partials + static_cast<long long>(split) * count + first);
      sum.x += part.x, sum.y += part.y, sum.z += part.z, sum.w += part.w;
    }
    *reinterpret_cast<float4*>(c + first) = sum;
  } else {
#pragma unroll
    for (int part = 0; part < 4; ++part) {
      const long long index = first + part;
      if (index >= count) {  // past the end of C, one element at a time
        return;
      }
      float sum = partials[index];
      for (int split = 1; split < splits; ++split) {
        sum += partials[static_cast<long long>(split) * count + index];
      }
      c[index] = sum;
    }
  }
}

}  // namespace course::step4
