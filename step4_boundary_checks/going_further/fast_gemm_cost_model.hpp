/// @file fast_gemm_cost_model.hpp
/// @brief The fast kernel's choice of block tile and split-K: a model of its time, evaluated on
/// the host from the product's sizes, a description of the device (course::GpuDescription in
/// common/gpu_description.hpp; what its SMs hold: sm_capacity.hpp) and the compiled tiles
/// (calibrated_constants.hpp). Pure host code: the tests evaluate it for GPUs that are not in
/// the machine. Read fast_gemm.cuh and fast_gemm_config.hpp first;
/// fast_gemm_launch.cu applies the choice.
#pragma once

#include "step4_boundary_checks/going_further/calibrated_constants.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_config.hpp"
#include "step4_boundary_checks/going_further/sm_capacity.hpp"

#include <vector>

namespace course::step4 {

/// @brief One block-tile shape as compiled, with its occupancy on the device at hand.
struct TileFacts {
  FastVariant tile = FastVariant::automatic;  ///< which shape
  int block_rows = 0;                         ///< BM
  int block_cols = 0;                         ///< BN
  int depth = 0;                              ///< BK
  int threads = 0;                            ///< threads per block
  int blocks_per_multiprocessor = 0;          ///< resident blocks per SM (occupancy)
  double efficiency = 1.0;  ///< fraction of the FMA peak an SM reaches with this tile
  /// ... when inner or cols is not a multiple of 4 (scalar loads of A or of B, no float4)
  double ragged_efficiency = 1.0;
  int registers_per_thread =
      0;                 ///< registers of the float4 path (the compiled kernel's, or ptxas's)
  int shared_bytes = 0;  ///< static shared memory of one block
};

/// @brief Static shared memory of one block of @p tile: two buffers of both tiles (the A tile
/// transposed and 4 floats wider) for fast_gemm.cuh, a ring of three for async_copy_gemm.cuh.
/// @param tile the tile
/// @return bytes
int tile_shared_bytes(const TileCalibration& tile);

/// @brief The TileFacts of @p tile with @p blocks_per_multiprocessor blocks a SM (registers and
/// shared memory: the catalogue's).
/// @param tile the tile
/// @param blocks_per_multiprocessor its occupancy
/// @return the facts
TileFacts tile_facts_from(const TileCalibration& tile, int blocks_per_multiprocessor);

/// @brief The tiles the automatic choice may take on a described GPU: every tile of
/// kTileCalibrations that fits it (its shared memory, registers and threads: occupancy modelled by
/// blocks_per_multiprocessor), the asynchronous-copy tiles only where the GPU has cp.async and
/// @p async_copies_compiled says the code was compiled with it.
/// @param device the GPU
/// @param async_copies_compiled whether the kernels were compiled for sm_80 or newer
/// @return the tiles, in the order of kTileCalibrations
std::vector<TileFacts> described_tiles(const GpuDescription& device, bool async_copies_compiled);

/// @brief Estimated time in seconds of the fast kernel with @p tile and @p splits on @p sizes
/// (the model choose_fast_config minimises; documented in fast_gemm_cost_model.cpp).
/// @param sizes the product's sizes
/// @param device the device's description
/// @param tile one tile shape
/// @param splits inner-dimension splits (>= 1, at most the number of inner tiles)
double estimate_fast_seconds(const ProductSizes& sizes, const GpuDescription& device,
                             const TileFacts& tile, int splits);

/// @brief The split counts worth trying for @p tile on @p sizes: 1, then the counts that fill
/// whole waves, up to the number of inner tiles (each split keeps at least kMinSplitDepth of
/// inner, the workspace at most kMaxWorkspaceBytes, the grid at most course::kMaxGridZ splits).
/// @param sizes the product's sizes
/// @param device the device's description
/// @param tile one tile shape
std::vector<int> candidate_splits(const ProductSizes& sizes, const GpuDescription& device,
                                  const TileFacts& tile);

/// @brief The configuration with the smallest estimate_fast_seconds over the @p tiles whose
/// grid fits CUDA's limits (ceil(rows / BM) <= course::kMaxGridY) and their candidate_splits.
/// Ties go to fewer splits, then to the earlier tile in @p tiles. Throws std::invalid_argument
/// when no tile's grid fits (validate_fast_shape says when).
/// @param sizes the product's sizes
/// @param device the device's description
/// @param tiles the compiled tile shapes (at least one)
FastConfig choose_fast_config(const ProductSizes& sizes, const GpuDescription& device,
                              const std::vector<TileFacts>& tiles);

/// @brief @p config with every automatic part chosen for @p sizes on @p device: a thin path
/// when C is thin (thin_variant) with thin_splits, else the tile and split of
/// choose_fast_config over @p automatic (or, for a fixed tile, its split alone), then the block
/// order (choose_group_rows). What launch_fast runs, as a host function: the launcher passes the
/// current device and the compiled tiles, the tests a described GPU and described_tiles().
/// @param sizes validated sizes
/// @param config what is fixed (FastVariant::automatic, splits 0 and group_rows 0: choose)
/// @param device the device's description
/// @param automatic the tiles the automatic choice may take
/// @param compiled every compiled tile (a fixed tile's facts are looked up here)
/// @return the configuration, nothing left automatic
FastConfig resolve_fast_config(const ProductSizes& sizes, FastConfig config,
                               const GpuDescription& device,
                               const std::vector<TileFacts>& automatic,
                               const std::vector<TileFacts>& compiled);

/// @brief Blocks of one split of a thin path: thin_rows has one per kThinChunk columns of C,
/// thin_cols one per kThinColsWarps rows.
/// @param sizes the product's sizes
/// @param variant FastVariant::thin_rows or FastVariant::thin_cols
long long thin_blocks(const ProductSizes& sizes, FastVariant variant);

/// @brief Throws std::invalid_argument, naming the limit, unless the fast kernel can multiply
/// @p sizes: a thin path (thin_variant) or a tile of kTileCalibrations whose grid fits
/// (ceil(rows / BM) <= course::kMaxGridY for the tallest tile). Needs no GPU: the programs call
/// it before making any input.
/// @param sizes validated sizes (validate_shape)
void validate_fast_shape(const ProductSizes& sizes);

/// @brief Splits for a thin path that launches @p warps warps without a split: enough for
/// 32 warps per SM (the latency of the loads from memory hidden), each split keeping at least
/// one chunk of kThinChunk.
/// @param sizes the product's sizes
/// @param device the device's description
/// @param warps warps of one split (blocks × warps per block)
int thin_splits(const ProductSizes& sizes, const GpuDescription& device, long long warps);

/// @brief Tile-rows per group of the block order: 1 (plain) while one wave of blocks covers
/// at most a few tile-rows anyway, else 8, so that a wave's blocks read 8 row panels of A and
/// (wave / 8) column panels of B instead of a few row panels and all of B.
/// @param tile_rows ceil(rows / BM)
/// @param tile_cols ceil(cols / BN)
/// @param wave_blocks blocks resident at once (SMs · blocks per SM)
int choose_group_rows(int tile_rows, int tile_cols, long long wave_blocks);

/// @brief Least inner-dimension length one split covers (64, eight tiles of depth 8: shorter
/// splits spend more of their time filling their pipeline and writing a partial product than
/// multiplying).
constexpr int kMinSplitDepth = 64;

/// @brief Largest split-K workspace (splits · rows · cols floats) the choice may ask for: 256 MiB.
constexpr double kMaxWorkspaceBytes = 256.0 * 1024 * 1024;

}  // namespace course::step4
