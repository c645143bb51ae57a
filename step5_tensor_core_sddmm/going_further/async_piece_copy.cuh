/// @file async_piece_copy.cuh
/// @brief Copies of 8-half pieces (zeros past a matrix's edge) and of four floats into shared
/// memory, and the commit and wait of cp.async's groups.
///
/// Step 5, going further: 16-byte copies from global into shared memory, asynchronous where
/// the GPU has cp.async (sm_80 and later), plain loads and stores on older GPUs.
/// Read first: ../wmma_tile_product.cuh (stage_slice, the synchronous staging of approach 2).
///
/// On sm_80 and later `cp.async.cg` copies 16 bytes without passing through registers and
/// without making the thread wait; its source size (0..16 bytes) reads only what lies inside
/// the matrix and fills the rest with zeros. `cp.async.commit_group` closes a group of
/// copies and `cp.async.wait_group N` waits until at most N groups are still in flight. The
/// copies are the thread's own: a barrier after the wait makes every thread's copies visible
/// to the block. Compiled for an older GPU (or a compute_75 PTX that the driver compiles for
/// a newer one), the same calls are plain loads and stores and the commit and wait are empty:
/// the kernel is the same, only not overlapped.
#pragma once

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief Whether this compilation has cp.async.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
constexpr bool kAsyncPieceCopy = true;
#else
constexpr bool kAsyncPieceCopy = false;
#endif

/// @brief Copies one piece of 8 halves: the first @p valid from @p source, zeros after.
/// Preconditions: @p target 16-byte aligned in shared memory; with @p kVector, @p source
/// 16-byte aligned (allows_vector_loads of the matrix); @p source readable for @p valid
/// halves (any readable address when @p valid is 0).
/// @tparam kVector 16-byte copies are allowed
/// @param target the piece in shared memory
/// @param source the piece in global memory
/// @param valid halves inside the matrix (0..8)
template <bool kVector>
__device__ inline void copy_piece(__half* target, const __half* source, int valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (kVector) {
    const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(target));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address),
                 "l"(source), "r"(2 * valid)
                 : "memory");
    return;
  }
#endif
  if (kVector && valid == 8) {
    *reinterpret_cast<uint4*>(target) = __ldg(reinterpret_cast<const uint4*>(source));
    return;
  }
#pragma unroll
  for (int half = 0; half < 8; ++half) {
    target[half] = half < valid ? source[half] : __float2half(0.0f);
  }
}

/// @brief Copies four floats (16 bytes) into shared memory, asynchronously where the GPU has
/// cp.async (`cp.async.cg`, around L1: each value is read once), a plain 16-byte load and store
/// before sm_80.
/// Preconditions: @p target and @p source 16-byte aligned.
/// @param target the four floats in shared memory
/// @param source the four floats in global memory
__device__ inline void copy_float4(float* target, const float* source) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned shared_address = static_cast<unsigned>(__cvta_generic_to_shared(target));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared_address), "l"(source)
               : "memory");
#else
  *reinterpret_cast<float4*>(target) = __ldg(reinterpret_cast<const float4*>(source));
#endif
}

/// @brief Closes the thread's group of copies (cp.async.commit_group; nothing without it).
__device__ inline void commit_pieces() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// @brief Waits until at most @p pending of the thread's groups are in flight (0..2; more
/// waits for all). Without cp.async every copy is already done.
/// @param pending groups that may still be in flight
__device__ inline void wait_pieces(int pending) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  switch (pending) {  // the count is an immediate operand
    case 2:
      asm volatile("cp.async.wait_group 2;\n" ::: "memory");
      break;
    case 1:
      asm volatile("cp.async.wait_group 1;\n" ::: "memory");
      break;
    default:
      asm volatile("cp.async.wait_group 0;\n" ::: "memory");
      break;
  }
#else
  (void)pending;
#endif
}

/// @brief Copies rows first_row .. first_row + row_count - 1 and values [k0, k0 + width) of a
/// row-major half matrix into shared memory (leading dimension @p target_ld), in 8-half pieces
/// taken by @p threads threads in turn; zeros where the rows pass @p matrix_rows or the values
/// pass @p inner.
/// Preconditions: @p width a multiple of 8; @p target_ld a multiple of 8; with @p kVector,
/// allows_vector_loads(matrix, ld).
/// @tparam kVector 16-byte copies are allowed
/// @param target the slice in shared memory
/// @param target_ld its leading dimension (halves)
/// @param matrix the matrix
/// @param ld its leading dimension
/// @param matrix_rows its rows
/// @param inner its values per row
/// @param first_row first row copied
/// @param row_count rows copied
/// @param k0 first value copied
/// @param width values copied per row
/// @param thread the calling thread among @p threads
/// @param threads threads that share the copy
template <bool kVector>
__device__ inline void copy_slice(__half* target, int target_ld, const __half* matrix, int ld,
                                  int matrix_rows, int inner, int first_row, int row_count, int k0,
                                  int width, int thread, int threads) {
  const int pieces_per_row = width / 8;
  for (int piece = thread; piece < row_count * pieces_per_row; piece += threads) {
    const int slice_row = piece / pieces_per_row;
    const int slice_col = (piece % pieces_per_row) * 8;
    const int row = first_row + slice_row;
    const int k = k0 + slice_col;
    // Rows past the matrix (a panel or tile cut by its edge) and values past inner (the
    // zero padding to a multiple of 16) copy nothing and read as zeros.
    const int valid = row < matrix_rows ? max(0, min(8, inner - k)) : 0;
    const __half* source = valid > 0 ? matrix + static_cast<long long>(row) * ld + k : matrix;
    copy_piece<kVector>(target + slice_row * target_ld + slice_col, source, valid);
  }
}

}  // namespace course::step5
