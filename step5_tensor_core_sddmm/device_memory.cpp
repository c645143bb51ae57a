// Step 5, shared by DevicePattern and Plan (lesson "Files"): the stream-ordered memory pool.
// Read first: device_memory.hpp.
/// @file device_memory.cpp
/// @brief keep_pool_memory() and the allocation of PooledBytes.
#include "device_memory.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "step5_launchers.hpp"

#include <cstdint>
#include <mutex>

namespace step5 {

void keep_pool_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  });
}

PooledBytes::PooledBytes(std::size_t bytes, const std::string& what) : bytes_(bytes) {
  if (bytes == 0) {
    return;
  }
  keep_pool_memory();
  const cudaError_t status = cudaMallocAsync(&data_, bytes, nullptr);
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear the error so later calls work
    data_ = nullptr;
    throw course::DeviceMemoryError("cannot allocate " + course::format_bytes(bytes) + " for " +
                                    what + ": " + cudaGetErrorString(status));
  }
}

}  // namespace step5
