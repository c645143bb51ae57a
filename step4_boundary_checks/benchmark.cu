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

namespace step4 {
namespace {

struct Entry {
  std::string name;
  std::function<void()> run;
  std::size_t extra_bytes = 0;
};

std::string mib(std::size_t bytes) {
  return course::format_fixed(static_cast<double>(bytes) / (1024.0 * 1024.0), 1);
}

void add_row(course::ResultTable& table, const ProblemShape& shape, const std::string& name,
             const course::TimingStats& timing, double cublas_ms, std::size_t extra_bytes,
             const Agreement& agreement) {
  const double tflops = shape.flops() / (timing.median_ms * 1e9);
  table.add_row(
      {shape.text(), name, course::format_fixed(timing.median_ms, 3),
       agreement.ok ? course::format_fixed(tflops, 2) : std::string("-"),
       agreement.ok ? course::format_fixed(cublas_ms / timing.median_ms, 3) : std::string("-"),
       mib(extra_bytes), course::format_fixed(agreement.worst * 1e6, 3),
       agreement.ok ? std::string("ok") : std::string("WRONG")});
}

// Measures every entry on one shape; returns false when some result disagreed.
bool bench_shape(const ProblemShape& shape, const BenchOptions& options,
                 course::CublasSgemm& cublas, course::ResultTable& table) {
  const std::uint64_t seed = course::fresh_seed();
  const std::size_t m_count = static_cast<std::size_t>(shape.rows) * shape.inner;
  const std::size_t n_count = static_cast<std::size_t>(shape.inner) * shape.cols;
  const std::size_t p_count = static_cast<std::size_t>(shape.rows) * shape.cols;
  std::vector<float> m_host(m_count);
  std::vector<float> n_host(n_count);
  course::fill_uniform(m_host.data(), m_count, seed);
  course::fill_uniform(n_host.data(), n_count, seed + 1);
  course::DeviceBuffer<float> m_device(m_count, "M");
  course::DeviceBuffer<float> n_device(n_count, "N");
  course::DeviceBuffer<float> p_device(p_count, "P");
  m_device.upload(m_host);
  n_device.upload(n_host);

  const int warmup = 2;
  const int rows = shape.rows;
  const int inner = shape.inner;
  const int cols = shape.cols;
  const float* m_matrix = m_device.data();
  const float* n_matrix = n_device.data();
  float* p_matrix = p_device.data();

  auto cublas_run = [&] { cublas.multiply(m_matrix, n_matrix, p_matrix, rows, inner, cols); };
  p_device.poison();
  cublas_run();
  const std::vector<float> reference = p_device.to_vector();
  const course::TimingStats cublas_timing = course::time_gpu(cublas_run, warmup, options.repeats);
  table.add_row({shape.text(), "cuBLAS SGEMM (fp32)",
                 course::format_fixed(cublas_timing.median_ms, 3),
                 course::format_fixed(shape.flops() / (cublas_timing.median_ms * 1e9), 2), "1.000",
                 "0.0", "0.000", "reference"});

  PaddedWorkspace workspace;
  std::vector<Entry> entries = {
      {approach_name(Approach::tiled_checked),
       [&] { matmul_tiled_checked(m_matrix, n_matrix, p_matrix, rows, inner, cols); }, 0},
      {approach_name(Approach::padded),
       [&] { matmul_padded(m_matrix, n_matrix, p_matrix, rows, inner, cols, workspace); },
       PaddedWorkspace::padded_bytes(shape)},
      {approach_name(Approach::rect_tiles),
       [&] { matmul_rect_tiles(m_matrix, n_matrix, p_matrix, rows, inner, cols); }, 0},
      {approach_name(Approach::fast) + " auto",
       [&] { matmul_fast(m_matrix, n_matrix, p_matrix, rows, inner, cols); }, 0},
  };
  if (options.all_fast_variants) {
    for (FastVariant variant :
         {FastVariant::bm128_bn128_bk8, FastVariant::bm128_bn128_bk16, FastVariant::bm128_bn64_bk8,
          FastVariant::bm64_bn128_bk8, FastVariant::bm64_bn64_bk8}) {
      for (int group_rows : {1, 8}) {
        const FastConfig config{variant, 1, group_rows};
        entries.push_back(
            {"fast " + fast_config_name(config),
             [&, config] { matmul_fast(m_matrix, n_matrix, p_matrix, rows, inner, cols, config); },
             0});
      }
    }
  }
  bool all_ok = true;
  for (const Entry& entry : entries) {
    p_device.poison();
    entry.run();  // the first run also allocates the padded workspace
    const Agreement agreement = agree(p_device.to_vector(), reference);
    const course::TimingStats timing = course::time_gpu(entry.run, warmup, options.repeats);
    add_row(table, shape, entry.name, timing, cublas_timing.median_ms, entry.extra_bytes,
            agreement);
    all_ok = all_ok && agreement.ok;
    std::cerr << "  " << shape.text() << " " << entry.name << ": " << timing.median_ms << " ms"
              << (agreement.ok ? "" : "  WRONG RESULT") << "\n";
  }
  return all_ok;
}

}  // namespace

std::vector<ProblemShape> default_bench_shapes() {
  return {{1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {4095, 1023, 4097},
          {3000, 256, 7000},  {1000, 1000, 1},    {1000, 1, 1000}};
}

int run_benchmark(const BenchOptions& options) {
  course::require_cuda_device();
  const std::vector<ProblemShape> shapes =
      options.shapes.empty() ? default_bench_shapes() : options.shapes;
  course::ResultTable table({"shape IxJxK", "approach", "median ms", "TFLOP/s",
                             "fraction of cuBLAS", "extra MiB", "max rel err (1e-6)", "check"});
  course::CublasSgemm cublas;
  bool all_ok = true;
  for (const ProblemShape& shape : shapes) {
    all_ok = bench_shape(shape, options, cublas, table) && all_ok;
  }
  const std::string header = course::benchmark_header();
  const std::string notes =
      "Median of " + std::to_string(options.repeats) +
      " runs after 2 warm-up runs; fp32 inputs uniform in [-1,1). Each result is checked "
      "against cuBLAS: max |P - P_cublas| / (|P_cublas| + rms(P_cublas)) must stay below " +
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

}  // namespace step4
