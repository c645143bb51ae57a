/// @file device_pattern.hpp
/// @brief DevicePattern: S on the device in COO form, checked on the host and uploaded from
/// COO or CSR.
///
/// Implemented in pattern_upload.cu (this folder); device memory is course::DeviceBuffer from
/// the stream-ordered pool (common/matrix.hpp). Approach 4 (going_further/panel_pattern.hpp)
/// uploads S its own way, measuring it on the way, into the same class.
#pragma once

#include "common/host_sampling.hpp"
#include "common/sparse_matrix.hpp"

#include <cstdint>
#include <functional>
#include <memory>

namespace course::step5 {

struct PatternArrays;  // pattern_storage.hpp: where S's arrays lie on the device

/// @brief The sparse matrix S on the device in COO form, sorted row-major (owns its memory).
class DevicePattern {
 public:
  /// @brief Checks every entry of @p matrix on the host (indices in range, sorted by row then
  /// column) and uploads its three arrays into one stream-ordered device allocation. The
  /// upload is part of every approach's preprocessing time.
  /// Throws std::invalid_argument naming the first bad entry.
  /// @param matrix the sampling matrix S
  explicit DevicePattern(const course::CooMatrix& matrix);
  /// @brief Checks the row offsets and columns of @p matrix on the host, expands the offsets
  /// to a row per entry and uploads S (ones for the values when @p values says so): the same
  /// device pattern as from COO. From page-locked memory (HostSampling pins its CSR) the
  /// copies of the columns and values may still be reading @p matrix when the constructor
  /// returns: keep it alive and unchanged until the device synchronises (a plan's
  /// constructor does).
  /// Throws std::invalid_argument naming a bad row offset or the first bad entry.
  /// @param matrix the sampling matrix S (columns sorted within each row)
  /// @param values whether to upload the values or write ones
  explicit DevicePattern(const course::CsrMatrix& matrix,
                         PatternValues values = PatternValues::upload);
  virtual ~DevicePattern();
  DevicePattern(const DevicePattern&) = delete;
  DevicePattern& operator=(const DevicePattern&) = delete;

  /// @brief Rows of S.
  int rows() const { return rows_; }
  /// @brief Columns of S.
  int cols() const { return cols_; }
  /// @brief Number of stored entries.
  std::int64_t nnz() const { return nnz_; }
  /// @brief Device array of the entries' rows.
  const int* row_indices() const;
  /// @brief Device array of the entries' columns.
  const int* col_indices() const;
  /// @brief Whether every value of S is known to be one: a pattern matrix uploaded from CSR
  /// with PatternValues::all_ones (the lesson's upload then writes the ones, approach 4's on
  /// the GPU). Approach 4 then reads no values (S∘(A·B) is A·B at S's
  /// entries), as cuSPARSE's SDDMM, which samples at S's pattern, reads none either.
  bool unit_values() const { return unit_values_; }
  /// @brief Device array of the entries' values. When an upload copied them on a stream of
  /// its own (approach 4's, going_further/panel_pattern.hpp), the first call makes the default
  /// stream wait for that copy, so that work queued next on it (an SDDMM) reads them complete;
  /// call it right before queuing such work. Before running on a stream created with
  /// cudaStreamNonBlocking, or under graph capture, call it once and wait for the device
  /// (cudaDeviceSynchronize); S uploaded by the lesson's DevicePattern needs nothing.
  const float* values() const;

 protected:
  struct Buffers;
  /// For an upload of its own (going_further/panel_pattern.hpp): S of @p rows × @p cols with
  /// no entry yet; it fills buffers() and sets nnz_ and unit_values_.
  DevicePattern(int rows, int cols);
  /// Throws when @p matrix has a negative size, not rows + 1 offsets, more than INT_MAX
  /// entries, or (unless @p values is all_ones) not one value per entry.
  static void check_csr_sizes(const course::CsrMatrix& matrix, PatternValues values);
  /// Uploads the CSR @p matrix of valid sizes: its offsets and columns checked, a row per
  /// entry built on the host, the columns and values copied as they are.
  void upload_csr_on_host(const course::CsrMatrix& matrix, PatternValues values);
  /// Checks and uploads a COO matrix (the COO constructor).
  void upload_coo(const course::CooMatrix& matrix);
  /// Allocates S's storage and copies the three arrays of @p nnz entries into it, on the
  /// default stream (one packed copy for a small S).
  void copy_arrays(const int* rows, const int* cols, const float* values, std::size_t nnz);
  /// S's device storage (pattern_storage.hpp).
  Buffers& buffers() const { return *buffers_; }
  std::int64_t nnz_ = 0;      ///< entries of S
  bool unit_values_ = false;  ///< see unit_values()

 private:
  int rows_ = 0;
  int cols_ = 0;
  std::unique_ptr<Buffers> buffers_;
};

/// @brief How an approach puts S on the device from its HostSampling, timed in "other"
/// (ApproachEntry::upload): upload_pattern (the lesson's, approaches 1 to 3), or
/// going_further's upload_with_panels (approach 4), which also measures what its plan decides
/// from. Keep the HostSampling alive until the device has
/// synchronised (a plan's constructor does): the values may still be copying.
using PatternUpload = std::function<std::unique_ptr<DevicePattern>(const HostSampling&)>;

/// @brief The lesson's upload: DevicePattern(sampling.csr(), sampling.values()).
/// @param sampling S on the host
/// @return the pattern
std::unique_ptr<DevicePattern> upload_pattern(const HostSampling& sampling);

}  // namespace course::step5
