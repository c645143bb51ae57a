// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
// Read first: step5_program.hpp, then step5_launchers.hpp (the API it calls).
/// @file step5_program.cpp
/// @brief The body of step 5's programs (run_step5_program): the command line, S, the
/// memory check before any work, the timed runs and the DEBUG check against the CPU
/// reference.
#include "common/cli.hpp"
#include "common/compare.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/random_fill.hpp"
#include "common/sparse_generators.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/sddmm_reference.hpp"
#include "step5_tensor_core_sddmm/step5_program.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

namespace course::step5 {
namespace {

/// Refuses a run whose sizes cannot work: approach 2's dense product over its limit, or
/// allocations beyond the host's available memory (or the GPU's free memory, when there is
/// one). Takes only the sizes, so it runs before S is drawn or read.
void check_sizes(long long rows, long long cols, long long inner, long long nnz,
                 course::SamplingSource source, const ApproachEntry& approach, bool debug_check) {
  course::MemoryEstimate estimate = course::sampled_product_estimate(
      static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols),
      static_cast<std::uint64_t>(inner), static_cast<std::uint64_t>(nnz), source, debug_check);
  if (approach.number == static_cast<int>(Approach::dense_wmma)) {
    const std::size_t dense_bytes =
        dense_product_bytes(static_cast<int>(rows), static_cast<int>(cols));
    const std::size_t limit_bytes = Options{}.dense_limit_elements * sizeof(float);
    if (dense_bytes > limit_bytes) {
      throw std::length_error("approach 2 stores the dense product: " + std::to_string(rows) +
                              " x " + std::to_string(cols) + " floats (padded to 16) take " +
                              course::describe_bytes(dense_bytes) + ", more than its limit of " +
                              course::describe_bytes(limit_bytes) +
                              "; approaches 3 and 4 need no dense storage");
    }
    estimate.device("approach 2's dense rows x cols product", dense_bytes);
  } else if (approach.plan_bytes_per_nonzero > 0) {
    estimate.device(
        "the plan's tables (about " + std::to_string(approach.plan_bytes_per_nonzero) +
            " B per nonzero)",
        course::array_bytes(static_cast<std::uint64_t>(nnz), 1, approach.plan_bytes_per_nonzero));
  }
  course::require_memory(estimate, "use a smaller --k, a smaller S or another approach");
}

/// The sizes and the seed of a run, as the command line gives them.
struct Request {
  long long rows = 3000;
  long long cols = 7000;
  long long inner = 256;
  long long nnz = 313110;
  std::uint64_t seed = 0;
  std::string matrix_path;  ///< empty: S is a random mask
};

/// S as a uniform random mask of exactly request.nnz entries from @p seed, after the checks.
course::CooMatrix random_sampling(const Request& request, const ProgramSetup& setup,
                                  const ApproachEntry& approach, std::uint64_t seed) {
  const long long rows = request.rows;
  const long long cols = request.cols;
  const long long nnz = request.nnz;
  if (static_cast<double>(nnz) > static_cast<double>(rows) * static_cast<double>(cols)) {
    throw course::UsageError("--nnz " + std::to_string(nnz) +
                             " exceeds rows*cols = " + std::to_string(rows * cols));
  }
  check_sizes(rows, cols, request.inner, nnz, course::SamplingSource::random_mask, approach,
              setup.debug_check);
  if (nnz >= 20000000) {
    std::cerr << setup.name << ": drawing " << nnz << " random positions...\n";
  }
  return course::allocate_on_host(
      "S drawn at random", course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)), [&] {
        return course::random_uniform_mask(static_cast<int>(rows), static_cast<int>(cols),
                                           static_cast<std::size_t>(nnz), seed);
      });
}

/// S read from request.matrix_path, after the checks that its size line allows.
course::CooMatrix file_sampling(const Request& request, const ProgramSetup& setup,
                                const ApproachEntry& approach) {
  const std::string& path = request.matrix_path;
  const course::MatrixMarketSize size = course::read_matrix_market_size(path);
  check_sizes(size.rows, size.cols, request.inner, size.max_nonzeros(),
              course::SamplingSource::file, approach, setup.debug_check);
  return course::allocate_on_host(
      "S read from " + path,
      course::array_bytes(static_cast<std::uint64_t>(size.max_nonzeros()), 2, 12),
      [&] { return course::read_matrix_market(path); });
}

/// The approaches' names for --help: "1 warp/nonzero, 2 dense WMMA, ...".
std::string approach_list(const std::vector<ApproachEntry>& approaches) {
  std::string text;
  for (const ApproachEntry& approach : approaches) {
    text += (text.empty() ? "" : ", ") + approach.name;
  }
  return text;
}

/// The entry numbered @p number (the parser has checked the range).
const ApproachEntry& find_approach(const ProgramSetup& setup, long long number) {
  const auto found =
      std::find_if(setup.approaches.begin(), setup.approaches.end(),
                   [&](const ApproachEntry& entry) { return entry.number == number; });
  if (found == setup.approaches.end()) {
    throw course::UsageError("--approach " + std::to_string(number) + " is not one of " +
                             approach_list(setup.approaches));
  }
  return *found;
}

