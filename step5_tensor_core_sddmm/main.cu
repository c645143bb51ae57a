// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
// Read first: step5_launchers.hpp (the API it calls).
/// @file main.cu
/// @brief Step 5 program: one SDDMM C = S ∘ (A·B) with the chosen approach.
///
/// It prints the kernel time and two "other" times (upload of S and preprocessing): the
/// first call's, which includes one-time set-up, and the steady state's, measured on a second
/// pattern of the same size (a file's S is used again), which is what each new mask costs in
/// a program that has already run one.
///
/// `#define APPROACH x` (or CMake's STEP5_APPROACH, or `--approach x`) picks the approach;
/// with `#define DEBUG` (CMake's COURSE_DEBUG) the result is checked against the CPU
/// reference SDDMM in double before device memory is freed, and a mismatch prints
/// `wrong answer` and exits with status 1.

// #define DEBUG

#ifndef APPROACH
/// @brief The approach this program runs by default (1 to 4; see the options).
#define APPROACH 4
#endif

#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/debug_switch.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/timing.hpp"
#include "sddmm_reference.hpp"
#include "step5_launchers.hpp"

#include <climits>
#include <iostream>
#include <stdexcept>
#include <string>
#include <cstddef>
#include <cstdint>

namespace {

/// Refuses a run whose sizes cannot work: approach 2's dense product over its limit, or
/// allocations beyond the host's available memory (or the GPU's free memory, when there is
/// one). Takes only the sizes, so it runs before S is drawn or read.
void check_sizes(long long rows, long long cols, long long inner, long long nnz,
                 course::SamplingSource source, course::step5::Approach approach) {
  course::MemoryEstimate estimate = course::sampled_product_estimate(
      static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols),
      static_cast<std::uint64_t>(inner), static_cast<std::uint64_t>(nnz), source,
      course::kDebugCheck);
  if (approach == course::step5::Approach::dense_wmma) {
    const std::size_t dense_bytes =
        course::step5::dense_product_bytes(static_cast<int>(rows), static_cast<int>(cols));
    const std::size_t limit_bytes = course::step5::Options{}.dense_limit_elements * sizeof(float);
    if (dense_bytes > limit_bytes) {
      throw std::length_error("approach 2 stores the dense product: " + std::to_string(rows) +
                              " x " + std::to_string(cols) + " floats (padded to 16) take " +
                              course::describe_bytes(dense_bytes) + ", more than its limit of " +
                              course::describe_bytes(limit_bytes) +
                              "; approaches 3 and 4 need no dense storage");
    }
    estimate.device("approach 2's dense rows x cols product", dense_bytes);
  } else if (approach != course::step5::Approach::warp_per_nonzero) {
    estimate.device("the plan's tables (about 16 B per nonzero)",
                    course::array_bytes(static_cast<std::uint64_t>(nnz), 1, 16));
  }
  course::require_memory(estimate, "use a smaller --k, a smaller S or another approach");
}

/// S as a uniform random mask of exactly @p nnz entries from @p seed, after the checks.
course::CooMatrix random_sampling(long long rows, long long cols, long long inner, long long nnz,
                                  course::step5::Approach approach, std::uint64_t seed) {
  if (static_cast<double>(nnz) > static_cast<double>(rows) * static_cast<double>(cols)) {
    throw course::UsageError("--nnz " + std::to_string(nnz) +
                             " exceeds rows*cols = " + std::to_string(rows * cols));
  }
  check_sizes(rows, cols, inner, nnz, course::SamplingSource::random_mask, approach);
  if (nnz >= 20000000) {
    std::cerr << "step5_tensor_core_sddmm: drawing " << nnz << " random positions...\n";
  }
  return course::allocate_on_host(
      "S drawn at random", course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)), [&] {
        return course::random_uniform_mask(static_cast<int>(rows), static_cast<int>(cols),
                                           static_cast<std::size_t>(nnz), seed);
      });
}

/// S read from @p path, after the checks that its size line allows.
course::CooMatrix file_sampling(const std::string& path, long long inner,
                                course::step5::Approach approach) {
  const course::MatrixMarketSize size = course::read_matrix_market_size(path);
  check_sizes(size.rows, size.cols, inner, size.max_nonzeros(), course::SamplingSource::file,
              approach);
  return course::allocate_on_host(
      "S read from " + path,
      course::array_bytes(static_cast<std::uint64_t>(size.max_nonzeros()), 2, 12),
      [&] { return course::read_matrix_market(path); });
}

