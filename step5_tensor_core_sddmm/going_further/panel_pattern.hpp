/// @file panel_pattern.hpp
/// @brief PanelPattern: S uploaded as approach 4 wants it, from CSR at the bus's speed, checked
/// on the GPU and counted by 64-row panel in the same pass; and upload_with_panels, approach 4's
/// upload (its ApproachEntry::upload) in every program and the benchmark.
///
/// Step 5, approach 4 (going further, "Preprocessing: S on the device"): the fast upload of S.
/// Read first: ../device_pattern/device_pattern.hpp (what it uploads), panel_statistics.hpp.
///
/// Implemented in panel_pattern_upload.cu, its kernel in csr_pattern_upload.cuh, its page-locked
/// scratch and side stream in upload_resources.hpp.
#pragma once

#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "common/host_sampling.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <memory>

namespace course::step5 {

/// @brief S on the device, as DevicePattern holds it, with its panel statistics.
class PanelPattern : public DevicePattern {
 public:
  /// @brief Uploads S from CSR: the row offsets and columns (and the values, unless @p values
  /// says they are all one), 4 bytes per entry plus 4 per row instead of COO's 12 per entry;
  /// one kernel rebuilds the row of each entry, writes the ones, checks S and finds the panel
  /// spans (csr_pattern_kernel), and the host counts the panels from the offsets. A small S
  /// (a few thousand entries) is checked and counted on the host instead.
  /// The values are copied on a second stream while the check and a plan run; values()
  /// orders the default stream after that copy. From pageable memory (a plain std::vector)
  /// the copy has read @p matrix when the constructor returns; from page-locked memory
  /// (cudaHostRegister) it may still be reading it, so keep @p matrix alive and unchanged
  /// until the device synchronises (a plan's constructor and sddmm() do).
  /// Throws std::invalid_argument naming a bad row offset or the first bad entry.
  /// @param matrix the sampling matrix S (columns sorted within each row)
  /// @param values whether to upload the values or write ones
  explicit PanelPattern(const course::CsrMatrix& matrix,
                        PatternValues values = PatternValues::upload);
  /// @brief Entries and column span of each 64-row panel (host copies).
  const PanelStatistics& panels() const { return panels_; }

 private:
  /// Uploads a CSR matrix with valid sizes and checks it on the GPU (csr_pattern_kernel).
  void upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones);
  PanelStatistics panels_;
};

/// @brief S on the device as step5_going_further and the benchmark upload it, for every
/// approach: PanelPattern(sampling.csr(), sampling.values()).
/// @param sampling S on the host
/// @return the pattern
std::unique_ptr<DevicePattern> upload_with_panels(const HostSampling& sampling);

}  // namespace course::step5