/// Parses the command line into @p request and the approach's number; false after --help.
bool parse_request(const ProgramSetup& setup, int argc, char** argv, Request& request,
                   long long& approach_number) {
  long long seed = course::kFreshSeed;
  course::ArgParser parser(
      setup.name,
      "SDDMM C = S o (A*B) at the nonzeros of a sparse S: A is rows x inner, B is inner x cols "
      "(fp16, B stored as its transpose cols x inner), C is float. S is a uniform random mask "
      "of exactly --nnz entries, or the Matrix Market file --matrix. Approaches: " +
          approach_list(setup.approaches) + ".");
  parser.add_integer("--approach", &approach_number, 1,
                     static_cast<long long>(setup.approaches.size()),
                     "approach to run (default: APPROACH)");
  parser.add_integer("--m", &request.rows, 1, INT_MAX, "rows of A and S");
  parser.add_integer("--n", &request.cols, 1, INT_MAX, "columns of B and S");
  parser.add_integer("--k", &request.inner, 1, 1 << 16, "inner size: columns of A, rows of B");
  parser.add_integer("--nnz", &request.nnz, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_seed(&seed, "seed of the mask S and of A and B");
  parser.add_input_file("--matrix", &request.matrix_path, "read S from this .mtx/.mtx.gz instead");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  parser.refuse_together("--matrix", {"--m", "--n", "--nnz"},
                         "the file gives S's sizes and entries");
  request.seed = static_cast<std::uint64_t>(seed);  // a real seed after parsing (fresh ones
                                                    // drawn there)
  return true;
}

}  // namespace

int run_step5_program(const ProgramSetup& setup, int argc, char** argv) {
  return course::run_program(setup.name, [&] {
    Request request;
    long long approach_number = setup.default_approach;
    if (!parse_request(setup, argc, argv, request, approach_number)) {
      return 0;
    }
    const ApproachEntry& approach = find_approach(setup, approach_number);
    const bool from_file = !request.matrix_path.empty();
    const std::uint64_t used_seed = request.seed;
    // Everything about the inputs is checked, and S made, before looking for a GPU.
    const course::CooMatrix sampling = from_file
                                           ? file_sampling(request, setup, approach)
                                           : random_sampling(request, setup, approach, used_seed);
    const course::DeviceInfo device = course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
    const int inner_size = static_cast<int>(request.inner);
    std::cout << "GPU: " << device.name << "\n"
              << "approach " << approach.name << ", rows=" << sampling.rows
              << " cols=" << sampling.cols << " inner=" << inner_size << " nnz=" << sampling.nnz()
              << " seed=" << used_seed << "\n";

    const course::HostMatrix<__half> a =
        random_half_matrix(sampling.rows, inner_size, 0, used_seed);
    const course::HostMatrix<__half> b_transposed =
        random_half_matrix(sampling.cols, inner_size, 0, used_seed + 1);
    const course::DeviceMatrix<__half> device_a(a);
    const course::DeviceMatrix<__half> device_b(b_transposed);
    DenseOperands operands;
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
      const DevicePattern pattern(mask);
      const std::unique_ptr<SddmmPlan> plan = approach.make_plan(pattern, inner_size);
    };
    const course::TimingStats first_other = course::time_host([&] { preprocess(sampling); }, 0, 1);
    // A random S gets a second draw of the same size; a file has one pattern, so it is used
    // again.
    const course::CooMatrix second =
        from_file ? course::CooMatrix{} : random_sampling(request, setup, approach, used_seed + 1);
    const course::CooMatrix& steady_mask = from_file ? sampling : second;
    const course::TimingStats steady_other =
        course::time_host([&] { preprocess(steady_mask); }, 0, 3);
    const DevicePattern pattern(sampling);
    const std::unique_ptr<SddmmPlan> plan = approach.make_plan(pattern, inner_size);
    const course::TimingStats kernel =
        course::time_gpu([&] { plan->run(operands, output.data()); }, 1, 5);
    std::cout << "sddmm " << kernel.median_ms << " ms\n"
              << "other (upload + preprocessing), first call: " << first_other.median_ms
              << " ms (includes one-time set-up)\n"
              << "other (upload + preprocessing), steady state: " << steady_other.median_ms
              << " ms (median of 3 on "
              << (from_file ? "the same S again" : "a second random S of the same size") << ")\n";
    if (setup.debug_check) {
      const SampledReference reference = sddmm_reference(a, b_transposed, sampling);
      const course::CompareResult result =
          compare_sampled(output.to_vector(), reference, sampling,
                          course::Tolerance::tensor_core_fp32_accumulation(inner_size));
      if (!course::report_verification(result, std::cout)) {
        return 1;
      }
    }
    return 0;
  });
}

}  // namespace course::step5
