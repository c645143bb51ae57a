/// @file pad_to_four.cu
/// @brief Experiment: does padding a ragged product to multiples of 4 pay for the fast kernel?
///
/// When inner or cols is not a multiple of 4, the fast kernel loads A or B with scalar loads
/// (no float4: the rows do not start on 16-byte boundaries). The alternative is to copy A and B
/// into zero-padded buffers whose row lengths are multiples of 4, run the float4 path on the
/// padded sizes, and copy the rows×cols corner of the padded C back. For each shape this program
/// times cuBLAS SGEMM, the fast kernel on the ragged operands, the fast kernel alone on the padded
/// operands, and the whole padded product (copy in, kernel, copy out), each checked against
/// cuBLAS. The padding is zeroed once per shape, outside the timing (as PaddedWorkspace does for
/// repeated products of one size); the copies are cudaMemcpy2DAsync.
///
/// Usage: `step4_pad_to_four [--shapes FILE | --rows R --inner K --cols C] [--repeats N]
/// [--seed N]` (one `rows inner cols` a line, default lab/shapes/public_shapes.txt; shapes whose
/// inner and cols are multiples of 4 are skipped). Measured on an H100 on 2026-11-24:
/// lab/results/pad_to_four_h100.md.
#include "common/cli.hpp"
#include "common/cublas_gemm.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/random_fill.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "step4_boundary_checks/going_further/fast_gemm_launch.hpp"
#include "step4_boundary_checks/lab/bench_agreement.hpp"
#include "step4_boundary_checks/lab/bench_options.hpp"

#include <iostream>
#include <string>
#include <vector>

