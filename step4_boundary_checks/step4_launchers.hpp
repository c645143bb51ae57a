/// @file step4_launchers.hpp
/// @brief Host launchers of step 4's kernels: device pointers and I, J, K in, P out.
///
/// Every launcher validates the sizes (validate_shape: each >= 1, every matrix within the
/// int index limit, the grid within CUDA's limits), chooses the launch configuration with
/// ceiling division and checks the launch. Launches are asynchronous: the next checked
/// synchronising call (a copy back, a timer) reports errors raised while the kernel ran.
/// All matrices are row-major and contiguous: M is I×J, N is J×K, P is I×K.
#pragma once

#include "step4_boundary_checks/fast_gemm_config.hpp"
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
  fast = 4,           ///< register tiling, float4 loads, double buffering, split-K (fast_gemm.cuh)
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

/// @brief P = M·N with the fast kernel in configuration @p config. float4 loads are used
/// for M only when J % 4 == 0 and M is 16-byte aligned, for N and P only when K % 4 == 0 and
/// both are 16-byte aligned; otherwise the scalar path runs. An automatic tile or split is
/// chosen by choose_fast_config from the shape and the device (see chosen_fast_config). With
/// more than one split the partial products go to a workspace from the stream-ordered pool
/// and a second kernel adds them in a fixed order: the same inputs and configuration give
/// bitwise the same P on every run.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
/// @param config tile and splits (a split count above the number of inner tiles runs one
/// split per tile)
void matmul_fast(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows, int inner,
                 int cols, FastConfig config);

/// @brief P = M·N with the fast kernel: @p variant's tile (default: chosen) and the split
/// chosen for it.
/// @param m_matrix M, device
/// @param n_matrix N, device
/// @param p_matrix P, device (written)
/// @param rows I
/// @param inner J
/// @param cols K
/// @param variant tile shape (default: automatic)
void matmul_fast(const float* m_matrix, const float* n_matrix, float* p_matrix, int rows, int inner,
                 int cols, FastVariant variant = FastVariant::automatic);

/// @brief The configuration matmul_fast runs for this shape and @p config on the current
/// device: every automatic part resolved (needs a GPU; validates the sizes).
/// @param rows I
/// @param inner J
/// @param cols K
/// @param config what is fixed (default: nothing)
FastConfig chosen_fast_config(int rows, int inner, int cols, FastConfig config = {});

/// @brief The current device's figures that the fast kernel's choice uses (SMs, fp32 peak,
/// memory bandwidth), read once per process.
const DeviceFacts& current_device_facts();

/// @brief Every compiled tile of the fast kernel with its occupancy on the current device.
const std::vector<TileFacts>& fast_tile_facts();

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
