/// @file mma_block_tile_product.cuh
/// @brief A 64×64 tile of A·B by one block of 4 warps, each a 32×32 quarter with `ldmatrix`
/// and `mma.sync` m16n8k16, the inner dimension streamed through a ring of shared-memory
/// stages copied ahead with cp.async. The dense panels' product (sddmm_dense_panels.cuh).
///
/// Step 5, approach 4 (going further): a block tile at a good share of the Tensor Cores' rate.
/// Read first: block_tile_product.cuh (the same tile with WMMA), mma_fragments.cuh (the two
/// instructions and their fragments), async_piece_copy.cuh (the copies).
///
/// Why not BlockTileProduct: Nsight Compute put its dense-panel kernel at 77 % of the L1 and
/// shared-memory throughput and 90 TFLOP/s on a 25 % mask of 16-blocks (H200,
/// lab/results/kernel_profiles_ncu_h200.md). Each of its warps computes a 16×32 strip, so
/// every 16-deep step reads three 16×16 fragments from shared memory for two products. Here a
/// warp computes 32×32: per 16-deep step it loads two fragments of A and four 16×8 of B with
/// four `ldmatrix.x4` and runs eight m16n8k16 products, 1.5 times the products per byte read
/// from shared memory. The inner dimension comes 64 values at a time (a whole 128-byte line of
/// each row: stages of 32 values copied half lines and moved the pressure to L2, 0.98 times
/// the WMMA kernel's speed; whole lines, 1.11 times: lab/results/dense_panel_mma_h200.md)
/// through a ring of kStages stages: while the warps multiply one stage, the copies of the next
/// kStages - 1 are in flight (cp.async on sm_80 and later; plain loads before, the same code not
/// overlapped).
#pragma once

#include "step5_tensor_core_sddmm/going_further/async_piece_copy.cuh"
#include "step5_tensor_core_sddmm/going_further/mma_fragments.cuh"
#include "step5_tensor_core_sddmm/dense_operands.hpp"

#include <cuda_fp16.h>

namespace course::step5 {

/// @brief A 64×64 tile of A·B computed by one block of 4 warps with ldmatrix and mma.sync.
/// @tparam kStages stages of the ring (2 to 4: one multiplied, the others in flight)
template <int kStages>
struct MmaBlockTileProduct {
  static constexpr int kWarps = 4;                    ///< warps per block, each a 32×32 quarter
  static constexpr int kThreads = 32 * kWarps;        ///< threads per block
  static constexpr int kRows = 64;                    ///< rows of the tile
  static constexpr int kCols = 64;                    ///< columns of the tile
  static constexpr int kWarpRows = 32;                ///< rows of each warp's part
  static constexpr int kWarpCols = 32;                ///< columns of each warp's part
  static constexpr int kChunk = 64;                   ///< values of inner per stage
  static constexpr int kStep = 16;                    ///< values of inner per mma
  static constexpr int kFragmentsA = kWarpRows / 16;  ///< 16-row fragments of A per warp (2)
  static constexpr int kFragmentsB = kWarpCols / 8;   ///< 8-column fragments of B per warp (4)
  /// Halves per staged row: the 8 rows that one ldmatrix block reads lie 144 bytes (9 pieces of
  /// 16 bytes) apart, so their pieces fall in 8 different groups of 4 banks (no conflict);
  /// 16-byte aligned as cp.async needs.
  static constexpr int kStageLd = kChunk + 8;
  /// Halves of one stage: kChunk values of the tile's 64 rows of A, then of its 64 rows of Bᵀ.
  static constexpr int kStageHalves = (kRows + kCols) * kStageLd;
  /// Floats per row of the finished tile: the float2 stores of a half-warp (4 rows of 4 lanes)
  /// then cover the 32 banks once.
  static constexpr int kResultLd = kCols + 8;
  /// Bytes of the ring.
  static constexpr int kRingBytes = kStages * kStageHalves * 2;
  /// Bytes of one stage: the finished tile, and what the caller stages beside it, each take one.
  static constexpr int kStageBytes = kStageHalves * 2;
  /// Bytes of the finished tile.
  static constexpr int kResultBytes = kRows * kResultLd * 4;
  /// The ring and the finished tile are never needed at the same time: one buffer.
  static constexpr int kSharedBytes = kRingBytes;
  static_assert(kStages >= 2 && kStages <= 4, "wait_pieces waits with at most 2 groups pending");
  static_assert((kRows / kWarpRows) * (kCols / kWarpCols) == kWarps,
                "the warps' parts cover the tile exactly");
  static_assert(kChunk % kStep == 0 && kChunk % 8 == 0, "a stage holds whole mma steps and pieces");
  static_assert(kStageLd % 8 == 0, "staged rows start 16-byte aligned");
  static_assert(kWarpCols % 16 == 0, "one ldmatrix.x4 loads B for two 8-column fragments");
  static_assert(kResultBytes <= kStageBytes, "the finished tile takes the last stage's place");
  static_assert(kSharedBytes <= 48 * 1024, "static shared memory of one block");

