/// @file tile_grouping.cu
/// @brief GPU grouping of the nonzeros by tile: keys, CUB radix sort, run-length encode, scan.
#include "step5_tensor_core_sddmm/tile_grouping.hpp"

#include "common/launch_math.hpp"
#include "common/cuda_check.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/wmma_tile_product.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace course::step5 {
namespace {

/// Key of each nonzero's tile and the identity permutation that the sort will carry.
__global__ void tile_keys_kernel(int nnz, const int* row_indices, const int* col_indices,
                                 int tile_cols, std::uint64_t* keys, int* indices) {
  const int nonzero = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (nonzero >= nnz) {
    return;  // threads past the last nonzero
  }
  const std::uint64_t tile_row = static_cast<std::uint64_t>(row_indices[nonzero] / kTile);
  keys[nonzero] = tile_row * static_cast<std::uint64_t>(tile_cols) + col_indices[nonzero] / kTile;
  indices[nonzero] = nonzero;
}

/// Copies rows, columns and values into tile order so the SDDMM kernel reads them coalesced.
__global__ void gather_kernel(int nnz, const int* permutation, const int* row_indices,
                              const int* col_indices, const float* values, int* sorted_rows,
                              int* sorted_cols, float* sorted_values) {
  const int position = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (position >= nnz) {
    return;  // threads past the last nonzero
  }
  const int source = permutation[position];
  sorted_rows[position] = row_indices[source];
  sorted_cols[position] = col_indices[source];
  sorted_values[position] = values[source];
}

int significant_bits(std::uint64_t largest) {
  int bits = 1;
  while (bits < 64 && (largest >> bits) != 0) {
    ++bits;
  }
  return bits;
}

}  // namespace

std::size_t TileGroups::bytes() const {
  return tile_keys.bytes() + tile_offsets.bytes() + permutation.bytes() + sorted_rows.bytes() +
         sorted_cols.bytes() + sorted_values.bytes();
}

TileGroups group_by_tile(const DevicePattern& pattern) {
  TileGroups groups;
  const int nnz = static_cast<int>(pattern.nnz());
  groups.tile_cols = static_cast<int>(course::ceil_div<std::int64_t>(pattern.cols(), kTile));
  const std::uint64_t tile_rows =
      course::ceil_div(static_cast<std::uint64_t>(pattern.rows()), std::uint64_t{kTile});
  groups.tile_offsets = course::DeviceBuffer<int>(1, "tile offsets");
  groups.tile_offsets.zero();
  if (nnz == 0) {
    return groups;
  }
  course::DeviceBuffer<std::uint64_t> keys(nnz, "tile keys");
  course::DeviceBuffer<std::uint64_t> sorted_keys(nnz, "sorted tile keys");
  course::DeviceBuffer<int> indices(nnz, "nonzero indices");
  groups.permutation = course::DeviceBuffer<int>(nnz, "tile permutation");
  tile_keys_kernel<<<blocks_for(nnz, kThreadsPerBlock), kThreadsPerBlock>>>(
      nnz, pattern.row_indices(), pattern.col_indices(), groups.tile_cols, keys.data(),
      indices.data());
  CUDA_CHECK_LAUNCH(tile_keys_kernel);

  // Only the bits a key can use are sorted: fewer radix passes for small matrices.
  const int end_bit =
      significant_bits(std::max<std::uint64_t>(tile_rows * groups.tile_cols, 2) - 1);
  course::DeviceBuffer<int> counts(nnz, "tile counts");
  course::DeviceBuffer<std::uint64_t> unique_keys(nnz, "unique tile keys");
  course::DeviceBuffer<int> run_count(1, "tile count");
  std::size_t sort_bytes = 0;
  std::size_t encode_bytes = 0;
  std::size_t scan_bytes = 0;
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys.data(), sorted_keys.data(),
                                             indices.data(), groups.permutation.data(), nnz, 0,
                                             end_bit));
  CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(nullptr, encode_bytes, sorted_keys.data(),
                                                unique_keys.data(), counts.data(), run_count.data(),
                                                nnz));
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, counts.data(), counts.data(), nnz));
  course::DeviceBuffer<unsigned char> temporary(
      std::max({sort_bytes, encode_bytes, scan_bytes, std::size_t{1}}), "CUB temporary storage");
  std::size_t bytes = temporary.size();
  CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temporary.data(), bytes, keys.data(),
                                             sorted_keys.data(), indices.data(),
                                             groups.permutation.data(), nnz, 0, end_bit));
  bytes = temporary.size();
  CUDA_CHECK(cub::DeviceRunLengthEncode::Encode(temporary.data(), bytes, sorted_keys.data(),
                                                unique_keys.data(), counts.data(), run_count.data(),
                                                nnz));
  int tile_count = 0;
  run_count.download(&tile_count, 1);  // the host needs it to size the launch
  groups.tile_count = tile_count;

  // tile_offsets = [0, inclusive sums of the run lengths]
  groups.tile_offsets =
      course::DeviceBuffer<int>(static_cast<std::size_t>(tile_count) + 1, "tile offsets");
  groups.tile_offsets.zero();
  bytes = temporary.size();
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(temporary.data(), bytes, counts.data(),
                                           groups.tile_offsets.data() + 1, tile_count));
  groups.tile_keys = course::DeviceBuffer<std::uint64_t>(tile_count, "tile keys");
  CUDA_CHECK(cudaMemcpy(groups.tile_keys.data(), unique_keys.data(),
                        sizeof(std::uint64_t) * tile_count, cudaMemcpyDeviceToDevice));

  groups.sorted_rows = course::DeviceBuffer<int>(nnz, "rows in tile order");
  groups.sorted_cols = course::DeviceBuffer<int>(nnz, "columns in tile order");
  groups.sorted_values = course::DeviceBuffer<float>(nnz, "values in tile order");
  gather_kernel<<<blocks_for(nnz, kThreadsPerBlock), kThreadsPerBlock>>>(
      nnz, groups.permutation.data(), pattern.row_indices(), pattern.col_indices(),
      pattern.values(), groups.sorted_rows.data(), groups.sorted_cols.data(),
      groups.sorted_values.data());
  CUDA_CHECK_LAUNCH(gather_kernel);
  CUDA_CHECK(cudaDeviceSynchronize());
  return groups;
}

}  // namespace course::step5
