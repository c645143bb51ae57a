/// @file device_pattern.hpp
/// @brief DevicePattern: S on the device in COO form, uploaded from COO or CSR, validated, and
/// counted by 64-row panel on the way (the statistics approach 4 of going_further/ decides
/// from).
///
/// Step 5, S on the device (the lesson): the sparse matrix S as every approach reads it.
/// Read first: step5_launchers.hpp (the interface), then pattern_upload_coo.cu.
///
/// Implemented in pattern_upload_coo.cu and pattern_upload_csr.cu (this folder); device memory
/// is course::DeviceBuffer from the stream-ordered pool (common/matrix.hpp).
#pragma once

#include "common/launch_math.hpp"
#include "common/sparse_matrix.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace course::step5 {

/// @brief Rows per panel: DevicePattern counts S's nonzeros and the columns they span for
/// every 64 rows, in the same pass that validates S. Approach 4 (going_further/) cuts S into
/// these panels (going_further/panel_classification.cuh says why 64).
constexpr int kPanelRows = 64;

/// @brief Panels of kPanelRows rows that cover @p rows, counted in 64 bits (rows may be
/// INT_MAX, where rows + 63 would overflow an int).
/// @param rows rows of S (>= 0)
/// @return ceil(rows / kPanelRows)
inline int panels_covering(int rows) {
  return static_cast<int>(course::ceil_div<std::int64_t>(rows, kPanelRows));
}

/// @brief What DevicePattern's CSR constructor uploads as S's values.
enum class PatternValues {
  upload,   ///< the matrix's values vector is uploaded
  all_ones  ///< S is a pattern matrix: the values vector is ignored and the GPU writes ones
};

/// @brief The columns that the nonzeros of one 64-row panel of S span.
struct PanelSpan {
  int first_col = -1;  ///< smallest column of the panel's nonzeros (-1: no nonzero)
  int last_col = -1;   ///< largest column of the panel's nonzeros (-1: no nonzero)
};

struct PatternArrays;  // pattern_storage.hpp: where S's arrays lie on the device

/// @brief The sparse matrix S on the device in COO form, sorted row-major (owns its memory).
class DevicePattern {
 public:
  /// @brief Uploads the three arrays of @p matrix into one stream-ordered device allocation,
  /// validates them (indices in range, sorted by row then column) and counts the nonzeros of
  /// each 64-row panel and the columns they span: on the host for a few thousand entries, on
  /// the GPU beyond (one kernel
  /// and one read-back). The upload is part of every approach's preprocessing time; it runs
  /// at full bus speed when the caller has pinned the vectors (cudaHostRegister).
  /// Throws std::invalid_argument naming the first bad entry.
  /// @param matrix the sampling matrix S
  explicit DevicePattern(const course::CooMatrix& matrix);
  /// @brief Uploads S from CSR: the row offsets and columns (and the values, unless @p values
  /// says they are all one), 4 bytes per nonzero plus 4 per row instead of COO's 12 per
  /// nonzero; one kernel rebuilds the row of each nonzero, writes the ones, validates S and
  /// finds the panel spans (csr_pattern_kernel), and the host counts the panels from the
  /// offsets. The result is the same device pattern as from COO.
  /// The values are copied on a second stream while the check and a plan run; values()
  /// orders the default stream after that copy. From pageable memory (a plain std::vector)
  /// the copy has read @p matrix when the constructor returns; from page-locked memory
  /// (cudaHostRegister) it may still be reading it, so keep @p matrix alive and unchanged
  /// until the device synchronises (a Plan's constructor and sddmm() do).
  /// Throws std::invalid_argument naming a bad row offset or the first bad entry.
  /// @param matrix the sampling matrix S (columns sorted within each row)
  /// @param values whether to upload the values or write ones
  explicit DevicePattern(const course::CsrMatrix& matrix,
                         PatternValues values = PatternValues::upload);
  ~DevicePattern();
  DevicePattern(const DevicePattern&) = delete;
  DevicePattern& operator=(const DevicePattern&) = delete;

  /// @brief Rows of S.
  int rows() const { return rows_; }
  /// @brief Columns of S.
  int cols() const { return cols_; }
  /// @brief Number of stored entries.
  std::int64_t nnz() const { return nnz_; }
  /// @brief Largest density (nonzeros / (rows · cols)) of any 64-row panel.
  double max_panel_density() const { return max_panel_density_; }
  /// @brief Nonzeros of each 64-row panel (host copy), from which approach 4 classifies.
  const std::vector<std::int64_t>& panel_nnz() const { return panel_nnz_; }
  /// @brief Columns spanned by each 64-row panel's nonzeros (host copy).
  const std::vector<PanelSpan>& panel_spans() const { return panel_spans_; }
  /// @brief Device array of the entries' rows.
  const int* row_indices() const;
  /// @brief Device array of the entries' columns.
  const int* col_indices() const;
  /// @brief Whether every value of S is known to be one: a pattern matrix uploaded from CSR
  /// with PatternValues::all_ones. Approach 4 then reads no values (S∘(A·B) is A·B at S's
  /// entries), as cuSPARSE's SDDMM, which samples at S's pattern, reads none either.
  bool unit_values() const { return unit_values_; }
  /// @brief Device array of the entries' values. The first call after a CSR upload makes
  /// the default stream wait for the values' copy, so that work queued next on it (an SDDMM)
  /// reads them complete; call it right before queuing such work. Work on another stream is
  /// ordered only through the default stream (a blocking stream) or by waiting for the
  /// device after this first call (SddmmPlan::run says when).
  const float* values() const;

 private:
  struct Buffers;
  /// Checks and uploads a COO matrix (both constructors end here for small S).
  void upload_coo(const course::CooMatrix& matrix);
  /// Small S: checks every entry (range, order) and counts the panels on the host.
  void check_and_count_on_host(const course::CooMatrix& matrix);
  /// Large S: uploads it to @p device, checks and counts on the GPU, reads the verdict back.
  void check_and_count_on_device(const course::CooMatrix& matrix, const PatternArrays& device);
  /// Uploads a CSR matrix with valid sizes and checks it on the GPU (csr_pattern_kernel).
  void upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones);
  /// Sets max_panel_density_ from panel_nnz_.
  void compute_max_panel_density();
  /// Sets panel_spans_ from the two ints per panel that widen_panel_span wrote.
  void decode_panel_spans(const int* span_words);
  int rows_ = 0;
  int cols_ = 0;
  std::int64_t nnz_ = 0;
  double max_panel_density_ = 0.0;
  bool unit_values_ = false;
  std::vector<std::int64_t> panel_nnz_;
  std::vector<PanelSpan> panel_spans_;
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace course::step5
