/// @file bench_experiments.cu
/// @brief The note's experiments that need special settings: block shape of approach 2, COO
/// version 1 against version 2, lanes per nonzero, runs of nonzeros per block and Tensor Core
/// density of approach 4. Each setting is checked against approach 1.
///
/// Step 5, the notebook's experiments (lesson Parts 1 and 2): `sddmm_bench --experiments`.
/// Read first: bench.hpp, and the lesson's experiments that quote these tables.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/sparse_generators.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>

namespace course::step5::bench {
namespace {

/// The lesson's @p approach with @p options, as the experiments time it.
course::step5::ApproachEntry lesson_entry(course::step5::Approach approach,
                                          const course::step5::Options& options) {
  return course::step5::lesson_approaches(options).at(static_cast<int>(approach) - 1);
}

/// One experiment's row: which experiment, on which matrix, with which setting.
struct Trial {
  std::string experiment;  ///< the experiment's name
  std::string matrix;      ///< the matrix's name
  std::string setting;     ///< the setting tried
};

/// Times @p approach on @p sampling at @p inner (fixed random A and Bᵀ) and adds its row to
/// @p table, checked against approach 1; an error becomes the row's check.
void time_setting(course::ResultTable& table, int repeats, const Trial& trial,
                  const course::CooMatrix& sampling, const course::step5::ApproachEntry& approach,
                  int inner) {
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(sampling.rows) * inner, "A");
  course::DeviceBuffer<__half> bt(static_cast<std::size_t>(sampling.cols) * inner, "Bt");
  course::step5::fill_random_half(a.data(), sampling.rows, inner, inner, 11);
  course::step5::fill_random_half(bt.data(), sampling.cols, inner, inner, 12);
  const course::step5::DenseOperands operands(
      course::ProductSizes{sampling.rows, inner, sampling.cols}, a.data(), inner, bt.data(), inner);
  // Uploaded as the programs upload S for approach 4 (its plan then finds S's panel figures).
  const course::step5::PanelPattern pattern(course::coo_to_csr(sampling));
  course::DeviceBuffer<float> output(sampling.nnz(), "C");
  course::DeviceBuffer<float> check_output(sampling.nnz(), "P check");
  try {
    const auto started = std::chrono::steady_clock::now();
    const std::unique_ptr<course::step5::SddmmPlan> plan = approach.make_plan(pattern, inner);
    const double other_ms = seconds_since(started) * 1e3;
    const course::TimingStats kernel =
        course::time_gpu([&] { plan->run(operands, output.data()); }, 1, repeats);
    course::step5::sddmm(course::step5::Approach::warp_per_nonzero, pattern, operands,
                         check_output.data());
    const std::vector<float> got = output.to_vector();
    const std::vector<float> want = check_output.to_vector();
    double worst = 0.0;
    for (std::size_t index = 0; index < got.size(); ++index) {
      worst = std::max(worst, static_cast<double>(std::fabs(got[index] - want[index])));
    }
    table.add_row({trial.experiment, trial.matrix, trial.setting,
                   course::format_fixed(kernel.median_ms, 3), course::format_fixed(other_ms, 3),
                   worst < 1e-2 ? "ok" : "wrong answer (vs approach 1)"});
  } catch (const std::exception& error) {
    table.add_row({trial.experiment, trial.matrix, trial.setting, "-", "-", error.what()});
  }
}

/// The lesson's experiments: approach 2's block shape, approach 3's COO versions.
void lesson_experiments(course::ResultTable& table, const Settings& base) {
  const course::CooMatrix wide = course::random_uniform_mask(37000, 37000, 368000, 5);
  for (const auto& [x, y, label] : std::vector<std::tuple<int, int, std::string>>{
           {1, 32, "block 32x32 (1x32 warps)"}, {4, 4, "block 128x4 (4x4 warps)"}}) {
    course::step5::Options options = base.options;
    options.dense_warps_x = x;
    options.dense_warps_y = y;
    time_setting(table, base.repeats,
                 {"approach 2 block shape", "matrix_37000_37000_368000", label}, wide,
                 lesson_entry(course::step5::Approach::dense_wmma, options), 256);
  }
  const course::CooMatrix small = course::random_uniform_mask(4000, 4000, 88000, 6);
  for (const bool ranges : {false, true}) {
    course::step5::Options options = base.options;
    options.tile_ranges = ranges;
    time_setting(table, base.repeats,
                 {"approach 3 COO v1 vs v2", "matrix_4000_4000_88000",
                  ranges ? "v2: tile range per warp" : "v1: every warp scans all nnz"},
                 small, lesson_entry(course::step5::Approach::tile_grouped, options), 256);
  }
}

/// Approach 4's lanes per nonzero on three uniform masks.
void lane_experiments(course::ResultTable& table, const Settings& base) {
  for (const auto& [rows, cols, nnz] : std::vector<std::tuple<int, int, std::size_t>>{
           {3000, 7000, 313110}, {106000, 106000, 3000000}, {36000, 36000, 4000000}}) {
    const course::CooMatrix sampling = course::random_uniform_mask(rows, cols, nnz, 7);
    for (const int lanes : {4, 8, 16, 32}) {
      course::step5::HybridOptions options = base.hybrid;
      options.group_lanes = lanes;
      time_setting(table, base.repeats,
                   {"approach 4 lanes per nonzero", course::uniform_mask_name(rows, cols, nnz),
                    std::to_string(lanes) + " lanes"},
                   sampling, course::step5::hybrid_approach(options), 256);
    }
  }
}

/// Approach 4's runs of nonzeros per lane-group block on a band and two uniform masks.
void run_experiments_per_block(course::ResultTable& table, const Settings& base) {
  // A band of half-width 30 around the diagonal (like bcsstk16: 4884 rows, about 60
  // nonzeros per row): neighbouring rows share columns, so runs of nonzeros per block can
  // find rows of Bᵀ in L1.
  course::CooMatrix banded;
  banded.rows = 4884;
  banded.cols = 4884;
  for (int row = 0; row < banded.rows; ++row) {
    for (int col = std::max(0, row - 30); col <= std::min(banded.cols - 1, row + 30); ++col) {
      banded.row_indices.push_back(row);
      banded.col_indices.push_back(col);
      banded.values.push_back(1.0f);
    }
  }
  std::vector<std::pair<std::string, course::CooMatrix>> matrices;
  matrices.emplace_back("band_4884_61", banded);
  matrices.emplace_back(course::uniform_mask_name(3000, 7000, 313110),
                        course::random_uniform_mask(3000, 7000, 313110, 9));
  matrices.emplace_back(course::uniform_mask_name(36000, 36000, 4000000),
                        course::random_uniform_mask(36000, 36000, 4000000, 10));
  for (const auto& [name, sampling] : matrices) {
    for (const int iterations : {1, 2, 4, 8, 0}) {
      course::step5::HybridOptions options = base.hybrid;
      options.lane_iterations = iterations;
      time_setting(table, base.repeats,
                   {"approach 4 runs of nonzeros per block", name,
                    iterations == 0 ? std::string("automatic (default)")
                                    : std::to_string(iterations) + " runs"},
                   sampling, course::step5::hybrid_approach(options), 256);
    }
  }
}

/// Approach 4's Tensor Core density threshold on four uniform masks.
void density_experiments(course::ResultTable& table, const Settings& base) {
  for (const auto& [rows, cols, nnz] : std::vector<std::tuple<int, int, std::size_t>>{
           {2048, 1024, 1048576}, {2048, 512, 104857}, {512, 512, 26214}, {8000, 8000, 640000}}) {
    const course::CooMatrix sampling = course::random_uniform_mask(rows, cols, nnz, 8);
    for (const double density : {1.0, 0.25, 0.1, 0.05, 0.02}) {
      course::step5::HybridOptions options = base.hybrid;
      options.tc_density = density;
      options.tc_min_nnz = 0;  // the density alone decides here
      std::ostringstream setting;
      setting << "Tensor Cores from density " << density << (density >= 1.0 ? " (never)" : "");
      time_setting(table, base.repeats,
                   {"approach 4 Tensor Core density (tc_min_nnz 0)",
                    course::uniform_mask_name(rows, cols, nnz), setting.str()},
                   sampling, course::step5::hybrid_approach(options), 256);
    }
  }
}

}  // namespace

void run_experiments(cusparseHandle_t handle, const Settings& base, std::ostream& out) {
  (void)handle;
  course::ResultTable table({"experiment", "matrix", "setting", "sddmm ms", "other ms", "check"});
  lesson_experiments(table, base);
  lane_experiments(table, base);
  run_experiments_per_block(table, base);
  density_experiments(table, base);
  out << "\n## Experiments\n\n" << table.markdown();
}

}  // namespace course::step5::bench
