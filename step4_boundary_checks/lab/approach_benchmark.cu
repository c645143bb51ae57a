/// @file approach_benchmark.cu
/// @brief step4_approach_bench: every approach of step 4 (the lesson's 1 to 3 and the fast
/// kernel) next to cuBLAS SGEMM on each shape, each result checked against cuBLAS's first.
///
/// Usage: `step4_approach_bench [--shapes FILE | --size N | --rows R --inner K --cols C]
/// [--repeats N] [--seed N] [--all-fast-variants] [--csv FILE] [--markdown FILE]`; the default
/// shapes are lab/shapes/approach_shapes.txt.
#include "common/cli.hpp"
#include "common/cublas_gemm.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/going_further/fast_approach.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"
#include "step4_boundary_checks/lab/bench_agreement.hpp"
#include "step4_boundary_checks/lab/bench_options.hpp"

#include <functional>
#include <iostream>

namespace course::step4 {
namespace {

struct Entry {
  std::string name;
  ApproachRun run;
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
  const std::uint64_t seed = options.seed;
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

  std::vector<Entry> entries;
  const std::vector<course::DenseApproach> approaches = approaches_with_fast();
  for (std::size_t index = 0; index < approaches.size(); ++index) {
    const course::DenseApproach& approach = approaches[index];
    const std::size_t extra = approach.workspace_bytes ? approach.workspace_bytes(sizes) : 0;
    const bool fast = index + 1 == approaches.size();  // approach 4, the fast kernel
    entries.push_back({approach.name + (fast ? " auto" : ""), approach.make_run(), extra});
  }
  if (options.all_fast_variants) {
    for (FastVariant variant :
         {FastVariant::bm128_bn128_bk8, FastVariant::bm128_bn128_bk16, FastVariant::bm128_bn64_bk8,
          FastVariant::bm64_bn128_bk8, FastVariant::bm64_bn64_bk8, FastVariant::bm32_bn128_bk8,
          FastVariant::bm128_bn128_bk16_async, FastVariant::bm64_bn128_bk16_async}) {
      for (int group_rows : {1, 8}) {
        const FastConfig config{variant, 1, group_rows};
        entries.push_back({"fast " + fast_config_name(config),
                           [config](const float* a_in, const float* b_in, float* c_out,
                                    const ProductSizes& shape, cudaStream_t stream) {
                             launch_fast(a_in, b_in, c_out, shape, stream, config);
                           },
                           0});
      }
    }
  }
  bool all_ok = true;
  for (const Entry& entry : entries) {
    auto run = [&] { entry.run(a, b, c, sizes, nullptr); };
    c_device.poison();
    run();  // the first run also allocates the padded workspace
    const Agreement agreement = agree(c_device.to_vector(), reference);
    const course::TimingStats timing = course::time_gpu(run, warmup, options.repeats);
    add_row(table, sizes, entry.name, timing, cublas_timing.median_ms, entry.extra_bytes,
            agreement);
    all_ok = all_ok && agreement.ok;
    std::cerr << "  " << sizes.text() << " " << entry.name << ": " << timing.median_ms << " ms"
              << (agreement.ok ? "" : "  WRONG RESULT") << "\n";
  }
  return all_ok;
}

/// Measures every shape of @p options; 1 when some result disagreed with cuBLAS.
int run_benchmark(const BenchOptions& options) {
  course::require_cuda_device();
  course::ResultTable table({"shape rows x inner x cols", "approach", "median ms", "TFLOP/s",
                             "fraction of cuBLAS", "extra MiB", "max rel err (1e-6)", "check"});
  course::CublasSgemm cublas;
  bool all_ok = true;
  for (const ProductSizes& sizes : options.shapes) {
    all_ok = bench_shape(sizes, options, cublas, table) && all_ok;
  }
  const std::string notes =
      "Median of " + std::to_string(options.repeats) +
      " runs after 2 warm-up runs; fp32 inputs uniform in [-1,1) from seed " +
      std::to_string(options.seed) + " (shapes: " + options.shapes_source +
      "). Each result is checked "
      "against cuBLAS: max |C - C_cublas| / (|C_cublas| + rms(C_cublas)) must stay below " +
      course::format_fixed(kAgreementTolerance * 1e6, 0) +
      "e-6, or the row says WRONG and shows no speed. The padded approach's time includes "
      "its copies in and out; 'extra MiB' is the device memory its padded copies take.\n";
  return publish_bench(options,
                       course::benchmark_header() + "\n\n" + table.markdown() + "\n" + notes, table,
                       all_ok);
}

}  // namespace
}  // namespace course::step4

/// @brief Entry point of the approach benchmark.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 when a result disagreed or on an error, 2 for a bad command line, 3
/// without a GPU
int main(int argc, char** argv) {
  const course::step4::BenchProgram program{
      "step4_approach_bench",
      "Step 4's benchmark: every approach (1 tiled checked, 2 padded, 3 rect tiles, 4 the fast "
      "kernel with its chosen configuration) next to cuBLAS SGEMM (fp32, TF32 off) on each shape, "
      "each result checked against cuBLAS's before it is timed.",
      STEP4_LAB_SHAPES_DIR "/approach_shapes.txt",
      true,
      true,
      true};
  return course::step4::run_bench_program(program, argc, argv, course::step4::run_benchmark);
}
