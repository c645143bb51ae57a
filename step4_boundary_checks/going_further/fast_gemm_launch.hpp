/// @file fast_gemm_launch.hpp
/// @brief The launcher of the fast kernel (going further): `launch_fast(a, b, c, sizes, stream,
/// ...)` with the tile and split-K chosen for the shape and the device, or fixed by the caller.
/// Read fast_gemm.cuh (the kernel) and fast_gemm_cost_model.hpp (the choice) first.
#pragma once

#include "step4_boundary_checks/going_further/fast_gemm_cost_model.hpp"

#include <cuda_runtime_api.h>

#include <vector>

namespace course::step4 {

/// @brief C = A·B with the fast kernel in configuration @p config. float4 loads are used
/// for A only when inner % 4 == 0 and A is 16-byte aligned, for B and C only when
/// cols % 4 == 0 and both are 16-byte aligned; otherwise the scalar path runs. An automatic
/// tile or split is chosen by choose_fast_config from the sizes and the device (see
/// chosen_fast_config). With more than one split the partial products go to a workspace
/// from the stream-ordered pool and a second kernel adds them in a fixed order: the same
/// inputs and configuration give bitwise the same C on every run. A tile with asynchronous
/// copies asked for by name runs on every GPU (before sm_80 its copies are synchronous).
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols (checked first: validate_shape, and the grid's limits)
/// @param stream stream to launch on (and to allocate and free the workspace in)
/// @param config tile and splits (a split count above the number of inner tiles runs one
/// split per tile)
void launch_fast(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 cudaStream_t stream, FastConfig config);

/// @brief C = A·B with the fast kernel: @p variant's tile (default: chosen) and the split
/// chosen for it.
/// @param a A, rows×inner, device
/// @param b B, inner×cols, device
/// @param c C, rows×cols, device (written)
/// @param sizes rows, inner, cols
/// @param stream stream to launch on (default stream when nullptr)
/// @param variant tile shape (default: automatic)
void launch_fast(const float* a, const float* b, float* c, const ProductSizes& sizes,
                 cudaStream_t stream = nullptr, FastVariant variant = FastVariant::automatic);

/// @brief The configuration launch_fast runs for @p sizes and @p config on the current
/// device: every automatic part resolved (needs a GPU; validates the sizes).
/// @param sizes rows, inner, cols
/// @param config what is fixed (default: nothing)
FastConfig chosen_fast_config(const ProductSizes& sizes, FastConfig config = {});

/// @brief The tiles the automatic choice takes from on the current device, with their
/// occupancy (cudaOccupancyMaxActiveBlocksPerMultiprocessor): every compiled tile, those with
/// asynchronous copies only where async_copies_available() is true.
const std::vector<TileFacts>& fast_tile_facts();

/// @brief Whether the asynchronous-copy tiles run with cp.async on the current device: its
/// compute capability is 8.0 or newer AND the code the driver loaded for it was compiled for
/// sm_80 or newer (cudaFuncGetAttributes: binaryVersion and ptxVersion). A build for compute_75
/// PTX only, compiled by the driver of an H100 at load time, says no.
bool async_copies_available();

}  // namespace course::step4