int run(int argc, char** argv) {
  long long approach_number = APPROACH;
  long long rows = 3000;
  long long cols = 7000;
  long long inner = 256;
  long long nnz = 313110;
  long long seed = course::kFreshSeed;
  std::string matrix_path;
  course::ArgParser parser(
      "step5_tensor_core_sddmm",
      "SDDMM C = S o (A*B) at the nonzeros of a sparse S: A is rows x inner, B is inner x cols "
      "(fp16, B stored "
      "as its transpose cols x inner), C is float. S is a uniform random mask of exactly --nnz "
      "entries, or the Matrix Market file --matrix. Approaches: 1 warp per nonzero (CUDA "
      "cores), 2 dense WMMA product then sampled, 3 WMMA on the non-empty 16x16 tiles, "
      "4 hybrid (fastest).");
  parser.add_integer("--approach", &approach_number, 1, course::step5::kApproachCount,
                     "approach to run (default: APPROACH)");
  parser.add_integer("--m", &rows, 1, INT_MAX, "rows of A and S");
  parser.add_integer("--n", &cols, 1, INT_MAX, "columns of B and S");
  parser.add_integer("--k", &inner, 1, 1 << 16, "inner size: columns of A, rows of B");
  parser.add_integer("--nnz", &nnz, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_seed(&seed, "seed of the mask S and of A and B");
  parser.add_input_file("--matrix", &matrix_path, "read S from this .mtx/.mtx.gz instead");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  parser.refuse_together("--matrix", {"--m", "--n", "--nnz"},
                         "the file gives S's sizes and entries");
  const course::step5::Approach approach = course::step5::approach_from_number(approach_number);
  const std::uint64_t used_seed =
      static_cast<std::uint64_t>(seed);  // a real seed after parsing (fresh ones drawn there)
  // Everything about the inputs is checked, and S made, before looking for a GPU.
  const course::CooMatrix sampling =
      matrix_path.empty() ? random_sampling(rows, cols, inner, nnz, approach, used_seed)
                          : file_sampling(matrix_path, inner, approach);
  const course::DeviceInfo device = course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  const int inner_size = static_cast<int>(inner);
  std::cout << "GPU: " << device.name << "\n"
            << "approach " << course::step5::approach_name(approach) << ", rows=" << sampling.rows
            << " cols=" << sampling.cols << " inner=" << inner_size << " nnz=" << sampling.nnz()
            << " seed=" << used_seed << "\n";

  const course::HostMatrix<__half> a =
      course::step5::random_half_matrix(sampling.rows, inner_size, 0, used_seed);
  const course::HostMatrix<__half> b_transposed =
      course::step5::random_half_matrix(sampling.cols, inner_size, 0, used_seed + 1);
  const course::DeviceMatrix<__half> device_a(a);
  const course::DeviceMatrix<__half> device_b(b_transposed);
  course::step5::DenseOperands operands;
  operands.rows = sampling.rows;
  operands.cols = sampling.cols;
  operands.inner = inner_size;
  operands.a = device_a.data();
  operands.lda = inner_size;  // A and Bᵀ are packed: each row is inner elements long
  operands.b_transposed = device_b.data();
  operands.ldb = inner_size;
  course::DeviceBuffer<float> output(sampling.nnz(), "C");
  output.poison();

  // "other" = the upload of S and its preprocessing. The first one in a process also pays
  // one-time set-up (the lazy loading of the kernels it launches, the stream-ordered pool's
  // first allocations); a second pattern of the same size shows what every later one costs.
  const auto preprocess = [&](const course::CooMatrix& mask) {
    const course::step5::DevicePattern pattern(mask);
    const course::step5::Plan plan(approach, pattern, inner_size);
  };
  const course::TimingStats first_other = course::time_host([&] { preprocess(sampling); }, 0, 1);
  // A random S gets a second draw of the same size; a file has one pattern, so it is used again.
  const course::CooMatrix second =
      matrix_path.empty() ? random_sampling(rows, cols, inner, nnz, approach, used_seed + 1)
                          : course::CooMatrix{};
  const course::CooMatrix& steady_mask = matrix_path.empty() ? second : sampling;
  const course::TimingStats steady_other =
      course::time_host([&] { preprocess(steady_mask); }, 0, 3);
  const course::step5::DevicePattern pattern(sampling);
  const course::step5::Plan plan(approach, pattern, inner_size);
  const course::TimingStats kernel =
      course::time_gpu([&] { plan.run(operands, output.data()); }, 1, 5);
  std::cout << "sddmm " << kernel.median_ms << " ms\n"
            << "other (upload + preprocessing), first call: " << first_other.median_ms
            << " ms (includes one-time set-up)\n"
            << "other (upload + preprocessing), steady state: " << steady_other.median_ms
            << " ms (median of 3 on "
            << (matrix_path.empty() ? "a second random S of the same size" : "the same S again")
            << ")\n";
  if (course::kDebugCheck) {
    const course::step5::SampledReference reference =
        course::step5::sddmm_reference(a, b_transposed, sampling);
    const course::CompareResult result = course::step5::compare_sampled(
        output.to_vector(), reference, sampling,
        course::Tolerance::tensor_core_fp32_accumulation(inner_size));
    if (!course::report_verification(result, std::cout)) {
      return 1;
    }
  }
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
