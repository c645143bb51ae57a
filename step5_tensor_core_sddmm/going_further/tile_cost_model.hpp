/// @file tile_cost_model.hpp
/// @brief The plan's choices as functions of the mask's figures and the GPU's description,
/// so that the CPU tests can check them for GPUs the course is not running on.
///
/// Step 5, going further: the cost model that sends each 16×16 tile to Tensor Cores or to the
/// lane groups, shapes the masked-tile kernel for the GPU, and weighs the dense product.
/// Read first: device_rates.hpp (the rates), masked_tiles.hpp (what a masked tile is).
///
/// The model counts the bytes each path must bring to the SMs and divides them by the rate
/// the path reaches (DeviceRates):
/// - a lane group reads, for each nonzero, a row of Bᵀ gathered from L2 (inner halves, in
///   16-byte pieces) and the nonzero's indices from memory;
/// - a 16×16 tile on Tensor Cores copies 16 rows of Bᵀ into shared memory, whatever number
///   of the tile's 256 positions S holds, plus a fixed cost per tile (its descriptor, the
///   masked store);
/// - the dense product computes every rows×cols value at the Tensor Core rate, writes them
///   all and gathers S's entries back.
/// Outputs (one float per nonzero) cost the same on every path.
#pragma once

#include "step5_tensor_core_sddmm/going_further/device_rates.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_options.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <cstdint>
#include <vector>

