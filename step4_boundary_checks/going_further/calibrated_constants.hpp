/// @file calibrated_constants.hpp
/// @brief Every measured constant of the fast kernel's choice, each with the GPU and the date it
/// was measured on: the cost model's terms and, per compiled tile, its efficiency and registers.
///
/// All were calibrated on one GPU, an NVIDIA H100 80GB HBM3 (sm_90, 132 SMs), on 2026-11-24, by
/// the shape sweep with every tile and candidate split (`step4_shape_bench --shapes
/// lab/shapes/public_shapes.txt --all-fast-variants`, lab/results/shapes_sweep_h100_cursor*) and
/// a grid search over a copy of the model (lab/calibrate_choice.py) for the values whose choice
/// serves the shapes where cuBLAS takes at least 20 µs best against cuBLAS: the smallest
/// fraction of cuBLAS first, then the geometric mean; of the values that tie, those nearest the
/// previous ones. On another GPU the choice still reads that GPU's own description
/// (common/gpu_description.hpp: SMs, clocks, shared memory, registers, compute capability) and
/// keeps these numbers, which describe the kernels' instruction mix more than the H100.
/// lab/README.md says how to recalibrate them on another GPU. Read fast_gemm_cost_model.cpp,
/// which uses them.
///
/// The choice's other numbers are design choices, not measurements, and hold on every GPU: the
/// thin paths' limits (kThinMax, kThinChunk) and their 32 warps per SM, the shortest split
/// (kMinSplitDepth), the largest workspace (kMaxWorkspaceBytes) and the 8 tile-rows of a group
/// of the block order.
#pragma once

#include "step4_boundary_checks/going_further/fast_gemm_config.hpp"

namespace course::step4 {

/// @brief The GPU every constant of this file was calibrated on.
constexpr const char* kCalibrationGpu = "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)";

/// @brief The date of that calibration (the sweep of lab/results/shapes_sweep_h100_cursor*).
constexpr const char* kCalibrationDate = "2026-11-24";

/// @brief The second kernel of split-K costs a launch: about 3 µs (H100 80GB HBM3, 2026-11-24:
/// measured by the benchmark as the gap between one launch and two on a tiny product).
constexpr double kLaunchSeconds = 3e-6;

/// @brief A block waits for its first tile before it can multiply anything (a round trip to
/// memory) and writes its outputs at the end: about 0.5 µs per wave that no arithmetic hides
/// (H100 80GB HBM3, 2026-11-24).
constexpr double kWaveFillSeconds = 0.5e-6;

/// @brief Each thread of the reduction adds its element's partial products one split after
/// another (8 loads in flight): about 25 ns per split when the output is too small to keep many
/// threads busy (H100 80GB HBM3, 2026-11-24: 5 to 25 ns give the same smallest fraction, 50 ns a
/// worse one). Measured with the reduction of split_k_reduce.cuh as it is now.
constexpr double kReduceSecondsPerSplit = 25e-9;

/// @brief The partial products are written and read back at this fraction of the memory
/// bandwidth (H100 80GB HBM3, 2026-11-24: half of it, the value before the tile cursor, was too
/// pessimistic, as it kept long-inner shapes from the splits that serve them best).
constexpr double kWorkspaceBandwidthFraction = 1.0;

/// @brief An SM reaches its full rate (the tile's efficiency) from 12 resident warps on, three
/// per scheduler (H100 80GB HBM3, 2026-11-24: three 4-warp 64×128 blocks ran 997×3001×1013 in
/// 0.172 ms, two in 0.189 ms, with the same work per SM). Below 12 the rate falls only as the
/// 1/4 power of the warps (kRateExponent): each thread's 64 independent multiply-adds per depth
/// hide most of the latency that a kernel with less work per thread needs many warps for.
constexpr int kWarpsForFullRate = 12;

/// @brief See kWarpsForFullRate (H100 80GB HBM3, 2026-11-24).
constexpr double kRateExponent = 0.25;

/// @brief A block alone on its SM runs at this fraction of the rate its warps would give (H100
/// 80GB HBM3, 2026-11-24). Before the tile cursor it was 0.75: at each of its barriers every warp
/// of the SM waited, with no second block to issue in the meantime (one 8-warp 128×128 block a SM
/// ran 0.89 as fast per SM as two). With the loads' instructions cut, the calibration finds no
/// such penalty: 0.6 to 0.9 give the same smallest fraction of cuBLAS and 1.0 a slightly better
/// mean, so the rate of a lone block is its warps' rate.
constexpr double kLoneBlockRate = 1.0;

/// @brief One compiled tile shape of the fast kernel, with what was measured of it.
struct TileCalibration {
  FastVariant tile;          ///< which shape
  int block_rows;            ///< BM
  int block_cols;            ///< BN
  int depth;                 ///< BK
  int threads;               ///< threads per block (one per 8×8 outputs)
  bool async_copies;         ///< async_copy_gemm.cuh (cp.async, sm_80 and newer) or fast_gemm.cuh
  int registers_per_thread;  ///< what ptxas (CUDA 13.0) gives the float4 path for sm_90
  double efficiency;         ///< fraction of the fp32 FMA peak at 4096×4096×4096, float4 loads
  double ragged_efficiency;  ///< ... at 4093×4091×4099, scalar loads
};

/// @brief Every compiled tile, the one the automatic choice prefers on a tie first. The
/// efficiencies are the fraction of the fp32 FMA peak each tile reached at full occupancy and
/// without a split, measured on an H100 80GB HBM3 (sm_90, 132 SMs) on 2026-11-24 by the shape
/// sweep (lab/results/shapes_sweep_h100_cursor*). They differ by less than one would guess from
/// the reuse of each loaded element (BM·BN/(BM+BN) multiply-adds per element): at full occupancy
/// every tile is limited by the same FMA issue rate, and what differs is latency hiding and
/// register pressure; on the scalar path the 64-wide tiles lose most, as they issue the most
/// loads per multiply-add. The registers are ptxas's for sm_90 (`-Xptxas -v`, CUDA 13.0,
/// 2026-11-25); on an H100 the occupancy they give (blocks_per_multiprocessor) is the one
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor reported for the calibration: 2, 3, 3, 2, 6, 4,
/// 2, 3 blocks per SM.
constexpr TileCalibration kTileCalibrations[] = {
    {FastVariant::bm128_bn128_bk8, 128, 128, 8, 256, false, 128, 0.707, 0.639},
    {FastVariant::bm64_bn128_bk8, 64, 128, 8, 128, false, 167, 0.691, 0.633},
    {FastVariant::bm128_bn64_bk8, 128, 64, 8, 128, false, 165, 0.675, 0.612},
    {FastVariant::bm128_bn128_bk16, 128, 128, 16, 256, false, 128, 0.710, 0.631},
    {FastVariant::bm64_bn64_bk8, 64, 64, 8, 64, false, 168, 0.677, 0.592},
    {FastVariant::bm32_bn128_bk8, 32, 128, 8, 64, false, 205, 0.614, 0.544},
    {FastVariant::bm128_bn128_bk16_async, 128, 128, 16, 256, true, 128, 0.574, 0.531},
    {FastVariant::bm64_bn128_bk16_async, 64, 128, 16, 128, true, 165, 0.624, 0.512},
};

}  // namespace course::step4
