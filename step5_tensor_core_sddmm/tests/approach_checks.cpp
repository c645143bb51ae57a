/// @file approach_checks.cpp
/// @brief check_approach, the approaches under test, check_all, check_csr_upload and the
/// matrices of approach_checks.hpp.
#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/testing/stream_capture.hpp"
#include "common/sampled_reference.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"
#include "step5_tensor_core_sddmm/tests/approach_checks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace course::step5::testing {
namespace {

/// The approaches registered with ExtraApproach.
std::vector<course::step5::ApproachEntry>& extra_approaches() {
  static std::vector<course::step5::ApproachEntry> extras;
  return extras;
}

/// The uploads registered with ExtraUpload.
std::vector<CsrUpload>& extra_uploads() {
  static std::vector<CsrUpload> extras;
  return extras;
}

/// Fresh random A (rows×inner) and Bᵀ (cols×inner) with leading dimension ld, on the host and the
/// device.
struct RandomOperands {
  RandomOperands(int rows, int cols, int inner, int ld, std::uint64_t seed)
      : a(course::random_half_matrix(rows, inner, ld, seed)),
        bt(course::random_half_matrix(cols, inner, ld, seed + 1)),
        device_a(a),
        device_bt(bt),
        operands(course::ProductSizes{rows, inner, cols}, device_a.data(), ld, device_bt.data(),
                 ld) {}
  course::HostMatrix<__half> a;
  course::HostMatrix<__half> bt;
  course::DeviceMatrix<__half> device_a;
  course::DeviceMatrix<__half> device_bt;
  course::step5::DenseOperands operands;
};

}  // namespace

ExtraApproach::ExtraApproach(course::step5::ApproachEntry entry) {
  extra_approaches().push_back(std::move(entry));
}

ExtraUpload::ExtraUpload(CsrUpload upload) {
  extra_uploads().push_back(std::move(upload));
}

std::vector<CsrUpload> uploads_under_test() {
  std::vector<CsrUpload> uploads = {[](const course::CsrMatrix& csr, course::PatternValues values) {
    return std::make_unique<course::step5::DevicePattern>(csr, values);
  }};
  uploads.insert(uploads.end(), extra_uploads().begin(), extra_uploads().end());
  return uploads;
}

std::vector<course::step5::ApproachEntry> approaches_under_test() {
  std::vector<course::step5::ApproachEntry> entries = course::step5::lesson_approaches();
  entries.insert(entries.end(), extra_approaches().begin(), extra_approaches().end());
  return entries;
}

void check_approach(course::step5::Approach approach, const course::CooMatrix& s, int inner, int ld,
                    std::uint64_t seed, const course::step5::Options& options) {
  check_approach(course::step5::lesson_approaches(options).at(static_cast<int>(approach) - 1), s,
                 inner, ld, seed);
}