  /// @brief Computes the tile (rows first_row.., columns first_col..) into @p shared, as floats
  /// with leading dimension kResultLd. Positions past the matrices' edges hold zeros.
  ///
  /// Two hooks let the caller hide its own loads behind the product. @p after_copies_issued
  /// runs once the first stages' copies are issued. @p into_free_stage runs once, before the
  /// stage that frees the first place of the ring no copy will fill again (the last stage with
  /// two stages), and gets that place (kStageBytes): copies it issues there complete with the
  /// ring's (committed with the stage's copies, waited for before the return), and the place
  /// is the caller's until the next call. The finished tile takes another place.
  /// Preconditions: every thread of a block of kThreads calls it; @p shared holds
  /// kSharedBytes, 16-byte aligned; with @p vector_a (@p vector_b), A (Bᵀ) allows 16-byte loads.
  /// @tparam AfterCopiesIssued a callable without arguments
  /// @tparam IntoFreeStage a callable taking an `unsigned char*` (the free place)
  /// @param operands A and b_transposed
  /// @param first_row first row of the tile
  /// @param first_col first column of the tile
  /// @param vector_a A allows 16-byte loads
  /// @param vector_b b_transposed allows 16-byte loads
  /// @param shared the block's shared buffer
  /// @param after_copies_issued run by every thread once its copies of the first kStages - 1
  /// stages are issued: work that waits on the kernel's own loads (issued before compute) then
  /// waits behind the copies, not before them
  /// @param into_free_stage run by every thread with the free place, as described above
  /// @return the finished tile in @p shared
  template <typename AfterCopiesIssued, typename IntoFreeStage>
  __device__ static float* compute(const DenseOperands& operands, int first_row, int first_col,
                                   bool vector_a, bool vector_b, unsigned char* shared,
                                   const AfterCopiesIssued& after_copies_issued,
                                   const IntoFreeStage& into_free_stage) {
    __half* ring = reinterpret_cast<__half*>(shared);
    const int thread = static_cast<int>(threadIdx.x);
    const int warp = thread / 32;
    const int lane = thread % 32;
    // At least one chunk (inner 0: one stage of zeros), so that the hook below always runs.
    const int chunks = max(1, (operands.inner + kChunk - 1) / kChunk);
    // The chunk whose copy-ahead would go past the last chunk (or the first chunk, when
    // there are fewer chunks than the ring's copies ahead): its copy-ahead place stays free.
    const int first_free = chunks > kStages - 1 ? chunks - (kStages - 1) : 0;
    float accumulators[kFragmentsA][kFragmentsB][4] = {};

    // Fill the ring but one stage. A group is committed even past the last chunk (empty), so
    // that "chunk c's copies are done" is always "at most kStages - 2 groups pending".
    for (int chunk = 0; chunk < kStages - 1; ++chunk) {
      if (chunk < chunks) {
        copy_stage(ring + chunk * kStageHalves, operands, first_row, first_col, chunk * kChunk,
                   vector_a, vector_b, thread);
      }
      commit_pieces();
    }
    after_copies_issued();
    for (int chunk = 0; chunk < chunks; ++chunk) {
      wait_pieces(kStages - 2);
      __syncthreads();  // chunk's stage is in shared memory (every thread's copies), and every
                        // warp has multiplied the stage of chunk - 1, which the copy below reuses
      const int ahead = chunk + kStages - 1;
      __half* ahead_place = ring + (ahead % kStages) * kStageHalves;
      if (ahead < chunks) {
        copy_stage(ahead_place, operands, first_row, first_col, ahead * kChunk, vector_a, vector_b,
                   thread);
      } else if (chunk == first_free) {
        into_free_stage(reinterpret_cast<unsigned char*>(ahead_place));
      }
      commit_pieces();
      multiply_stage(ring + (chunk % kStages) * kStageHalves, warp, lane, accumulators);
    }
    wait_pieces(0);   // the caller's copies and empty groups are left; all done before return
    __syncthreads();  // every warp has multiplied its last stage before the tile overwrites it
    // The last chunk's place: never the free place, which holds the caller's copies.
    float* result = reinterpret_cast<float*>(ring + ((chunks - 1) % kStages) * kStageHalves);
    store_quarter(result, warp, lane, accumulators);
    __syncthreads();  // the whole tile is in shared memory before threads copy out other
                      // warps' quarters
    return result;
  }

