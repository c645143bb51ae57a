/// @file shape_benchmark.cu
/// @brief step4_shape_bench: the fast kernel against cuBLAS SGEMM on many shapes, with the
/// configuration chosen for each (and, with --all-fast-variants, every tile and candidate split:
/// the sweep that calibrate_choice.py reads). Read going_further/fast_gemm_cost_model.cpp first.
///
/// Usage: `step4_shape_bench [--shapes FILE | --size N | --rows R --inner K --cols C]
/// [--repeats N] [--seed N] [--all-fast-variants] [--csv FILE] [--markdown FILE]`; the default
/// shapes are lab/shapes/public_shapes.txt.
#include "common/cli.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"
#include "step4_boundary_checks/lab/bench_agreement.hpp"
#include "step4_boundary_checks/lab/bench_options.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace course::step4 {
namespace {

/// cuBLAS times below this are dominated by launch overhead; going_further/README.md treats them
/// apart.
constexpr double kShortMs = 0.020;

/// The automatic choice before split-K (commit a7b98cc): 128×128×16 tiles, or 128×64×8 when
/// there are fewer 128×128 tiles than SMs; never a split.
FastConfig choice_before_split_k(const ProductSizes& sizes, int multiprocessors) {
  const long long big_tiles =
      static_cast<long long>(ceil_div(sizes.rows, 128)) * ceil_div(sizes.cols, 128);
  return {big_tiles < multiprocessors ? FastVariant::bm128_bn64_bk8 : FastVariant::bm128_bn128_bk16,
          1, 1};
}

/// The least time the product can take on this device: its FMAs at the fp32 peak, or its
/// compulsory bytes (A and B read once, C written once) at the memory bandwidth.
double speed_of_light_ms(const ProductSizes& sizes, const GpuDescription& device) {
  const double bytes = 4.0 * (static_cast<double>(sizes.rows) * sizes.inner +
                              static_cast<double>(sizes.inner) * sizes.cols +
                              static_cast<double>(sizes.rows) * sizes.cols);
  return 1e3 * std::max(sizes.flops() / peak_flops_per_second(device),
                        bytes / dram_peak_bytes_per_second(device));
}

/// One shape's measurements.
struct ShapeResult {
  ProductSizes sizes;
  double cublas_ms = 0.0;
  double ours_ms = 0.0;
  double before_ms = 0.0;
  double best_ms = 0.0;  // best configuration measured (--all-fast-variants), else 0
  FastConfig chosen;
  FastConfig best;
  bool ok = true;
};

/// The operands of one shape on the device, filled from the run's seed.
struct ShapeOperands {
  ShapeOperands(const ProductSizes& sizes, std::uint64_t seed)
      : a(static_cast<std::size_t>(sizes.rows) * sizes.inner, "A"),
        b(static_cast<std::size_t>(sizes.inner) * sizes.cols, "B"),
        c(static_cast<std::size_t>(sizes.rows) * sizes.cols, "C") {
    std::vector<float> host(std::max(a.size(), b.size()));
    course::fill_uniform(host.data(), a.size(), seed);
    a.upload(std::vector<float>(host.begin(), host.begin() + a.size()));
    course::fill_uniform(host.data(), b.size(), seed + 1);
    b.upload(std::vector<float>(host.begin(), host.begin() + b.size()));
  }
  course::DeviceBuffer<float> a;  ///< A, rows×inner
  course::DeviceBuffer<float> b;  ///< B, inner×cols
  course::DeviceBuffer<float> c;  ///< C, rows×cols
};

// Times @p config after checking its result against @p reference; returns the median ms, or
// a negative number when the result disagreed.
double checked_time(ShapeOperands& operands, const ProductSizes& sizes, const FastConfig& config,
                    const std::vector<float>& reference, int repeats) {
  auto run = [&] {
    launch_fast(operands.a.data(), operands.b.data(), operands.c.data(), sizes, nullptr, config);
  };
  operands.c.poison();
  run();
  if (!agree(operands.c.to_vector(), reference).ok) {
    std::cerr << "  " << sizes.text() << " " << fast_config_name(config) << ": WRONG RESULT\n";
    return -1.0;
  }
  return course::time_gpu(run, 2, repeats).median_ms;
}

// The fastest configuration measured over every tile and its candidate splits.
void measure_best(ShapeOperands& operands, ShapeResult& result, const std::vector<float>& reference,
                  int repeats) {
  result.best_ms = INFINITY;
  for (const TileFacts& tile : fast_tile_facts()) {
    for (int splits : candidate_splits(result.sizes, describe_current_gpu(), tile)) {
      const FastConfig config{tile.tile, splits};
      const double ms = checked_time(operands, result.sizes, config, reference, repeats);
      // One line per configuration on stderr: the data a recalibration of the model reads.
      std::cerr << "  measured " << result.sizes.text() << " | " << fast_config_name(config)
                << " | " << ms << " ms\n";
      result.ok = result.ok && ms > 0;
      if (ms > 0 && ms < result.best_ms) {
        result.best_ms = ms;
        result.best = config;
      }
    }
  }
}

ShapeResult measure_shape(const ProductSizes& sizes, const BenchOptions& options,
                          course::CublasSgemm& cublas) {
  ShapeOperands operands(sizes, options.seed);
  ShapeResult result;
  result.sizes = sizes;
  auto cublas_run = [&] {
    cublas.multiply(operands.a.data(), operands.b.data(), operands.c.data(), sizes.rows,
                    sizes.inner, sizes.cols);
  };
  operands.c.poison();
  cublas_run();
  const std::vector<float> reference = operands.c.to_vector();
  result.cublas_ms = course::time_gpu(cublas_run, 2, options.repeats).median_ms;
  result.chosen = chosen_fast_config(sizes);
  result.ours_ms = checked_time(operands, sizes, result.chosen, reference, options.repeats);
  const FastConfig before = choice_before_split_k(sizes, describe_current_gpu().sm_count);
  result.before_ms = checked_time(operands, sizes, before, reference, options.repeats);
  result.ok = result.ours_ms > 0 && result.before_ms > 0;
  if (options.all_fast_variants) {
    measure_best(operands, result, reference, options.repeats);
  }
  std::cerr << "  " << sizes.text() << ": cuBLAS " << result.cublas_ms << " ms, ours "
            << result.ours_ms << " ms (" << fast_config_name(result.chosen) << ")\n";
  return result;
}

std::string fraction(double cublas_ms, double ms) {
  return ms > 0 ? course::format_fixed(cublas_ms / ms, 3) : std::string("WRONG");
}

void add_row(course::ResultTable& table, const ShapeResult& result, const GpuDescription& device,
             bool with_best) {
  const double light = speed_of_light_ms(result.sizes, device);
  std::vector<std::string> row = {result.sizes.text(),
                                  course::format_fixed(result.cublas_ms, 4),
                                  course::format_fixed(result.ours_ms, 4),
                                  fraction(result.cublas_ms, result.ours_ms),
                                  fast_config_name(result.chosen),
                                  course::format_fixed(result.before_ms, 4),
                                  fraction(result.cublas_ms, result.before_ms),
                                  course::format_fixed(light, 4),
                                  course::format_fixed(result.ours_ms / light, 2)};
  if (with_best) {
    row.push_back(fraction(result.cublas_ms, result.best_ms));
    row.push_back(fast_config_name(result.best));
  }
  row.push_back(result.ok ? "ok" : "WRONG");
  table.add_row(row);
}

/// Minimum and geometric mean of cuBLAS/ours over @p results, with the worst sizes, for the
/// shapes on which cuBLAS takes at least (or, with @p short_ones, under) 20 µs.
std::string summary_line(const std::vector<ShapeResult>& results, bool before, bool short_ones) {
  double log_sum = 0.0;
  double worst = INFINITY;
  std::string worst_shape = "-";
  int count = 0;
  for (const ShapeResult& result : results) {
    const double ms = before ? result.before_ms : result.ours_ms;
    if ((result.cublas_ms < kShortMs) != short_ones || ms <= 0) {
      continue;
    }
    const double ratio = result.cublas_ms / ms;
    log_sum += std::log(ratio);
    ++count;
    if (ratio < worst) {
      worst = ratio;
      worst_shape = result.sizes.text();
    }
  }
  if (count == 0) {
    return "| " + std::string(before ? "before" : "ours") + " | 0 | - | - | - |";
  }
  return "| " + std::string(before ? "before split-K" : "ours") + " | " + std::to_string(count) +
         " | " + course::format_fixed(worst, 3) + " | " + worst_shape + " | " +
         course::format_fixed(std::exp(log_sum / count), 3) + " |";
}

std::string summary(const std::vector<ShapeResult>& results) {
  std::string text;
  for (bool short_ones : {false, true}) {
    text += std::string("\n### Shapes where cuBLAS takes ") +
            (short_ones ? "under 20 us" : "at least 20 us") +
            "\n\n| kernel | shapes | min fraction | shape of the min | geometric mean |\n"
            "|---|---:|---:|---|---:|\n";
    text += summary_line(results, false, short_ones) + "\n";
    text += summary_line(results, true, short_ones) + "\n";
  }
  return text;
}

/// Measures every shape of @p options; 1 when some configuration disagreed with cuBLAS.
int run_shape_benchmark(const BenchOptions& options) {
  course::require_cuda_device();
  const std::vector<ProductSizes>& shapes = options.shapes;
  const GpuDescription& device = describe_current_gpu();
  std::vector<std::string> headers = {"shape rows x inner x cols",
                                      "cuBLAS ms",
                                      "ours ms",
                                      "fraction",
                                      "configuration",
                                      "before ms",
                                      "before fraction",
                                      "light ms",
                                      "ours / light"};
  if (options.all_fast_variants) {
    headers.insert(headers.end(), {"best fraction", "best configuration"});
  }
  headers.push_back("check");
  course::ResultTable table(headers);
  course::CublasSgemm cublas;
  std::vector<ShapeResult> results;
  for (const ProductSizes& sizes : shapes) {
    results.push_back(measure_shape(sizes, options, cublas));
    add_row(table, results.back(), device, options.all_fast_variants);
  }
  const std::string notes =
      "\nfraction = cuBLAS time / ours (median of " + std::to_string(options.repeats) +
      " runs after 2 warm-up runs, each result checked against cuBLAS first; inputs from seed " +
      std::to_string(options.seed) + ", shapes: " + options.shapes_source +
      "). 'before' is the "
      "choice before split-K (128x128x16, or 128x64x8 below one tile per SM; no split, plain block "
      "order). "
      "light = the least time: 2IJK FLOP at the fp32 peak (" +
      course::format_fixed(peak_flops_per_second(device) / 1e12, 1) +
      " TFLOP/s) or the compulsory " + "bytes at the memory bandwidth (" +
      course::format_fixed(dram_peak_bytes_per_second(device) / 1e12, 2) +
      " TB/s), both from the device's reported clocks. cuBLAS: SGEMM, fp32, TF32 off.\n";
  const bool all_ok = std::all_of(results.begin(), results.end(),
                                  [](const ShapeResult& result) { return result.ok; });
  return publish_bench(
      options, course::benchmark_header() + "\n\n" + table.markdown() + notes + summary(results),
      table, all_ok);
}

}  // namespace
}  // namespace course::step4

/// @brief Entry point of the shape benchmark.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 when a result disagreed or on an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  const course::step4::BenchProgram program{
      "step4_shape_bench",
      "Step 4's shape benchmark: the fast kernel with the configuration chosen for each shape "
      "and the choice before split-K, against cuBLAS SGEMM (fp32, TF32 off), each result checked "
      "against cuBLAS's first; the table ends with the smallest and the geometric mean of the "
      "fractions. --all-fast-variants also times every tile and candidate split (the calibration "
      "sweep: one 'measured' line per configuration on stderr).",
      STEP4_LAB_SHAPES_DIR "/public_shapes.txt",
      true,
      true,
      false};
  return course::step4::run_bench_program(program, argc, argv, course::step4::run_shape_benchmark);
}
