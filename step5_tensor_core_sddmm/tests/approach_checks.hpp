/// @file approach_checks.hpp
/// @brief Runs approaches against the CPU reference on fresh random inputs with the output
/// poisoned, and builds the sampling matrices several test files use.
#pragma once

#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace course::step5::testing {

/// How check_approach runs the plan.
enum class RunOn {
  default_stream,  ///< plan.run(operands, output), then the device is waited for
  captured_stream  ///< on a stream captured into a graph: fails if any work leaves the stream
};

/// Runs @p approach on S with fresh random A, Bᵀ (leading dimension ld >= inner) and compares
/// with the CPU reference; the output is poisoned first.
void check_approach(const course::step5::ApproachEntry& approach, const course::CooMatrix& s,
                    int inner, int ld, std::uint64_t seed, RunOn run_on = RunOn::default_stream);

/// check_approach for one of the lesson's approaches with @p options.
void check_approach(course::step5::Approach approach, const course::CooMatrix& s, int inner, int ld,
                    std::uint64_t seed, const course::step5::Options& options = {});

/// Adds an approach beyond the lesson's to those that check_all and check_csr_upload run: the
/// test program's going_further tests register approach 4 this way, at start-up (as Catch2
/// registers its test cases), so that these checks never name it.
struct ExtraApproach {
  /// Registers @p entry.
  explicit ExtraApproach(course::step5::ApproachEntry entry);
};

/// An upload of S from CSR, as check_csr_upload runs it.
using CsrUpload = std::function<std::unique_ptr<course::step5::DevicePattern>(
    const course::CsrMatrix& csr, course::PatternValues values)>;

/// Adds an upload beyond the lesson's DevicePattern to those that check_csr_upload runs: the
/// going_further tests register approach 4's (PanelPattern) this way, at start-up.
struct ExtraUpload {
  /// Registers @p upload.
  explicit ExtraUpload(CsrUpload upload);
};

/// The lesson's DevicePattern(csr, values) followed by the uploads registered with ExtraUpload.
std::vector<CsrUpload> uploads_under_test();

/// The lesson's approaches 1 to 3 followed by those registered with ExtraApproach.
std::vector<course::step5::ApproachEntry> approaches_under_test();

/// Runs every approach under test on S (leading dimension @p ld, 0: inner) with one fresh
/// seed.
void check_all(const course::CooMatrix& s, int inner, int ld = 0);

/// @p s with values uniform in [-2, 2) from @p seed.
course::CooMatrix with_random_values(course::CooMatrix s, std::uint64_t seed);

/// S made of @p top's rows followed by @p bottom's (same columns), @p bottom's values set to
/// @p bottom_value.
course::CooMatrix stack_rows(const course::CooMatrix& top, const course::CooMatrix& bottom,
                             float bottom_value);

/// Uploads @p s from CSR (values uploaded, or written as ones for a pattern) by the lesson's
/// DevicePattern and by each ExtraUpload, and checks approach 1 and the registered ones
/// (ExtraApproach) on each device pattern against the CPU reference.
void check_csr_upload(const course::CooMatrix& s, course::PatternValues values, int inner,
                      std::uint64_t seed);

/// A band around the line col = offset + row, 41 columns wide (clipped at cols), plus one far
/// entry in row 70 when @p outlier is set.
course::CooMatrix band_matrix(int rows, int cols, int offset, bool outlier);

}  // namespace course::step5::testing
