// Step 5, shared by DevicePattern and Plan (lesson "Files"): where their device memory comes from.
// Read first: step5_launchers.hpp (keep_pool_memory is declared there).
/// @file device_memory.hpp
/// @brief PooledBytes: device memory from the default stream-ordered pool, so that a repeated
/// preprocessing (the benchmark's 21 timed plans, a training loop) reuses memory instead of
/// calling cudaMalloc and cudaFree. keep_pool_memory() (step5_launchers.hpp) makes the pool
/// keep what is freed.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace step5 {

/// @brief Device bytes from the default stream-ordered pool (cudaMallocAsync on the default
/// stream), freed back to the pool when destroyed: repeated plans allocate no new memory.
class PooledBytes {
 public:
  /// @brief Nothing allocated.
  PooledBytes() = default;
  /// @brief Allocates @p bytes; throws course::DeviceMemoryError naming @p what.
  /// @param bytes size
  /// @param what what the memory is for
  PooledBytes(std::size_t bytes, const std::string& what);
  /// @brief Frees the memory into the pool (stream-ordered).
  ~PooledBytes() {
    if (data_ != nullptr) {
      cudaFreeAsync(data_, nullptr);  // no check: destructors must not throw
    }
  }
  PooledBytes(const PooledBytes&) = delete;
  PooledBytes& operator=(const PooledBytes&) = delete;
  /// @brief Takes over @p other's memory.
  /// @param other the source, left empty
  PooledBytes(PooledBytes&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  /// @brief Swaps with @p other (its old memory is freed with it).
  /// @param other the source
  /// @return this
  PooledBytes& operator=(PooledBytes&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  /// @brief The memory at @p byte_offset, as @p T.
  /// @tparam T element type
  /// @param byte_offset offset in bytes
  /// @return device pointer
  template <typename T>
  T* at(std::size_t byte_offset) const {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(data_) + byte_offset);
  }
  /// @brief Bytes held.
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace step5