 private:
  /// Copies values k0 .. k0 + kChunk - 1 of the tile's rows of A and of Bᵀ into @p stage.
  __device__ static void copy_stage(__half* stage, const DenseOperands& operands, int first_row,
                                    int first_col, int k0, bool vector_a, bool vector_b,
                                    int thread) {
    __half* stage_b = stage + kRows * kStageLd;
    if (vector_a) {
      copy_rows<kRows, true>(stage, operands.a, operands.lda, operands.rows, operands.inner,
                             first_row, k0, thread);
    } else {
      copy_rows<kRows, false>(stage, operands.a, operands.lda, operands.rows, operands.inner,
                              first_row, k0, thread);
    }
    if (vector_b) {
      copy_rows<kCols, true>(stage_b, operands.b_transposed, operands.ldb, operands.cols,
                             operands.inner, first_col, k0, thread);
    } else {
      copy_rows<kCols, false>(stage_b, operands.b_transposed, operands.ldb, operands.cols,
                              operands.inner, first_col, k0, thread);
    }
  }

  /// Copies values k0 .. k0 + kChunk - 1 of rows first_row .. first_row + kRowCount - 1 of a
  /// row-major half matrix into @p target (leading dimension kStageLd), zeros past its rows and
  /// past inner. The geometry is known at compile time: thread t copies piece t % 8 (8 halves)
  /// of rows t / 8, t / 8 + 16, ..., so that a piece costs a bounds test, an address and the
  /// copy. (copy_slice, which takes any geometry, spent about 46 instructions a piece here, more
  /// than half of the kernel's: Nsight Compute, H200, 2026-11-29,
  /// lab/results/dense_panel_copy_rows_h200.md.)
  template <int kRowCount, bool kVector>
  __device__ static void copy_rows(__half* target, const __half* matrix, int ld, int matrix_rows,
                                   int inner, int first_row, int k0, int thread) {
    constexpr int kPiecesPerRow = kChunk / 8;
    constexpr int kRowsPerPass = kThreads / kPiecesPerRow;
    static_assert(kThreads % kPiecesPerRow == 0 && kRowCount % kRowsPerPass == 0,
                  "every thread copies the same number of whole pieces");
    const int piece_col = (thread % kPiecesPerRow) * 8;
    const int k = k0 + piece_col;
    const int valid_k = max(0, min(8, inner - k));  // values past inner read as zeros
    const int first_slice_row = thread / kPiecesPerRow;
    const long long row_step = static_cast<long long>(kRowsPerPass) * ld;
    const __half* source = matrix + static_cast<long long>(first_row + first_slice_row) * ld + k;
    __half* place = target + first_slice_row * kStageLd + piece_col;
#pragma unroll
    for (int pass = 0; pass < kRowCount / kRowsPerPass; ++pass) {
      // A row past the matrix (a tile cut by its edge) copies nothing and reads as zeros.
      const bool inside = first_row + first_slice_row + pass * kRowsPerPass < matrix_rows;
      const int valid = inside ? valid_k : 0;
      copy_piece<kVector>(place + pass * kRowsPerPass * kStageLd,
                          valid > 0 ? source + pass * row_step : matrix, valid);
    }
  }