void check_approach(const course::step5::ApproachEntry& approach, const course::CooMatrix& s,
                    int inner, int ld, std::uint64_t seed, RunOn run_on) {
  INFO("approach " << approach.name << ", rows=" << s.rows << " cols=" << s.cols
                   << " inner=" << inner << " ld=" << ld << " nnz=" << s.nnz() << " seed " << seed
                   << (run_on == RunOn::captured_stream ? ", on a captured stream" : ""));
  const RandomOperands inputs(s.rows, s.cols, inner, ld, seed);
  const course::step5::DevicePattern pattern(s);
  course::DeviceBuffer<float> output(s.nnz() + 1, "C");
  output.poison();
  const std::unique_ptr<course::step5::SddmmPlan> plan = approach.make_plan(pattern, inner);
  if (run_on == RunOn::captured_stream) {
    REQUIRE_NOTHROW(course::testing::run_captured(
        [&](cudaStream_t stream) { plan->run(inputs.operands, output.data(), stream); }));
  } else {
    plan->run(inputs.operands, output.data());
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<float> got = output.to_vector();
  const std::uint32_t guard = *reinterpret_cast<const std::uint32_t*>(&got.back());
  CHECK(guard == 0xFFFFFFFFu);  // nothing written past the last nonzero
  got.pop_back();
  const auto reference = course::sddmm_reference(inputs.a, inputs.bt, s);
  const auto result = course::compare_sampled(
      got, reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
}

void check_all(const course::CooMatrix& s, int inner, int ld) {
  const std::uint64_t seed = course::fresh_seed();
  for (const course::step5::ApproachEntry& approach : approaches_under_test()) {
    check_approach(approach, s, inner, ld == 0 ? inner : ld, seed);
  }
}

course::CooMatrix with_random_values(course::CooMatrix s, std::uint64_t seed) {
  course::fill_uniform(s.values.data(), s.values.size(), seed, -2.0f, 2.0f);
  return s;
}

/// S made of @p top's rows followed by @p bottom's (same columns), @p bottom's values set to
/// @p bottom_value.
course::CooMatrix stack_rows(const course::CooMatrix& top, const course::CooMatrix& bottom,
                             float bottom_value) {
  course::CooMatrix s = top;
  s.rows = top.rows + bottom.rows;
  for (std::size_t entry = 0; entry < bottom.nnz(); ++entry) {
    s.row_indices.push_back(bottom.row_indices[entry] + top.rows);
    s.col_indices.push_back(bottom.col_indices[entry]);
    s.values.push_back(bottom_value);
  }
  return s;
}

void check_csr_upload(const course::CooMatrix& s, course::PatternValues values, int inner,
                      std::uint64_t seed) {
  INFO("CSR upload, rows=" << s.rows << " cols=" << s.cols << " inner=" << inner << " nnz="
                           << s.nnz() << " ones=" << (values == course::PatternValues::all_ones)
                           << " seed " << seed);
  course::CsrMatrix csr = course::coo_to_csr(s);
  if (values == course::PatternValues::all_ones) {
    // The constructor must ignore these values and write ones.
    std::fill(csr.values.begin(), csr.values.end(), -7.0f);
  }
  const std::vector<CsrUpload> uploads = uploads_under_test();
  const RandomOperands inputs(s.rows, s.cols, inner, inner, seed);
  const auto reference = course::sddmm_reference(inputs.a, inputs.bt, s);
  std::vector<course::step5::ApproachEntry> approaches = {course::step5::lesson_approaches()[0]};
  approaches.insert(approaches.end(), extra_approaches().begin(), extra_approaches().end());
  for (std::size_t upload = 0; upload < uploads.size(); ++upload) {
    INFO("upload " << upload << " (0: the lesson's DevicePattern)");
    const std::unique_ptr<course::step5::DevicePattern> pattern = uploads[upload](csr, values);
    REQUIRE(pattern->nnz() == static_cast<std::int64_t>(s.nnz()));
    // Approach 4 (going_further/) skips the values exactly when they are known to be ones.
    CHECK(pattern->unit_values() == (values == course::PatternValues::all_ones));
    for (const course::step5::ApproachEntry& approach : approaches) {
      INFO("approach " << approach.name);
      course::DeviceBuffer<float> output(s.nnz(), "C");
      output.poison();
      const std::unique_ptr<course::step5::SddmmPlan> plan = approach.make_plan(*pattern, inner);
      plan->run(inputs.operands, output.data());
      CUDA_CHECK(cudaDeviceSynchronize());
      const auto result =
          course::compare_sampled(output.to_vector(), reference, s,
                                  course::Tolerance::tensor_core_fp32_accumulation(inner));
      INFO(result.summary());
      CHECK(result.ok());
    }
  }
}

course::CooMatrix band_matrix(int rows, int cols, int offset, bool outlier) {
  course::CooMatrix s;
  s.rows = rows;
  s.cols = cols;
  for (int row = 0; row < rows; ++row) {
    const int first = std::max(0, offset + row - 20);
    const int last = std::min(cols - 1, offset + row + 20);
    for (int col = first; col <= last; ++col) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(col);
      s.values.push_back(1.0f);
    }
    if (outlier && row == 70 && last < cols - 1) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(cols - 1);
      s.values.push_back(1.0f);
    }
  }
  return s;
}

}  // namespace course::step5::testing
