/// @file step4_launchers.hpp
/// @brief Host launchers of step 4's kernels: device pointers and I, J, K in, P out.
///
/// Every launcher validates the sizes (validate_shape: each >= 1, every matrix within the
/// int index limit, the grid within CUDA's limits), chooses the launch configuration with
/// ceiling division and checks the launch. Launches are asynchronous: the next checked
/// synchronising call (a copy back, a timer) reports errors raised while the kernel ran.
/// All matrices are row-major and contiguous: M is I×J, N is J×K, P is I×K.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <string>
#include <vector>

namespace step4 {

class PaddedWorkspace;

/// @brief The approaches of step 4 (the numbers are those of `--approach` and APPROACH).
enum class Approach {
  tiled_checked = 1,  ///< 32×32 tiles with the three boundary checks (tiled_checked.cuh)
  padded = 2,         ///< zero padding + the unchecked kernel (padded.cuh)
  rect_tiles = 3,     ///< 64×16 by 16×64 tiles, 4×4 outputs per thread (rect_tiles.cuh)
  fast = 4,           ///< register tiling, float4 loads, double buffering (fast_gemm.cuh)
};

/// @brief Every approach, in order.
std::vector<Approach> all_approaches();

/// @brief Short name of an approach ("tiled checked", ...).
/// @param approach the approach
std::string approach_name(Approach approach);

/// @brief The approach with number @p number; throws std::invalid_argument naming the
/// allowed range otherwise.
/// @param number 1 to 4
Approach approach_from_number(long long number);

/// @brief Tile shapes of the fast kernel (block rows × block columns × depth).
enum class FastVariant {
  automatic,         ///< chosen from the shape (see matmul_fast)
  bm128_bn128_bk8,   ///< 128×128 block tile, depth 8, 256 threads
  bm128_bn128_bk16,  ///< 128×128 block tile, depth 16, 256 threads
  bm128_bn64_bk8,    ///< 128×64 block tile, depth 8, 128 threads
};

/// @brief Name of a fast-kernel variant ("128x128x8", ...).
/// @param variant the variant
std::string fast_variant_name(FastVariant variant);

/// @brief The tile widths matmul_tiled_checked accepts.
constexpr int kCheckedTiles[] = {2, 16, 32};

/// @brief P = M·N with square tiles and the three boundary checks.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
/// @param tile tile width: 2 (the note's example), 16 or 32 (default)
void matmul_tiled_checked(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                          int inner, int cols, int tile = 32);

/// @brief P = M·N with the UNCHECKED step-3 kernel; refuses any size that is not a multiple
/// of @p tile (std::invalid_argument), since that kernel would then read and write
/// outside the matrices.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I (a multiple of @p tile)
/// @param inner J (a multiple of @p tile)
/// @param cols K (a multiple of @p tile)
/// @param tile tile width: 2 or 32
void matmul_tiled_unchecked(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                            int inner, int cols, int tile = 32);

/// @brief For the bug demonstration only: runs the unchecked kernel with tile width 2 on
/// ANY size, as the note's 3×3 example does. It reads M, N and writes P outside their
/// I×J, J×K and I×K elements (up to the next multiples of 2): the caller must either give
/// allocations that large, or run it under compute-sanitizer to see the violations.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written, and written past its end)
/// @param rows I
/// @param inner J
/// @param cols K
void demo_unchecked_tile2(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                          int inner, int cols);

/// @brief P = M·N through zero-padded copies and the unchecked kernel (allocates a
/// workspace for this one call; see PaddedWorkspace to reuse one).
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
void matmul_padded(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                   int inner, int cols);

/// @brief P = M·N through zero-padded copies held in @p workspace.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
/// @param workspace padded buffers, reused between calls
void matmul_padded(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                   int inner, int cols, PaddedWorkspace& workspace);

/// @brief P = M·N with 64×16 by 16×64 rectangular tiles, each thread computing 4×4 outputs.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
void matmul_rect_tiles(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows,
                       int inner, int cols);

/// @brief P = M·N with the fast kernel. float4 loads are used for M only when J % 4 == 0
/// and M is 16-byte aligned, for N and P only when K % 4 == 0 and both are 16-byte aligned;
/// otherwise the scalar path runs. The automatic variant takes 128×128×16 tiles unless
/// there would be fewer of them than SMs, in which case the smaller 128×64×8 tiles are used.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
/// @param variant tile shape (default: automatic)
void matmul_fast(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows, int inner,
                 int cols, FastVariant variant = FastVariant::automatic);

/// @brief Runs @p approach (the padded one with a workspace of its own).
/// @param approach which kernel
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
void run_approach(Approach approach, const float* m_matrix, const float* n_matrix, float* p_matrix,
                  int rows, int inner, int cols);

}  // namespace step4
