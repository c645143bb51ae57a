/// @file test_approaches.cpp
/// @brief GPU tests: every approach against the CPU reference SDDMM on awkward shapes.
#include <catch2/catch.hpp>

#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "sddmm_reference.hpp"
#include "step5_launchers.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

const step5::Approach kAllApproaches[] = {step5::Approach::warp_per_nonzero,
                                          step5::Approach::dense_wmma,
                                          step5::Approach::tile_grouped, step5::Approach::hybrid};

/// Runs @p approach on S with fresh random A, Bᵀ (leading dimension ld >= K) and compares
/// with the CPU reference; the output is poisoned first.
void check_approach(step5::Approach approach, const course::CooMatrix& s, int inner, int ld,
                    std::uint64_t seed, const step5::Options& options = {}) {
  INFO("approach " << step5::approach_name(approach) << ", M=" << s.rows << " N=" << s.cols
                   << " K=" << inner << " ld=" << ld << " nnz=" << s.nnz() << " seed " << seed);
  const auto a = step5::random_half_matrix(s.rows, inner, ld, seed);
  const auto bt = step5::random_half_matrix(s.cols, inner, ld, seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_bt(bt);
  const step5::DenseOperands operands{s.rows, s.cols,           inner, device_a.data(),
                                      ld,     device_bt.data(), ld};
  const step5::DevicePattern pattern(s);
  course::DeviceBuffer<float> output(s.nnz() + 1, "P");
  output.poison();
  step5::sddmm(approach, pattern, operands, output.data(), options);
  std::vector<float> got = output.to_vector();
  const std::uint32_t guard = *reinterpret_cast<const std::uint32_t*>(&got.back());
  CHECK(guard == 0xFFFFFFFFu);  // nothing written past the last nonzero
  got.pop_back();
  const auto reference = step5::sddmm_reference(a, bt, s);
  const auto result = step5::compare_sampled(
      got, reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
  INFO(result.summary());
  CHECK(result.ok());
}

void check_all(const course::CooMatrix& s, int inner, int ld = 0) {
  const std::uint64_t seed = course::fresh_seed();
  for (const step5::Approach approach : kAllApproaches) {
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

}  // namespace

TEST_CASE("all approaches with M N K not multiples of 16", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_all(with_random_values(course::random_uniform_mask(37, 53, 300, seed), seed), 45);
  check_all(course::random_uniform_mask(17, 18, 100, seed + 2), 7);
}

TEST_CASE("all approaches with padded leading dimensions and a K tail", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  const course::CooMatrix s = course::random_uniform_mask(40, 70, 500, seed);
  check_all(s, 45, 48);  // vector loads over 40 columns, scalar tail of 5
  check_all(s, 256, 264);
}

TEST_CASE("all approaches on a rectangular matrix", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  check_all(course::random_uniform_mask(100, 300, 3000, seed), 64);
  check_all(course::random_uniform_mask(300, 20, 1000, seed + 1), 32);
}

TEST_CASE("all approaches with empty rows and columns", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 50;
  s.cols = 45;
  for (int row = 3; row < s.rows; row += 7) {
    for (int col = 1; col < s.cols / 2; col += 3) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(col);
      s.values.push_back(1.0f);
    }
  }
  check_all(s, 40);
}

TEST_CASE("all approaches with nnz of zero", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 20;
  s.cols = 30;
  check_all(s, 16);
}

TEST_CASE("all approaches with one nonzero", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 33;
  s.cols = 65;
  s.row_indices = {32};
  s.col_indices = {64};
  s.values = {-3.0f};
  check_all(s, 24);
}

TEST_CASE("all approaches with every nonzero in one full tile", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 64;
  s.cols = 64;
  for (int row = 16; row < 32; ++row) {
    for (int col = 32; col < 48; ++col) {
      s.row_indices.push_back(row);
      s.col_indices.push_back(col);
      s.values.push_back(1.0f);
    }
  }
  check_all(with_random_values(s, course::fresh_seed()), 48);
}

TEST_CASE("approach 4 mixes Tensor Core panels and CUDA-core rows", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  // Rows 0..31 dense (50 %), the rest very sparse: both kernels of approach 4 run.
  const course::CooMatrix s = stack_rows(course::random_uniform_mask(32, 200, 3200, seed),
                                         course::random_uniform_mask(70, 200, 60, seed + 1), 2.0f);
  for (const int lanes : {4, 8, 16, 32}) {
    step5::Options options;
    options.group_lanes = lanes;
    options.tc_min_nnz = 0;  // Tensor Cores even for this small S
    check_approach(step5::Approach::hybrid, s, 72, 72, seed, options);
    check_approach(step5::Approach::hybrid, s, 37, 37, seed, options);
  }
  step5::Options never;
  never.tc_density = 1.0;
  check_approach(step5::Approach::hybrid, s, 72, 72, seed, never);
}

TEST_CASE("approach 3 version 1 scanning all nonzeros gives the same result", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  step5::Options options;
  options.tile_ranges = false;
  check_approach(step5::Approach::tile_grouped, course::random_uniform_mask(90, 70, 400, seed), 32,
                 32, seed, options);
}

TEST_CASE("approach 2 block shapes give the same result", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  const course::CooMatrix s = course::random_uniform_mask(100, 130, 900, seed);
  for (const auto& shape : {std::pair<int, int>{1, 32}, {4, 4}, {2, 8}, {8, 2}, {4, 1}}) {
    step5::Options options;
    options.dense_warps_x = shape.first;
    options.dense_warps_y = shape.second;
    check_approach(step5::Approach::dense_wmma, s, 40, 40, seed, options);
  }
}

TEST_CASE("all approaches on a real matrix written and read as Matrix Market", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("step5_fixture_" + std::to_string(seed));
  std::filesystem::create_directories(directory);
  const std::string path = (directory / "fixture.mtx").string();
  {
    // A small symmetric "real" matrix by hand: a banded 30x30 with values, lower triangle.
    std::ofstream file(path);
    file << "%%MatrixMarket matrix coordinate real symmetric\n% step 5 test fixture\n";
    int entries = 0;
    std::ostringstream lines;
    for (int row = 1; row <= 30; ++row) {
      for (int col = std::max(1, row - 2); col <= row; ++col) {
        lines << row << " " << col << " " << (row * 0.5 - col * 0.25) << "\n";
        ++entries;
      }
    }
    file << "30 30 " << entries << "\n" << lines.str();
  }
  const course::CooMatrix s = course::read_matrix_market(path);
  std::filesystem::remove_all(directory);
  REQUIRE(s.nnz() == 30 + 2 * 29 + 2 * 28);
  check_all(s, 33);
}

TEST_CASE("approach 2 refuses a dense product that is too large", "[step5][gpu]") {
  course::CooMatrix s;
  s.rows = 1 << 20;
  s.cols = 1 << 20;
  s.row_indices = {5};
  s.col_indices = {7};
  s.values = {1.0f};
  const step5::DevicePattern pattern(s);
  step5::Options options;
  CHECK_THROWS_WITH(step5::Plan(step5::Approach::dense_wmma, pattern, 16, options),
                    Catch::Contains("dense product") && Catch::Contains("TiB"));
  options.dense_limit_elements = std::size_t{1} << 42;
  CHECK_THROWS_AS(step5::Plan(step5::Approach::dense_wmma, pattern, 16, options),
                  course::DeviceMemoryError);
  // Approaches 3 and 4 allocate nothing of size M×N and run.
  check_approach(step5::Approach::tile_grouped, s, 16, 16, course::fresh_seed());
  check_approach(step5::Approach::hybrid, s, 16, 16, course::fresh_seed());
}

TEST_CASE("plan run refuses operands of another shape", "[step5][gpu]") {
  const course::CooMatrix s = course::random_uniform_mask(20, 20, 10, course::fresh_seed());
  const step5::DevicePattern pattern(s);
  const step5::Plan plan(step5::Approach::hybrid, pattern, 16);
  course::DeviceBuffer<__half> a(21 * 16);
  course::DeviceBuffer<float> output(10);
  const step5::DenseOperands wrong{21, 20, 16, a.data(), 16, a.data(), 16};
  CHECK_THROWS_WITH(plan.run(wrong, output.data()), Catch::Contains("S is 20x20"));
  step5::Options bad;
  bad.tc_density = 0.0;
  CHECK_THROWS_AS(step5::Plan(step5::Approach::hybrid, pattern, 16, bad), std::invalid_argument);
  bad = {};
  bad.lane_iterations = -1;
  CHECK_THROWS_WITH(step5::Plan(step5::Approach::hybrid, pattern, 16, bad),
                    Catch::Contains("lane_iterations"));
  bad = {};
  bad.group_lanes = 3;
  const step5::Plan odd(step5::Approach::hybrid, pattern, 16, bad);
  const step5::DenseOperands right{20, 20, 16, a.data(), 16, a.data(), 16};
  CHECK_THROWS_WITH(odd.run(right, output.data()), Catch::Contains("4, 8, 16 or 32"));
}

TEST_CASE("approach 4 all-dense Tensor Core panels with K of 1 7 100 and 256", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 130 x 150 at 30 %: every 64-row panel (the last one has 2 rows) goes to dense_panel_kernel
  // and the lane-group kernel is not launched at all.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(130, 150, 5850, seed), seed);
  step5::Options tensor_cores;
  tensor_cores.tc_min_nnz = 0;  // Tensor Cores even for this small S
  for (const int inner : {1, 7, 100, 256}) {
    // ld = K: vector loads when K % 8 == 0; ld = K + 3: scalar loads.
    check_approach(step5::Approach::hybrid, s, inner, inner, seed, tensor_cores);
    check_approach(step5::Approach::hybrid, s, inner, inner + 3, seed, tensor_cores);
  }
  // A tiny matrix like karate (34 x 34, 156 nonzeros): one launch, either kernel.
  const course::CooMatrix tiny =
      with_random_values(course::random_uniform_mask(34, 34, 156, seed + 1), seed + 1);
  for (const int inner : {1, 7, 100, 256}) {
    check_approach(step5::Approach::hybrid, tiny, inner, inner, seed, tensor_cores);
    check_approach(step5::Approach::hybrid, tiny, inner, inner, seed);  // default: lane groups
  }
}

TEST_CASE("approach 4 sparse rows checked on the GPU with K of 1 7 100 and 256", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 6000 nonzeros: more than the host-check limit, so S is validated and counted on the GPU;
  // every panel is far below the Tensor Core density: lane groups only.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(3000, 2000, 6000, seed), seed);
  for (const int inner : {1, 7, 100, 256}) {
    check_approach(step5::Approach::hybrid, s, inner, inner, seed);
    check_approach(step5::Approach::hybrid, s, inner, inner + 3, seed);
  }
}

TEST_CASE("approach 4 mixes dense panels and sparse rows checked on the GPU", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Rows 0..127 at 20 % (two dense panels), rows 128..299 very sparse, 10 000+ nonzeros.
  course::CooMatrix s = stack_rows(course::random_uniform_mask(128, 400, 10240, seed),
                                   course::random_uniform_mask(172, 400, 300, seed + 1), 1.0f);
  s = with_random_values(s, seed);
  step5::Options options;
  options.tc_min_nnz = 0;  // Tensor Cores even for this small S
  const step5::DevicePattern pattern(s);
  const step5::Plan plan(step5::Approach::hybrid, pattern, 100, options);
  CHECK(plan.tensor_core_units() == 2);
  const step5::Plan default_plan(step5::Approach::hybrid, pattern, 100);
  CHECK(default_plan.tensor_core_units() == 0);  // below the default tc_min_nnz
  for (const int inner : {1, 7, 100, 256}) {
    check_approach(step5::Approach::hybrid, s, inner, inner, seed, options);
  }
}

TEST_CASE("a large S that is unsorted or out of range is refused by the GPU check",
          "[step5][gpu]") {
  course::CooMatrix s = course::random_uniform_mask(500, 500, 8000, course::fresh_seed());
  REQUIRE(s.nnz() > 4096);
  {
    const step5::DevicePattern valid(s);
    CHECK(valid.nnz() == 8000);
  }
  course::CooMatrix unsorted = s;
  std::swap(unsorted.row_indices[5000], unsorted.row_indices[6000]);
  std::swap(unsorted.col_indices[5000], unsorted.col_indices[6000]);
  CHECK_THROWS_WITH(step5::DevicePattern(unsorted), Catch::Contains("sorted"));
  course::CooMatrix out_of_range = s;
  out_of_range.col_indices[7000] = 500;
  CHECK_THROWS_WITH(step5::DevicePattern(out_of_range), Catch::Contains("out of range"));
}

TEST_CASE("approach 4 lane groups with several runs of nonzeros per block", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 5000 nonzeros: with 64 groups per block the last block's runs are partly past the end.
  const course::CooMatrix s =
      with_random_values(course::random_uniform_mask(700, 900, 5000, seed), seed);
  for (const int iterations : {1, 3, 8}) {
    for (const int lanes : {4, 32}) {
      step5::Options options;
      options.lane_iterations = iterations;
      options.group_lanes = lanes;
      check_approach(step5::Approach::hybrid, s, 100, 100, seed, options);
      check_approach(step5::Approach::hybrid, s, 7, 7, seed, options);
    }
  }
}

namespace {

/// Uploads @p s from CSR (values uploaded, or written as ones by the GPU for a pattern) and
/// checks approaches 1 and 4 on that device pattern against the CPU reference.
void check_csr_upload(const course::CooMatrix& s, step5::PatternValues values, int inner,
                      std::uint64_t seed) {
  INFO("CSR upload, M=" << s.rows << " N=" << s.cols << " K=" << inner << " nnz=" << s.nnz()
                        << " ones=" << (values == step5::PatternValues::all_ones) << " seed "
                        << seed);
  course::CsrMatrix csr = course::coo_to_csr(s);
  if (values == step5::PatternValues::all_ones) {
    // The constructor must ignore these values and write ones.
    std::fill(csr.values.begin(), csr.values.end(), -7.0f);
  }
  const step5::DevicePattern pattern(csr, values);
  REQUIRE(pattern.nnz() == static_cast<std::int64_t>(s.nnz()));
  // Approach 4 skips the values exactly when they are known to be ones.
  CHECK(pattern.unit_values() == (values == step5::PatternValues::all_ones));
  const auto a = step5::random_half_matrix(s.rows, inner, inner, seed);
  const auto bt = step5::random_half_matrix(s.cols, inner, inner, seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_bt(bt);
  const step5::DenseOperands operands{s.rows, s.cols,           inner, device_a.data(),
                                      inner,  device_bt.data(), inner};
  const auto reference = step5::sddmm_reference(a, bt, s);
  for (const step5::Approach approach :
       {step5::Approach::warp_per_nonzero, step5::Approach::hybrid}) {
    INFO("approach " << step5::approach_name(approach));
    course::DeviceBuffer<float> output(s.nnz(), "P");
    output.poison();
    step5::Options options;
    options.tc_min_nnz = 0;  // dense panels go to Tensor Cores even in a small S
    step5::sddmm(approach, pattern, operands, output.data(), options);
    const auto result = step5::compare_sampled(
        output.to_vector(), reference, s, course::Tolerance::tensor_core_fp32_accumulation(inner));
    INFO(result.summary());
    CHECK(result.ok());
  }
}

}  // namespace

/// A band around the line col = offset + row, 41 columns wide (clipped at N), plus one far
/// entry in row 70 when @p outlier is set.
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

TEST_CASE("approach 4 Tensor Core panels over the band of a banded matrix", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  step5::Options options;
  options.tc_min_nnz = 0;  // Tensor Cores even for these small matrices
  // 300 rows: 5 panels, each spanning 3 column blocks from block 2 on (about 20 % dense
  // there, 0.5 % over all 2000 columns). Row 70's far entry spreads panel 1 over columns
  // 192..1999: 2.3 % dense, so its rows go to the lane groups.
  const course::CooMatrix banded = with_random_values(band_matrix(300, 2000, 200, true), seed);
  {
    const step5::DevicePattern pattern(banded);
    CHECK(step5::Plan(step5::Approach::hybrid, pattern, 64, options).tensor_core_units() == 4);
    const step5::DevicePattern from_csr(course::coo_to_csr(banded));
    CHECK(step5::Plan(step5::Approach::hybrid, from_csr, 64, options).tensor_core_units() == 4);
  }
  for (const int inner : {7, 100, 256}) {
    check_approach(step5::Approach::hybrid, banded, inner, inner, seed, options);
  }
  check_csr_upload(banded, step5::PatternValues::upload, 100, seed);
  // The same band as a pattern: both kernels of approach 4 then read no values.
  check_csr_upload(band_matrix(300, 2000, 200, true), step5::PatternValues::all_ones, 100, seed);
  // The band leaves through the last, partial column block (N = 500), and a small S whose
  // panels and spans are found on the host (90 rows, under 4096 nonzeros).
  check_approach(step5::Approach::hybrid,
                 with_random_values(band_matrix(300, 500, 200, true), seed), 100, 100, seed,
                 options);
  const course::CooMatrix small = band_matrix(90, 700, 300, false);
  REQUIRE(small.nnz() <= 4096);
  {
    const step5::DevicePattern pattern(small);
    CHECK(step5::Plan(step5::Approach::hybrid, pattern, 64, options).tensor_core_units() == 2);
  }
  check_approach(step5::Approach::hybrid, with_random_values(small, seed), 100, 100, seed, options);
}

TEST_CASE("a pattern uploaded from CSR gives the same results as from COO", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // Large (checked on the GPU, with empty rows) and small (checked on the host).
  for (const std::size_t nnz : {std::size_t{9000}, std::size_t{300}}) {
    const course::CooMatrix mask = course::random_uniform_mask(1000, 700, nnz, seed);
    check_csr_upload(mask, step5::PatternValues::all_ones, 100, seed);
    check_csr_upload(with_random_values(mask, seed), step5::PatternValues::upload, 100, seed);
  }
  // Dense 64-row panels: the Tensor Core part of approach 4 also reads the rebuilt rows.
  course::CooMatrix dense;
  dense.rows = 130;
  dense.cols = 96;
  for (int row = 0; row < dense.rows; ++row) {
    for (int col = 0; col < dense.cols; ++col) {
      dense.row_indices.push_back(row);
      dense.col_indices.push_back(col);
      dense.values.push_back(1.0f);
    }
  }
  check_csr_upload(with_random_values(dense, seed), step5::PatternValues::upload, 32, seed);
  check_csr_upload(dense, step5::PatternValues::all_ones, 32, seed);
}

namespace {

/// First entry at or after @p from whose successor lies in the same row of @p csr.
std::size_t first_pair_in_one_row(const course::CsrMatrix& csr, std::size_t from) {
  for (int row = 0; row < csr.rows; ++row) {
    const auto begin = std::max<std::size_t>(from, static_cast<std::size_t>(csr.row_offsets[row]));
    if (begin + 1 < static_cast<std::size_t>(csr.row_offsets[row + 1])) {
      return begin;
    }
  }
  throw std::logic_error("no row after entry " + std::to_string(from) + " holds two entries");
}

/// Nonzeros and column span of each 64-row panel of @p s, counted on the host entry by entry.
std::pair<std::vector<std::int64_t>, std::vector<step5::PanelSpan>> panels_of(
    const course::CooMatrix& s) {
  const auto panel_count = static_cast<std::size_t>((s.rows + 63) / 64);
  std::vector<std::int64_t> counts(panel_count, 0);
  std::vector<step5::PanelSpan> spans(panel_count);
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    const auto panel = static_cast<std::size_t>(s.row_indices[entry] / 64);
    const int col = s.col_indices[entry];
    ++counts[panel];
    step5::PanelSpan& span = spans[panel];
    span.first_col = span.first_col < 0 ? col : std::min(span.first_col, col);
    span.last_col = std::max(span.last_col, col);
  }
  return {counts, spans};
}

}  // namespace

TEST_CASE("every upload of S counts the same panels and spans", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  // 1000 rows: 16 panels, the last one partial, and 4 blocks of the CSR kernel, the last
  // one partial. Rows 130..330 are emptied, so whole panels and parts of panels hold nothing.
  course::CooMatrix s = course::random_uniform_mask(1000, 3000, 20000, seed);
  course::CooMatrix holes = s;
  holes.row_indices.clear();
  holes.col_indices.clear();
  holes.values.clear();
  for (std::size_t entry = 0; entry < s.nnz(); ++entry) {
    if (s.row_indices[entry] < 130 || s.row_indices[entry] > 330) {
      holes.row_indices.push_back(s.row_indices[entry]);
      holes.col_indices.push_back(s.col_indices[entry]);
      holes.values.push_back(s.values[entry]);
    }
  }
  const course::CooMatrix small = course::random_uniform_mask(200, 90, 1000, seed + 1);
  for (const course::CooMatrix* matrix : std::vector<const course::CooMatrix*>{&holes, &small}) {
    INFO("M=" << matrix->rows << " N=" << matrix->cols << " nnz=" << matrix->nnz());
    const auto expected = panels_of(*matrix);
    const step5::DevicePattern from_coo(*matrix);
    const step5::DevicePattern from_csr(course::coo_to_csr(*matrix));
    for (const step5::DevicePattern* pattern : {&from_coo, &from_csr}) {
      CHECK(pattern->panel_nnz() == expected.first);
      REQUIRE(pattern->panel_spans().size() == expected.second.size());
      for (std::size_t panel = 0; panel < expected.second.size(); ++panel) {
        INFO("panel " << panel << (pattern == &from_coo ? " from COO" : " from CSR"));
        CHECK(pattern->panel_spans()[panel].first_col == expected.second[panel].first_col);
        CHECK(pattern->panel_spans()[panel].last_col == expected.second[panel].last_col);
      }
    }
  }
}

TEST_CASE("a CSR pattern with bad offsets or columns is refused", "[step5][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("mask seed " << seed);
  for (const std::size_t nnz : {std::size_t{8000}, std::size_t{200}}) {  // GPU and host checks
    const course::CsrMatrix valid =
        course::coo_to_csr(course::random_uniform_mask(500, 500, nnz, seed));
    CHECK(step5::DevicePattern(valid, step5::PatternValues::all_ones).nnz() ==
          static_cast<std::int64_t>(nnz));
    course::CsrMatrix decreasing = valid;
    std::swap(decreasing.row_offsets[100], decreasing.row_offsets[300]);
    REQUIRE(decreasing.row_offsets[100] > decreasing.row_offsets[101]);
    CHECK_THROWS_WITH(step5::DevicePattern(decreasing), Catch::Contains("row offset"));
    course::CsrMatrix wrong_end = valid;
    wrong_end.row_offsets.back() -= 1;
    CHECK_THROWS_WITH(step5::DevicePattern(wrong_end), Catch::Contains("row offset"));
    course::CsrMatrix out_of_range = valid;
    out_of_range.col_indices[nnz / 2] = 500;
    out_of_range.col_indices[nnz / 2 + 3] = -1;  // a later bad entry: the first is named
    CHECK_THROWS_WITH(step5::DevicePattern(out_of_range),
                      Catch::Contains("S entry " + std::to_string(nnz / 2) + " (") &&
                          Catch::Contains("out of range"));
    course::CsrMatrix out_of_order = valid;
    const std::size_t swapped = first_pair_in_one_row(valid, nnz / 3);
    std::swap(out_of_order.col_indices[swapped], out_of_order.col_indices[swapped + 1]);
    CHECK_THROWS_WITH(step5::DevicePattern(out_of_order),
                      Catch::Contains("entry " + std::to_string(swapped + 1) + " comes before"));
    course::CsrMatrix too_few_offsets = valid;
    too_few_offsets.row_offsets.pop_back();
    CHECK_THROWS_WITH(step5::DevicePattern(too_few_offsets), Catch::Contains("rows + 1"));
  }
}
