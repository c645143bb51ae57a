/// @file benchmark.cu
/// @brief The step's benchmark: every approach next to cuBLAS SGEMM, each result checked.
#include "common/cublas_gemm.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/bench_agreement.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/step4_program.hpp"

#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <stdexcept>

namespace course::step4 {
namespace {

struct Entry {
  std::string name;
  std::function<void()> run;
  std::size_t extra_bytes = 0;
};

std::string mib(std::size_t bytes) {
  return course::format_fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 1);
}

void add_row(course::ResultTable& table, const ProductSizes& sizes, const std::string& name,
             const course::TimingStats& timing, double cublas_ms, std::size_t extra_bytes,
             const Agreement& agreement) {
  const double tflops = sizes.flops() / (timing.median_ms * 1e9);
  table.add_row(
      {sizes.text(), name, course::format_fixed(timing.median_ms, 3),
       agreement.ok ? course::format_fixed(tflops, 2) : std::string("-"),
       agreement.ok ? course::format_fixed(cublas_ms / timing.median_ms, 3) : std::string("-"),
       mib(extra_bytes), course::format_fixed(agreement.worst * 1e6, 3),
       agreement.ok ? std::string("ok") : std::string("WRONG")});
}

// Measures every entry on one shape; returns false when some result disagreed.
bool bench_shape(const ProductSizes& sizes, const BenchOptions& options,
                 course::CublasSgemm& cublas, course::ResultTable& table) {
  const std::uint64_t seed = course::fresh_seed();
  const std::size_t a_count = static_cast<std::size_t>(sizes.rows) * sizes.inner;
  const std::size_t b_count = static_cast<std::size_t>(sizes.inner) * sizes.cols;
  const std::size_t c_count = static_cast<std::size_t>(sizes.rows) * sizes.cols;
  std::vector<float> a_host(a_count);
  std::vector<float> b_host(b_count);
  course::fill_uniform(a_host.data(), a_count, seed);
  course::fill_uniform(b_host.data(), b_count, seed + 1);
  course::DeviceBuffer<float> a_device(a_count, "A");
  course::DeviceBuffer<float> b_device(b_count, "B");
  course::DeviceBuffer<float> c_device(c_count, "C");
  a_device.upload(a_host);
  b_device.upload(b_host);

  const int warmup = 2;
  const int rows = sizes.rows;
  const int inner = sizes.inner;
  const int cols = sizes.cols;
  const float* a = a_device.data();
  const float* b = b_device.data();
  float* c = c_device.data();

  auto cublas_run = [&] { cublas.multiply(a, b, c, rows, inner, cols); };
  c_device.poison();
  cublas_run();
  const std::vector<float> reference = c_device.to_vector();
  const course::TimingStats cublas_timing = course::time_gpu(cublas_run, warmup, options.repeats);
  table.add_row({sizes.text(), "cuBLAS SGEMM (fp32)",
                 course::format_fixed(cublas_timing.median_ms, 3),
                 course::format_fixed(sizes.flops() / (cublas_timing.median_ms * 1e9), 2), "1.000",
                 "0.0", "0.000", "reference"});

  PaddedWorkspace workspace;
  std::vector<Entry> entries = {
      {approach_name(Approach::tiled_checked), [&] { launch_tiled_checked(a, b, c, sizes); }, 0},
      {approach_name(Approach::padded), [&] { launch_padded(a, b, c, sizes, nullptr, workspace); },
       PaddedWorkspace::padded_bytes(sizes)},
      {approach_name(Approach::rect_tiles), [&] { launch_rect_tiles(a, b, c, sizes); }, 0},
      {approach_name(Approach::fast) + " auto", [&] { launch_fast(a, b, c, sizes); }, 0},
  };
  if (options.all_fast_variants) {
    for (FastVariant variant :
         {FastVariant::bm128_bn128_bk8, FastVariant::bm128_bn128_bk16, FastVariant::bm128_bn64_bk8,
          FastVariant::bm64_bn128_bk8, FastVariant::bm64_bn64_bk8, FastVariant::bm32_bn128_bk8,
          FastVariant::bm128_bn128_bk16_async, FastVariant::bm64_bn128_bk16_async}) {
      for (int group_rows : {1, 8}) {
        const FastConfig config{variant, 1, group_rows};
        entries.push_back({"fast " + fast_config_name(config),
                           [&, config] { launch_fast(a, b, c, sizes, nullptr, config); }, 0});
      }
    }
  }
  bool all_ok = true;
  for (const Entry& entry : entries) {
    c_device.poison();
    entry.run();  // the first run also allocates the padded workspace
    const Agreement agreement = agree(c_device.to_vector(), reference);
    const course::TimingStats timing = course::time_gpu(entry.run, warmup, options.repeats);
    add_row(table, sizes, entry.name, timing, cublas_timing.median_ms, entry.extra_bytes,
            agreement);
    all_ok = all_ok && agreement.ok;
    std::cerr << "  " << sizes.text() << " " << entry.name << ": " << timing.median_ms << " ms"
              << (agreement.ok ? "" : "  WRONG RESULT") << "\n";
  }
  return all_ok;
}

}  // namespace

std::vector<ProductSizes> default_bench_shapes() {
  return {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {4095, 1023, 4097},
          {3000, 256, 7000},  {1000, 1000, 1},    {1000, 1, 1000}};
}

int run_benchmark(const BenchOptions& options) {
  course::require_cuda_device();
  const std::vector<ProductSizes> shapes =
      options.shapes.empty() ? default_bench_shapes() : options.shapes;
  course::ResultTable table({"shape rows x inner x cols", "approach", "median ms", "TFLOP/s",
                             "fraction of cuBLAS", "extra MiB", "max rel err (1e-6)", "check"});
  course::CublasSgemm cublas;
  bool all_ok = true;
  for (const ProductSizes& sizes : shapes) {
    all_ok = bench_shape(sizes, options, cublas, table) && all_ok;
  }
  const std::string header = course::benchmark_header();
  const std::string notes =
      "Median of " + std::to_string(options.repeats) +
      " runs after 2 warm-up runs; fp32 inputs uniform in [-1,1). Each result is checked "
      "against cuBLAS: max |C - C_cublas| / (|C_cublas| + rms(C_cublas)) must stay below " +
      course::format_fixed(kAgreementTolerance * 1e6, 0) +
      "e-6, or the row says WRONG and shows no speed. The padded approach's time includes "
      "its copies in and out; 'extra MiB' is the device memory its padded copies take.\n";
  std::cout << header << "\n\n" << table.markdown() << "\n" << notes;
  if (!options.markdown_path.empty()) {
    std::ofstream file(options.markdown_path);
    file << header << "\n\n" << table.markdown() << "\n" << notes;
    if (!file) {
      throw std::runtime_error("cannot write '" + options.markdown_path + "'");
    }
  }
  if (!options.csv_path.empty()) {
    table.write_csv(options.csv_path);
  }
  if (!all_ok) {
    std::cout << "wrong answer: some kernel disagreed with cuBLAS (rows marked WRONG)\n";
    return 1;
  }
  return 0;
}

}  // namespace course::step4
