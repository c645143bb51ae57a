/// @file matrix.hpp
/// @brief RAII host and device buffers for row-major matrices with a leading dimension.
///
/// Element (row, col) of a matrix with leading dimension ld lives at index row * ld + col.
/// Device memory is owned by DeviceBuffer: it is freed when the buffer goes out of scope,
/// also when an exception unwinds the stack, so no course program leaks device memory.
#pragma once

#include "common/cuda_check.hpp"
#include "common/device.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace course {

/// @brief Throws std::invalid_argument unless 0 <= rows, 0 <= cols and cols <= ld.
/// @param rows number of rows
/// @param cols number of columns
/// @param ld leading dimension (elements between the starts of consecutive rows)
void check_matrix_shape(long long rows, long long cols, long long ld);

/// @brief A row-major matrix in host memory.
/// @tparam T element type
template <typename T>
class HostMatrix {
 public:
  /// @brief An empty 0×0 matrix.
  HostMatrix() = default;

  /// @brief A rows×cols matrix, value-initialised.
  /// @param rows number of rows (>= 0)
  /// @param cols number of columns (>= 0)
  /// @param ld leading dimension; 0 means cols
  HostMatrix(int rows, int cols, int ld = 0) : rows_(rows), cols_(cols), ld_(ld == 0 ? cols : ld) {
    check_matrix_shape(rows_, cols_, ld_);
    values_.assign(static_cast<std::size_t>(rows_) * static_cast<std::size_t>(ld_), T{});
  }

  /// @brief Number of rows.
  int rows() const { return rows_; }
  /// @brief Number of columns.
  int cols() const { return cols_; }
  /// @brief Leading dimension.
  int ld() const { return ld_; }
  /// @brief Number of stored elements (rows × ld).
  std::size_t size() const { return values_.size(); }

  /// @brief Element (row, col).
  /// @param row row index
  /// @param col column index
  T& operator()(int row, int col) { return values_[static_cast<std::size_t>(row) * ld_ + col]; }
  /// @brief Element (row, col), read-only.
  /// @param row row index
  /// @param col column index
  const T& operator()(int row, int col) const {
    return values_[static_cast<std::size_t>(row) * ld_ + col];
  }

  /// @brief Pointer to the first element.
  T* data() { return values_.data(); }
  /// @brief Pointer to the first element, read-only.
  const T* data() const { return values_.data(); }

 private:
  int rows_ = 0;
  int cols_ = 0;
  int ld_ = 0;
  std::vector<T> values_;
};

/// @brief Where a DeviceBuffer's memory comes from.
enum class DeviceMemorySource {
  /// cudaMalloc / cudaFree: synchronous; checked against the free memory first so that an
  /// impossible size fails with a message naming the sizes
  plain,
  /// cudaMallocAsync / cudaFreeAsync on the default stream, from the device's default
  /// stream-ordered pool, which keep_pool_memory() makes keep what is freed: a repeated
  /// preprocessing (step 5's plans, a training loop) reuses memory instead of calling
  /// cudaMalloc and cudaFree each time
  stream_pool
};

/// @brief Makes the device's default stream-ordered pool keep freed memory (release
/// threshold: unlimited), once per process. DeviceBuffer calls it before its first
/// allocation from the pool.
void keep_pool_memory();

/// @brief Owns `count` elements of device memory; move-only. The one owner of device memory
/// in the course: plain cudaMalloc by default, or the stream-ordered pool
/// (DeviceMemorySource::stream_pool).
/// @tparam T element type
template <typename T>
class DeviceBuffer {
 public:
  /// @brief An empty buffer (no allocation).
  DeviceBuffer() = default;

