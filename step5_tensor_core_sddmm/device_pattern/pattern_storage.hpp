/// @file pattern_storage.hpp
/// @brief DevicePattern's device storage, shared by its uploads (pattern_upload.cu) and
/// approach 4's (going_further/panel_pattern_upload.cu).
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/launch_config.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace course::step5 {

/// @brief Entries up to which DevicePattern packs S's three arrays into one copy: on a small S
/// each copy costs a few microseconds of its own, more than its bytes.
constexpr std::int64_t kPackedUploadLimit = 4096;

/// @brief Where S's three arrays lie on the device, as Buffers::allocate lays them out.
struct PatternArrays {
  int* rows = nullptr;      ///< row of each entry
  int* cols = nullptr;      ///< column of each entry
  float* values = nullptr;  ///< value of each entry
};

/// @brief Device storage of S: rows, columns and values in one allocation.
struct DevicePattern::Buffers {
  /// rows, columns and values of S in one allocation from the stream-ordered pool
  course::DeviceBuffer<unsigned char> storage;
  std::size_t cols_offset = 0;    ///< byte offset of the column indices in storage
  std::size_t values_offset = 0;  ///< byte offset of the values in storage
  /// Recorded on the side stream after the values' copy (approach 4's upload); null when none.
  cudaEvent_t values_copied = nullptr;
  /// Whether the default stream is already ordered after values_copied.
  bool values_ordered = true;

  /// Lays out rows, columns and values of @p nnz entries (each array aligned), allocates
  /// them in storage and returns where each lies: the one allocation of S, for every upload.
  PatternArrays allocate(std::size_t nnz) {
    const std::size_t index_bytes = align_bytes(nnz * sizeof(int));
    cols_offset = index_bytes;
    values_offset = 2 * index_bytes;
    storage = course::DeviceBuffer<unsigned char>(3 * index_bytes, "S (rows, columns, values)",
                                                  course::DeviceMemorySource::stream_pool);
    return {storage.at<int>(0), storage.at<int>(cols_offset), storage.at<float>(values_offset)};
  }

  Buffers() = default;
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  /// Orders the default stream after the values' copy before storage goes back to the pool
  /// (the members are destroyed after this body). No checks: destructors must not throw.
  ~Buffers() {
    if (values_copied != nullptr) {
      if (!values_ordered) {
        cudaStreamWaitEvent(nullptr, values_copied, 0);
      }
      cudaEventDestroy(values_copied);
    }
  }
};

}  // namespace course::step5
