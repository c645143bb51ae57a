/// @file mma_fragments.cuh
/// @brief The two PTX instructions under WMMA, called directly: `ldmatrix` (four 8×8 blocks
/// of halves from shared memory into the registers of a warp's fragments) and `mma.sync`
/// m16n8k16 (a 16×8 tile of floats += a 16×16 slice of A times a 16×8 slice of B).
///
/// Step 5, going further: Tensor Cores without WMMA's opaque fragments.
/// Read first: ../fragment_map.cuh (which lane holds which element of a 16×16 accumulator).
///
/// Why below WMMA: a WMMA fragment's layout is unspecified, so a kernel can only load it with
/// load_matrix_sync and store it with store_matrix_sync, whole 16×16 tiles at a time. With the
/// layout known (PTX ISA, "Matrix Fragments for mma.m16n8k16"), one `ldmatrix.x4` fills a 16×16
/// fragment of A, or the 16×8 fragments of B for two n-tiles at once, and the accumulators can
/// be written out from registers. Lane `lane` holds, for m16n8k16 with fp16 inputs:
/// - A (row-major 16×16): a[0] rows lane/4, k (lane%4)·2 and +1; a[1] the same 8 rows down;
///   a[2] and a[3] the same at k + 8.
/// - B (16×8, "col": stored as Bᵀ rows, k contiguous): b[0] column lane/4, k (lane%4)·2 and
///   +1; b[1] the same at k + 8.
/// - C (16×8 floats): c[0], c[1] row lane/4, columns (lane%4)·2 and +1; c[2], c[3] row + 8.
///
/// `mma.sync.m16n8k16` needs sm_80; Turing (sm_75) has m16n8k8, which is exactly half of it
/// along k: the m16n8k16 step is then two m16n8k8 steps on the same registers. `ldmatrix`
/// exists from sm_75 on.
#pragma once

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief Loads four 8×8 blocks of halves from shared memory, one register of each block per
/// lane: lanes 8·q .. 8·q + 7 give the addresses of the 8 rows of block q (16 bytes each), and
/// lane l receives elements 2·(l % 4), +1 of row l / 4 of every block, in @p blocks[q].
/// Preconditions: every lane of the warp calls it; each row address 16-byte aligned in shared
/// memory.
/// @param blocks the four registers (two halves each)
/// @param row this lane's row address
__device__ inline void load_matrix_x4(unsigned (&blocks)[4], const __half* row) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(row));
  // "memory": the blocks were written by other threads' copies before a barrier; the load must
  // not move above that barrier.
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(blocks[0]), "=r"(blocks[1]), "=r"(blocks[2]), "=r"(blocks[3])
               : "r"(address)
               : "memory");
}

/// @brief accumulator += A·B for a 16×16 slice of A and a 16×8 slice of B (fp16 in, fp32 out),
/// in the fragment layouts of this file's header.
/// Preconditions: every lane of the warp calls it.
/// @param accumulator c[0..3]
/// @param a a[0..3]
/// @param b b[0..1]
__device__ inline void mma_16x8x16(float (&accumulator)[4], const unsigned (&a)[4],
                                   const unsigned (&b)[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  // Turing: k 0..7 (a[0], a[1], b[0]), then k 8..15 (a[2], a[3], b[1]).
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(accumulator[0]), "+f"(accumulator[1]), "+f"(accumulator[2]), "+f"(accumulator[3])
      : "r"(a[0]), "r"(a[1]), "r"(b[0]));
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(accumulator[0]), "+f"(accumulator[1]), "+f"(accumulator[2]), "+f"(accumulator[3])
      : "r"(a[2]), "r"(a[3]), "r"(b[1]));
#else
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(accumulator[0]), "+f"(accumulator[1]), "+f"(accumulator[2]), "+f"(accumulator[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

}  // namespace course::step5