  /// @brief Allocates @p count elements; throws DeviceMemoryError when they do not fit.
  /// @param count number of elements
  /// @param what what the memory is for, named in an out-of-memory message
  /// @param source plain cudaMalloc or the stream-ordered pool
  explicit DeviceBuffer(std::size_t count, const std::string& what = "a device buffer",
                        DeviceMemorySource source = DeviceMemorySource::plain)
      : count_(count), source_(source) {
    if (count_ == 0) {
      return;
    }
    const std::size_t bytes = count_ * sizeof(T);
    if (source_ == DeviceMemorySource::plain) {
      require_device_memory(bytes, what);
      CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes));
      return;
    }
    keep_pool_memory();
    const cudaError_t status = cudaMallocAsync(reinterpret_cast<void**>(&data_), bytes, nullptr);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the error so later calls work
      data_ = nullptr;
      count_ = 0;
      throw DeviceMemoryError("cannot allocate " + format_bytes(bytes) + " for " + what +
                              " from the stream-ordered pool: " + cudaGetErrorString(status));
    }
  }

  ~DeviceBuffer() {
    if (data_ == nullptr) {
      return;
    }
    // No checks: destructors must not throw.
    if (source_ == DeviceMemorySource::plain) {
      cudaFree(data_);
    } else {
      cudaFreeAsync(data_, nullptr);  // stream-ordered: after the work queued before it
    }
  }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// @brief Takes over @p other's allocation.
  /// @param other buffer left empty
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        count_(std::exchange(other.count_, 0)),
        source_(other.source_) {}

  /// @brief Frees this buffer's memory and takes over @p other's.
  /// @param other buffer left empty
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      DeviceBuffer old(std::move(*this));
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      source_ = other.source_;
    }
    return *this;
  }

  /// @brief Device pointer to the first element (nullptr when empty).
  T* data() const { return data_; }
  /// @brief Number of elements.
  std::size_t size() const { return count_; }
  /// @brief Size in bytes.
  std::size_t bytes() const { return count_ * sizeof(T); }
  /// @brief Where the memory comes from.
  DeviceMemorySource source() const { return source_; }
  /// @brief The memory @p byte_offset bytes from the start, as @p U: one allocation that
  /// holds several arrays (step 5's S: rows, columns and values).
  /// @tparam U element type of the array there
  /// @param byte_offset offset in bytes (a multiple of alignof(U))
  /// @return device pointer
  template <typename U>
  U* at(std::size_t byte_offset) const {
    return reinterpret_cast<U*>(reinterpret_cast<unsigned char*>(data_) + byte_offset);
  }

  /// @brief Copies @p count elements from host memory into the start of the buffer.
  /// @param host source
  /// @param count number of elements (<= size())
  void upload(const T* host, std::size_t count) {
    check_count(count);
    if (count > 0) {
      CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
  }

  /// @brief Copies @p count elements from the start of the buffer into host memory.
  /// @param host destination
  /// @param count number of elements (<= size())
  void download(T* host, std::size_t count) const {
    check_count(count);
    if (count > 0) {
      CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
    }
  }

  /// @brief Uploads a whole host vector (the buffer must be at least as large).
  /// @param host source
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }

  /// @brief Downloads the whole buffer into a new host vector.
  std::vector<T> to_vector() const {
    std::vector<T> host(count_);
    download(host.data(), count_);
    return host;
  }

  /// @brief Sets every byte to 0xFF: NaN for float and half, -1 for integers.
  ///
  /// Used on outputs before a kernel runs, so an element the kernel forgets to write
  /// cannot pass for a correct one.
  void poison() {
    if (count_ > 0) {
      CUDA_CHECK(cudaMemset(data_, 0xFF, bytes()));
    }
  }

  /// @brief Sets every byte to zero.
  void zero() {
    if (count_ > 0) {
      CUDA_CHECK(cudaMemset(data_, 0, bytes()));
    }
  }

 private:
  void check_count(std::size_t count) const {
    if (count > count_) {
      throw std::out_of_range("copy of " + std::to_string(count) +
                              " elements does not fit a device buffer of " +
                              std::to_string(count_));
    }
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
  DeviceMemorySource source_ = DeviceMemorySource::plain;
};

/// @brief A row-major matrix in device memory, with the same shape rules as HostMatrix.
/// @tparam T element type
template <typename T>
class DeviceMatrix {
 public:
  /// @brief An empty matrix.
  DeviceMatrix() = default;

  /// @brief Allocates a rows×cols matrix (contents undefined until written).
  /// @param rows number of rows
  /// @param cols number of columns
  /// @param ld leading dimension; 0 means cols
  /// @param what what it is for, named in an out-of-memory message
  DeviceMatrix(int rows, int cols, int ld = 0, const std::string& what = "a device matrix")
      : rows_(rows), cols_(cols), ld_(ld == 0 ? cols : ld) {
    check_matrix_shape(rows_, cols_, ld_);
    buffer_ = DeviceBuffer<T>(static_cast<std::size_t>(rows_) * ld_, what);
  }

  /// @brief Allocates a matrix of @p host's shape and copies @p host into it.
  /// @param host source matrix
  explicit DeviceMatrix(const HostMatrix<T>& host)
      : DeviceMatrix(host.rows(), host.cols(), host.ld()) {
    buffer_.upload(host.data(), host.size());
  }

  /// @brief Number of rows.
  int rows() const { return rows_; }
  /// @brief Number of columns.
  int cols() const { return cols_; }
  /// @brief Leading dimension.
  int ld() const { return ld_; }
  /// @brief Device pointer to element (0, 0).
  T* data() const { return buffer_.data(); }
  /// @brief The underlying buffer.
  DeviceBuffer<T>& buffer() { return buffer_; }

  /// @brief Copies the matrix back into a new host matrix of the same shape.
  HostMatrix<T> to_host() const {
    HostMatrix<T> host(rows_, cols_, ld_);
    buffer_.download(host.data(), host.size());
    return host;
  }

  /// @brief Poisons every element (see DeviceBuffer::poison).
  void poison() { buffer_.poison(); }

 private:
  int rows_ = 0;
  int cols_ = 0;
  int ld_ = 0;
  DeviceBuffer<T> buffer_;
};

}  // namespace course
