// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
// Read first: step5_launchers.hpp (the API it calls).
/// @file main.cu
/// @brief Step 5 program: one SDDMM P = S ∘ (A·B) with the chosen approach.
///
/// `#define APPROACH x` (or CMake's STEP5_APPROACH, or `--approach x`) picks the approach;
/// with `#define DEBUG` (CMake's COURSE_DEBUG) the result is checked against the CPU
/// reference SDDMM in double before device memory is freed, and a mismatch prints
/// `wrong answer` and exits with status 1.
#ifndef APPROACH
/// @brief The approach this program runs by default (1 to 4; see the options).
#define APPROACH 4
#endif

#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/timing.hpp"
#include "sddmm_reference.hpp"
#include "step5_launchers.hpp"

#include <climits>
#include <iostream>
#include <string>
#include <cstddef>
#include <cstdint>

namespace {

int run(int argc, char** argv) {
  long long approach_number = APPROACH;
  long long rows = 3000;
  long long cols = 7000;
  long long inner = 256;
  long long nnz = 313110;
  long long seed = 0;
  std::string matrix_path;
  course::ArgParser parser(
      "step5_tensor_core_sddmm",
      "SDDMM P = S o (A*B) at the nonzeros of a sparse S: A is MxK, B is KxN (fp16, B stored "
      "as its transpose N x K), P is float. S is a uniform random mask of exactly --nnz "
      "entries, or the Matrix Market file --matrix. Approaches: 1 warp per nonzero (CUDA "
      "cores), 2 dense WMMA product then sampled, 3 WMMA on the non-empty 16x16 tiles, "
      "4 hybrid (fastest).");
  parser.add_integer("--approach", &approach_number, 1, step5::kApproachCount,
                     "approach to run (default: APPROACH)");
  parser.add_integer("--m", &rows, 1, INT_MAX, "rows of A and S (M)");
  parser.add_integer("--n", &cols, 1, INT_MAX, "columns of B and S (N)");
  parser.add_integer("--k", &inner, 1, 1 << 16, "inner dimension K");
  parser.add_integer("--nnz", &nnz, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_integer("--seed", &seed, 0, LLONG_MAX, "seed (0: a fresh one)");
  parser.add_text("--matrix", &matrix_path, "read S from this .mtx/.mtx.gz instead");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  const course::DeviceInfo device = course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  const std::uint64_t used_seed =
      seed == 0 ? course::fresh_seed() : static_cast<std::uint64_t>(seed);
  course::CooMatrix sampling;
  if (matrix_path.empty()) {
    if (static_cast<double>(nnz) > static_cast<double>(rows) * static_cast<double>(cols)) {
      throw course::UsageError("--nnz " + std::to_string(nnz) +
                               " exceeds M*N = " + std::to_string(rows * cols));
    }
    sampling = course::random_uniform_mask(static_cast<int>(rows), static_cast<int>(cols),
                                           static_cast<std::size_t>(nnz), used_seed);
  } else {
    sampling = course::read_matrix_market(matrix_path);
  }
  const step5::Approach approach = step5::approach_from_number(approach_number);
  const int k = static_cast<int>(inner);
  std::cout << "GPU: " << device.name << "\n"
            << "approach " << step5::approach_name(approach) << ", M=" << sampling.rows
            << " N=" << sampling.cols << " K=" << k << " nnz=" << sampling.nnz()
            << " seed=" << used_seed << "\n";

  const course::HostMatrix<__half> a = step5::random_half_matrix(sampling.rows, k, 0, used_seed);
  const course::HostMatrix<__half> b_transposed =
      step5::random_half_matrix(sampling.cols, k, 0, used_seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_b(b_transposed);
  const step5::DenseOperands operands{
      sampling.rows, sampling.cols, k, device_a.data(), k, device_b.data(), k};
  course::DeviceBuffer<float> output(sampling.nnz(), "P");
  output.poison();

  const course::TimingStats other = course::time_host(
      [&] {
        const step5::DevicePattern pattern(sampling);
        const step5::Plan plan(approach, pattern, k);
      },
      0, 1);
  const step5::DevicePattern pattern(sampling);
  const step5::Plan plan(approach, pattern, k);
  const course::TimingStats kernel =
      course::time_gpu([&] { plan.run(operands, output.data()); }, 1, 5);
  std::cout << "sddmm " << kernel.median_ms << " ms, other (upload + preprocessing) "
            << other.median_ms << " ms\n";
#ifdef DEBUG
  const step5::SampledReference reference = step5::sddmm_reference(a, b_transposed, sampling);
  const course::CompareResult result = step5::compare_sampled(
      output.to_vector(), reference, sampling, course::Tolerance::tensor_core_fp32_accumulation(k));
  if (!course::report_verification(result, std::cout)) {
    return 1;
  }
#endif
  return 0;
}

}  // namespace

/// @brief Runs one SDDMM with the chosen approach (and the DEBUG check).
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  return course::run_program("step5_tensor_core_sddmm", [&] { return run(argc, argv); });
}