  /// Adds the warp's quarter of the stage's product to @p accumulators.
  __device__ static void multiply_stage(const __half* stage, int warp, int lane,
                                        float (&accumulators)[kFragmentsA][kFragmentsB][4]) {
    const int quarter_row = (warp / (kCols / kWarpCols)) * kWarpRows;
    const int quarter_col = (warp % (kCols / kWarpCols)) * kWarpCols;
    // ldmatrix.x4 on A: lanes 0-15 give rows 0-15 at k, lanes 16-31 the same rows at k + 8:
    // the blocks arrive as a[0..3] of mma_fragments.cuh.
    const __half* a_rows = stage + (quarter_row + lane % 16) * kStageLd + (lane / 16) * 8;
    // ldmatrix.x4 on Bᵀ: lanes 0-7 give columns 0-7 at k, lanes 8-15 the same at k + 8, lanes
    // 16-31 the same for columns 8-15: b[0], b[1] of two 8-column fragments.
    const __half* b_rows = stage + (kRows + quarter_col + lane % 8 + (lane / 16) * 8) * kStageLd +
                           ((lane / 8) % 2) * 8;
#pragma unroll
    for (int step = 0; step < kChunk; step += kStep) {
      unsigned a[kFragmentsA][4];
      unsigned b[kFragmentsB][2];
#pragma unroll
      for (int fragment = 0; fragment < kFragmentsA; ++fragment) {
        load_matrix_x4(a[fragment], a_rows + fragment * 16 * kStageLd + step);
      }
#pragma unroll
      for (int pair = 0; pair < kFragmentsB / 2; ++pair) {
        unsigned blocks[4];
        load_matrix_x4(blocks, b_rows + pair * 16 * kStageLd + step);
        b[2 * pair][0] = blocks[0];
        b[2 * pair][1] = blocks[1];
        b[2 * pair + 1][0] = blocks[2];
        b[2 * pair + 1][1] = blocks[3];
      }
#pragma unroll
      for (int row_fragment = 0; row_fragment < kFragmentsA; ++row_fragment) {
#pragma unroll
        for (int col_fragment = 0; col_fragment < kFragmentsB; ++col_fragment) {
          mma_16x8x16(accumulators[row_fragment][col_fragment], a[row_fragment], b[col_fragment]);
        }
      }
    }
  }

  /// Writes the warp's quarter from its accumulators into the finished tile (c[0], c[1] at row
  /// lane / 4, c[2], c[3] eight rows down; columns 2·(lane % 4) and +1).
  __device__ static void store_quarter(float* result, int warp, int lane,
                                       const float (&accumulators)[kFragmentsA][kFragmentsB][4]) {
    const int quarter_row = (warp / (kCols / kWarpCols)) * kWarpRows;
    const int quarter_col = (warp % (kCols / kWarpCols)) * kWarpCols;
#pragma unroll
    for (int row_fragment = 0; row_fragment < kFragmentsA; ++row_fragment) {
#pragma unroll
      for (int col_fragment = 0; col_fragment < kFragmentsB; ++col_fragment) {
        const float(&c)[4] = accumulators[row_fragment][col_fragment];
        const int row = quarter_row + row_fragment * 16 + lane / 4;
        const int col = quarter_col + col_fragment * 8 + (lane % 4) * 2;
        *reinterpret_cast<float2*>(result + row * kResultLd + col) = make_float2(c[0], c[1]);
        *reinterpret_cast<float2*>(result + (row + 8) * kResultLd + col) = make_float2(c[2], c[3]);
      }
    }
  }
};

/// @brief Stages of the dense panels' ring: two (36 KB a block, six blocks an SM on sm_90):
/// one stage multiplied while the next is copied; the other blocks of the SM hide the rest.
constexpr int kDensePanelStages = 2;

}  // namespace course::step5