namespace course::step5 {

/// @brief When a 16×16 tile goes to Tensor Cores.
struct TileThreshold {
  int min_entries = 0;  ///< entries of S in the tile from which Tensor Cores are cheaper
  /// Entries one row of such a tile must hold for the search to look at it:
  /// ceil(min_entries / 16), and at least 2 (a tile with at most one entry per row reads as
  /// many rows of Bᵀ on either path, so nothing is lost by leaving it to the lane groups,
  /// and the search then skips the uniform masks' single entries at once).
  int min_run = 0;
};

/// @brief The threshold where a tile's fixed 16 rows of Bᵀ (plus its fixed cost) cost what
/// its entries cost on the lane groups (a row of Bᵀ and the indices each).
/// @param rates the GPU's rates
/// @param inner the inner size (>= 1)
/// @return the threshold
TileThreshold tile_threshold(const DeviceRates& rates, int inner);

/// @brief How the masked-tile kernel copies its tiles of Bᵀ into shared memory on a GPU.
enum class TileCopies {
  synchronous,  ///< loads and stores through registers: two stages of Bᵀ suffice
  async,        ///< cp.async: 2 to 4 stages in flight (masked_tile_stages)
};

/// @brief cp.async where @p device has it (course::has_async_copies: sm_80 and newer) and the
/// masked-tile kernel's code was compiled for it: a compute_75 PTX build that the driver
/// compiles for an H100 has none (masked_tiles_compiled_with_async_copy says, on the GPU).
/// @param device the GPU
/// @param compiled_with_async_copy whether the kernel's code was compiled for sm_80 or newer
/// @return the kernel's copies on @p device
TileCopies masked_tile_copies(const GpuDescription& device, bool compiled_with_async_copy);

/// @brief How the masked-tile kernel is launched on a GPU.
struct MaskedTileShape {
  MaskedTileKernel kernel = MaskedTileKernel::ring;  ///< ring or registers (never automatic)
  int panels = 0;         ///< 16-row panels per block, one warp each (1, 2 or 4); 0: none fits
  int stages = 0;         ///< stages of Bᵀ in flight per block (masked_tile_stages)
  int chunk = 0;          ///< values of inner per stage (masked_tile_chunk)
  int group_steps = 0;    ///< tile columns per stage (1 when a chunk does not cover inner)
  int item_steps = 0;     ///< most tile columns per block (a panel's longer lists are split)
  int shared_bytes = 0;   ///< dynamic shared memory per block
  int blocks_per_sm = 0;  ///< resident blocks per SM that the shared memory allows
};

/// @brief The most tile columns one block takes (the size of its table in shared memory).
constexpr int kMaxItemSteps = 64;

/// @brief Values of inner one stage of Bᵀ holds: inner rounded up to 16, at most 256.
/// @param inner the inner size
/// @return the chunk
int masked_tile_chunk(int inner);

/// @brief Tile columns one stage holds when the plan leaves it open: as many as keep a stage
/// near 8 KiB (256 / chunk, at most 4), and 1 when one chunk does not cover inner.
/// @param inner the inner size
/// @return tile columns per stage
int masked_group_steps(int inner);

/// @brief Dynamic shared memory of the masked-tile kernel: the panels' rows of A (inner rounded up
/// to 16, plus 8 halves against bank conflicts), the stages of Bᵀ (16 rows per tile column of the
/// group, chunk plus 8 halves each), and the block's table of tile columns.
/// @param panels 16-row panels per block
/// @param stages stages of Bᵀ
/// @param inner the inner size
/// @param item_steps tile columns per block
/// @param group_steps tile columns per stage
/// @return bytes
int masked_tile_shared_bytes(int panels, int stages, int inner, int item_steps, int group_steps);

/// @brief Stages of Bᵀ in flight for a block of @p panels panels and @p group tile columns a
/// stage: without cp.async two (the threads that copy a stage then wait for it); with it
/// @p stages_wanted when given, else the most of 2 to 4 that leave as many blocks resident on
/// an SM as two do. Blocks resident hide the copies' latency better than a deeper ring: on an
/// H200 (2026-11-29, lab/results/masked_tiles_stages_h200.md) two stages, with more blocks an
/// SM, ran the masked tiles 5 to 29 % faster than four on 14 of 16 cases.
/// @param device the GPU
/// @param copies the kernel's copies there (masked_tile_copies)
/// @param inner the inner size
/// @param panels panels per block
/// @param group tile columns per stage
/// @param stages_wanted 0: choose; 2..4: that many (with cp.async)
/// @return the stages
int masked_tile_stages(const GpuDescription& device, TileCopies copies, int inner, int panels,
                       int group, int stages_wanted = 0);

/// @brief The launch shape for @p device and @p inner: the most panels per block (4, 2, 1)
/// whose shared memory fits one block and still lets two blocks share an SM (one waits at a
/// barrier while the other computes), or one block when only one fits; panels = 0 when not
/// even one panel's rows of A fit (the plan then uses no masked tiles).
/// @param device the GPU
/// @param copies the kernel's copies there (masked_tile_copies; masked_tile_stages)
/// @param inner the inner size
/// @param panels_wanted 0: choose; 1, 2 or 4: that many, if it fits
/// @param group_wanted 0: masked_group_steps; 1..4: that many tile columns per stage (fewer
/// when one chunk does not cover inner or the shared memory does not hold them)
/// @param stages_wanted 0: masked_tile_stages chooses; 2..4: that many (2 without cp.async)
/// @return the shape (item_steps = kMaxItemSteps until choose_item_steps)
MaskedTileShape choose_masked_tile_shape(const GpuDescription& device, TileCopies copies, int inner,
                                         int panels_wanted = 0, int group_wanted = 0,
                                         int stages_wanted = 0);

/// @brief The launch shape of register_tile_kernel (sddmm_register_tiles.cuh): one panel per
/// super-panel (a step is one tile), kRegisterTileWarps items per block, no stage (chunk: the
/// values of inner one pass holds), shared memory for the warps' parked A, and the blocks
/// per SM its launch bounds, the threads and the shared memory allow.
/// @param device the GPU
/// @param inner the inner size (>= 1)
/// @return the shape (item_steps = kMaxItemSteps until choose_item_steps)
MaskedTileShape choose_register_tile_shape(const GpuDescription& device, int inner);

/// @brief Share of the 16×16 tiles in the columns S's panels span that must be masked tiles
/// for the automatic plan to run the ring (masked_kernel_for).
constexpr double kRingTileShare = 0.3;

/// @brief The 16×16 tiles of S in the columns each 64-row panel spans (its first to its last
/// entry's tile column, over the panel's 16-row panels): where a mask's tiles can lie.
/// @param spans each 64-row panel's columns (PanelStatistics::spans)
/// @param rows rows of S
/// @return tiles
std::int64_t tiles_spanned(const std::vector<PanelSpan>& spans, int rows);

/// @brief Whether the masked tiles fill at least kRingTileShare of the tiles their panels span
/// (a dense mask: a tile column holds tiles in most panels).
/// @param tiles masked tiles found
/// @param spanned tiles_spanned of S
/// @return whether they do (never when nothing is spanned)
bool fills_ring_share(std::int64_t tiles, std::int64_t spanned);

/// @brief The masked tiles' kernel the automatic plan runs. register_tile_kernel pays for tiles
/// only, each with its own 16 rows of Bᵀ from L2; the ring pays for its steps (a barrier and a
/// copy of a tile column for all of a block's panels, whether their warps have a tile there or
/// not), and its copies serve every panel of the block that has a tile in that column. Where
/// the masked tiles fill at least kRingTileShare of the tiles their panels span (dense masks:
/// a tile column holds tiles in most panels), the ring's shared copies save the L2 bandwidth
/// that the registers' copies run out of (H200, 2026-11-29, lab/results/register_tiles_h200.md:
/// on 32-blocks at 50 %, 40-blocks at 45 %, 24-blocks at 30 % and causal 48-blocks at 35 %
/// the register kernel took 1.23 to 1.82 times the ring's time at inner 64 and 128; on the
/// sparser masks mostly less, down to 0.49 on 16-blocks at 3 %). The threshold separates those
/// four from the rest of the public and other sets; the choice is made after a search for the
/// register kernel, so a mask that takes the ring is searched twice (preprocessing only).
/// The sharing pays only while one stage holds several tile columns (group_steps > 1: inner up
/// to 128, where the GPU's shared memory holds such stages). With one column a stage, the ring pays
/// a block-wide barrier per tile column, and the register kernel ran faster on every such dense
/// mask: 0.72 to 0.94 of the ring's time at inner 256 and 512 (H200, 2026-11-30,
/// lab/results/ring_or_registers_h200.md).
/// @param tiles masked tiles found
/// @param spanned tiles_spanned of S
/// @param ring_group_steps tile columns one stage of the ring would hold at this inner
/// @return MaskedTileKernel::ring or MaskedTileKernel::registers
MaskedTileKernel masked_kernel_for(std::int64_t tiles, std::int64_t spanned, int ring_group_steps);

/// @brief 32-value slices of inner one pass of register_tile_kernel holds: 2, 4 or 8 (inner up
/// to 64, 128, or more; beyond 256 values the tile takes several passes).
/// @param inner the inner size
/// @return slices per pass
int register_tile_slices(int inner);

/// @brief Shared memory of register_tile_kernel: each warp's parked pieces of A for one pass
/// (16 bytes per lane, two rows, per slice), its slots for two tiles' values, and at 8 slices
/// its lanes' parked tile descriptors (8 bytes a lane).
/// @param slices slices per pass (register_tile_slices)
/// @return bytes per block
int register_tile_shared_bytes(int slices);

/// @brief Tile columns per item: few enough that the items fill every SM about twice over
/// (the last, partial wave stays short) and at most kMaxItemSteps. The ring's items are
/// blocks and take at least 4 stages' worth (each block first copies its panels' rows of A
/// and fills its ring: short items pay that again and again); the registers' items are
/// warps, kRegisterTileWarps a block, and take at least one tile.
/// @param device the GPU
/// @param shape the launch shape
/// @param steps tile columns to compute in all
/// @return tile columns per block
int choose_item_steps(const GpuDescription& device, const MaskedTileShape& shape,
                      std::int64_t steps);

/// @brief Seconds the lane groups take for @p entries nonzeros (rows of Bᵀ and indices).
/// @param rates the GPU's rates
/// @param inner the inner size
/// @param entries nonzeros
/// @return seconds
double lane_group_seconds(const DeviceRates& rates, int inner, std::int64_t entries);

/// @brief Bytes of one row of @p inner halves as 16-byte pieces read it (a row of A or Bᵀ,
/// for the lane groups' gathers and the tiles' copies alike).
/// @param inner the inner size
/// @return bytes
double row_bytes(int inner);

/// @brief Seconds the masked-tile kernel takes: its copies of Bᵀ (16 rows per tile column),
/// of A (the rows of each block's panels) and the tiles' fixed cost.
/// @param rates the GPU's rates
/// @param inner the inner size
/// @param tiles tiles on Tensor Cores
/// @param steps tile columns (tiles of one column of a block's panels share one copy)
/// @param blocks blocks launched (each copies its panels' rows of A)
/// @param panels panels per block
/// @return seconds
double masked_tile_seconds(const DeviceRates& rates, int inner, std::int64_t tiles,
                           std::int64_t steps, std::int64_t blocks, int panels);

/// @brief Seconds the dense path takes: the whole rows×cols product on Tensor Cores,
/// written to memory, then S's entries gathered from it.
/// @param rates the GPU's rates
/// @param rows rows of S
/// @param cols columns of S
/// @param inner the inner size
/// @param nnz entries of S
/// @return seconds
double dense_product_seconds(const DeviceRates& rates, int rows, int cols, int inner,
                             std::int64_t nnz);

/// @brief Bytes of the dense path's product buffer (rows×cols floats).
/// @param rows rows of S
/// @param cols columns of S
/// @return bytes
std::uint64_t dense_product_buffer_bytes(int rows, int cols);

/// @brief Whether the dense path wins: it is cheaper than the sparse plan by the model and
/// its buffer fits in @p free_bytes with a quarter of them left over.
/// @param dense_seconds dense_product_seconds
/// @param sparse_seconds the sparse plan's seconds (tiles and lane groups)
/// @param buffer_bytes dense_product_buffer_bytes
/// @param free_bytes device memory free now
/// @return whether to take the dense product
bool dense_product_pays(double dense_seconds, double sparse_seconds, std::uint64_t buffer_bytes,
                        std::uint64_t free_bytes);

/// @brief Whether the masked tiles found pay for their launch: the lane groups' time for the
/// entries they cover, less the tiles' own time, exceeds one launch.
/// @param rates the GPU's rates
/// @param inner the inner size
/// @param covered entries inside the tiles
/// @param tile_seconds masked_tile_seconds of those tiles
/// @return whether to launch them
bool masked_tiles_pay(const DeviceRates& rates, int inner, std::int64_t covered,
                      double tile_seconds);

}  // namespace course::step5