namespace {

using course::ProductSizes;

/// Device operands of one shape: A, B, C, and their copies padded to multiples of 4.
struct Operands {
  Operands(const ProductSizes& sizes, const ProductSizes& padded, std::uint64_t seed)
      : a(static_cast<std::size_t>(sizes.rows) * sizes.inner, "A"),
        b(static_cast<std::size_t>(sizes.inner) * sizes.cols, "B"),
        c(static_cast<std::size_t>(sizes.rows) * sizes.cols, "C"),
        a4(static_cast<std::size_t>(padded.rows) * padded.inner, "the padded A"),
        b4(static_cast<std::size_t>(padded.inner) * padded.cols, "the padded B"),
        c4(static_cast<std::size_t>(padded.rows) * padded.cols, "the padded C") {
    std::vector<float> host(a.size());
    course::fill_uniform(host.data(), host.size(), seed);
    a.upload(host);
    host.resize(b.size());
    course::fill_uniform(host.data(), host.size(), seed + 1);
    b.upload(host);
    // The padding must be zero (and finite): the copies below write only the corners.
    CUDA_CHECK(cudaMemset(a4.data(), 0, a4.size() * sizeof(float)));
    CUDA_CHECK(cudaMemset(b4.data(), 0, b4.size() * sizeof(float)));
  }
  course::DeviceBuffer<float> a, b, c, a4, b4, c4;  ///< the operands and their padded copies
};

/// Copies a rows×cols row-major matrix between buffers of row lengths @p from_cols, @p to_cols.
void copy_corner(float* to, int to_cols, const float* from, int from_cols, int rows, int cols) {
  CUDA_CHECK(cudaMemcpy2DAsync(to, to_cols * sizeof(float), from, from_cols * sizeof(float),
                               cols * sizeof(float), rows, cudaMemcpyDeviceToDevice, nullptr));
}

/// Times @p run after checking that it leaves @p reference in C; -1 when it disagrees.
double checked_ms(const std::function<void()>& run, course::DeviceBuffer<float>& c,
                  const std::vector<float>& reference, int repeats) {
  c.poison();
  run();
  if (!course::step4::agree(c.to_vector(), reference).ok) {
    return -1.0;
  }
  return course::time_gpu(run, 2, repeats).median_ms;
}

std::string fraction(double cublas_ms, double ms) {
  return ms > 0 ? course::format_fixed(cublas_ms / ms, 3) : std::string("WRONG");
}

std::vector<std::string> measure(const ProductSizes& sizes,
                                 const course::step4::BenchOptions& options,
                                 course::CublasSgemm& cublas) {
  const int repeats = options.repeats;
  const ProductSizes padded{sizes.rows, (sizes.inner + 3) / 4 * 4, (sizes.cols + 3) / 4 * 4};
  Operands operands(sizes, padded, options.seed);
  auto cublas_run = [&] {
    cublas.multiply(operands.a.data(), operands.b.data(), operands.c.data(), sizes.rows,
                    sizes.inner, sizes.cols);
  };
  cublas_run();
  const std::vector<float> reference = operands.c.to_vector();
  const double cublas_ms = course::time_gpu(cublas_run, 2, repeats).median_ms;
  const double ragged_ms = checked_ms(
      [&] {
        course::step4::launch_fast(operands.a.data(), operands.b.data(), operands.c.data(), sizes);
      },
      operands.c, reference, repeats);
  auto kernel_only = [&] {
    course::step4::launch_fast(operands.a4.data(), operands.b4.data(), operands.c4.data(), padded);
  };
  auto padded_run = [&] {
    copy_corner(operands.a4.data(), padded.inner, operands.a.data(), sizes.inner, sizes.rows,
                sizes.inner);
    copy_corner(operands.b4.data(), padded.cols, operands.b.data(), sizes.cols, sizes.inner,
                sizes.cols);
    kernel_only();
    copy_corner(operands.c.data(), sizes.cols, operands.c4.data(), padded.cols, sizes.rows,
                sizes.cols);
  };
  const double padded_ms = checked_ms(padded_run, operands.c, reference, repeats);
  const double kernel_ms = course::time_gpu(kernel_only, 2, repeats).median_ms;
  std::cerr << "  " << sizes.text() << " done\n";
  return {sizes.text(),
          course::format_fixed(cublas_ms, 4),
          course::format_fixed(ragged_ms, 4),
          fraction(cublas_ms, ragged_ms),
          course::step4::fast_config_name(course::step4::chosen_fast_config(sizes)),
          course::format_fixed(kernel_ms, 4),
          course::step4::fast_config_name(course::step4::chosen_fast_config(padded)),
          course::format_fixed(padded_ms, 4),
          fraction(cublas_ms, padded_ms)};
}

/// Measures every ragged shape of @p options.
int run(const course::step4::BenchOptions& options) {
  const std::vector<ProductSizes>& shapes = options.shapes;
  course::require_cuda_device();
  course::ResultTable table({"shape rows x inner x cols", "cuBLAS ms", "ragged ms",
                             "ragged fraction", "ragged configuration", "padded kernel ms",
                             "padded configuration", "padded total ms", "padded fraction"});
  course::CublasSgemm cublas;
  for (const ProductSizes& sizes : shapes) {
    if (sizes.inner % 4 != 0 || sizes.cols % 4 != 0) {  // only ragged shapes have a choice
      table.add_row(measure(sizes, options, cublas));
    }
  }
  std::cout << course::benchmark_header() << "\n\n"
            << table.markdown() << "\nfraction = cuBLAS time / ours (median of " << options.repeats
            << " runs after 2 warm-up runs, each result checked against cuBLAS first). 'padded "
               "total' = cudaMemcpy2DAsync of A and B into buffers whose rows are multiples of 4 "
               "floats (padding zeroed once, outside the timing), the fast kernel on the padded "
               "sizes, and the copy of C's corner back; 'padded kernel' is the kernel alone.\n";
  return 0;
}

}  // namespace

/// @brief Entry point of the padding experiment.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 on an error, 2 on a bad command line
int main(int argc, char** argv) {
  const course::step4::BenchProgram program{
      "step4_pad_to_four",
      "Experiment: the fast kernel on ragged shapes, directly and through copies padded to "
      "multiples of 4, against cuBLAS SGEMM. Shapes whose inner and cols are multiples of 4 are "
      "skipped.",
      STEP4_LAB_SHAPES_DIR "/public_shapes.txt",
      false,
      false,
      false};
  return course::step4::run_bench_program(program, argc, argv, run);
}
