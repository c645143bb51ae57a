/// @file step5_program.cpp
/// @brief The body of step 5's programs (run_step5_program): the command line, S, the
/// memory check before any work, the timed runs and the DEBUG check against the CPU
/// reference.
///
/// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
/// Read first: step5_program.hpp, then step5_launchers.hpp (the API it calls).
#include "common/cli.hpp"
#include "common/launch_math.hpp"
#include "common/product_sizes.hpp"
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

/// Sizes from which the program says what it is doing before long host work: about a second
/// of drawing values or of preprocessing on one core.
constexpr std::uint64_t kLongHostWork = std::uint64_t{1} << 27;

/// The sizes and the seed of a run, as the command line gives them.
struct Request {
  course::ProductSizes sizes{3000, 256, 7000};  ///< rows, inner, cols (S is rows×cols)
  long long nnz = 313110;                       ///< nonzeros of the random mask S
  long long seed = course::kFreshSeed;          ///< a real seed after parsing
  long long repeats = 5;                        ///< timed runs of the kernel
  std::string matrix_path;                      ///< empty: S is a random mask
};

/// Refuses a run whose sizes cannot work: approach 2's dense product over its limit, or
/// allocations beyond the host's available memory (or the GPU's free memory, when there is
/// one). Takes only the sizes, so it runs before S is drawn or read, and before any work.
void check_sizes(const course::ProductSizes& sizes, long long nnz, course::SamplingSource source,
                 const ApproachEntry& approach, bool debug_check) {
  const auto count = [](long long value) { return static_cast<std::uint64_t>(value); };
  course::MemoryEstimate estimate =
      course::sampled_product_estimate(sizes, count(nnz), source, debug_check);
  // A and Bᵀ are drawn as floats, then rounded to halves (random_half_matrix), one at a time.
  estimate.host("A or B drawn as floats before rounding",
                course::array_bytes(count(std::max(sizes.rows, sizes.cols)), count(sizes.inner),
                                    sizeof(float)));
  // HostSampling: S in CSR (4 B per entry, 4 per row) and the sorted copy coo_to_csr makes
  // on the way (12 B per entry).
  estimate.host("S in CSR for the upload, and its sorted copy (16 B per entry)",
                course::array_bytes(count(nnz), 1, 16));
  // DevicePattern's counts and column spans of every 64-row panel, on the host and the device.
  const std::uint64_t panels = count(panels_covering(sizes.rows));
  estimate.host("S's panel counts and spans (16 B per 64 rows)",
                course::array_bytes(panels, 1, 16));
  estimate.device("S's panel spans (8 B per 64 rows)", course::array_bytes(panels, 1, 8));
  if (approach.number == static_cast<int>(Approach::dense_wmma)) {
    const std::size_t dense_bytes = dense_product_bytes(sizes.rows, sizes.cols);
    const std::size_t limit_bytes = Options{}.dense_limit_elements * sizeof(float);
    if (dense_bytes > limit_bytes) {
      throw std::length_error("approach 2 stores the dense product: " + std::to_string(sizes.rows) +
                              " x " + std::to_string(sizes.cols) + " floats (padded to 16) take " +
                              course::describe_bytes(dense_bytes) + ", more than its limit of " +
                              course::describe_bytes(limit_bytes) +
                              "; approaches 3 and 4 need no dense storage");
    }
    estimate.device("approach 2's dense rows x cols product", dense_bytes);
  } else if (approach.plan_bytes_per_nonzero > 0) {
    estimate.device("the plan's tables (about " + std::to_string(approach.plan_bytes_per_nonzero) +
                        " B per nonzero)",
                    course::array_bytes(count(nnz), 1, approach.plan_bytes_per_nonzero));
  }
  course::require_memory(estimate, "use a smaller --inner, a smaller S or another approach");
}

/// Whether work on S or on the dense operands of these sizes takes long enough on the host
/// to say so first.
bool long_host_work(const course::ProductSizes& sizes, long long nnz) {
  const auto count = [](int value) { return static_cast<std::uint64_t>(value); };
  return count(sizes.rows) * count(sizes.inner) >= kLongHostWork ||
         count(sizes.cols) * count(sizes.inner) >= kLongHostWork ||
         count(sizes.rows) / kPanelRows >= kLongHostWork / 64 ||
         static_cast<std::uint64_t>(nnz) >= kLongHostWork / 8;
}

/// S as a uniform random mask of exactly request.nnz entries from @p seed (the sizes are
/// checked before).
course::CooMatrix random_sampling(const Request& request, const ProgramSetup& setup,
                                  std::uint64_t seed) {
  const long long nnz = request.nnz;
  if (nnz >= 20000000) {
    std::cerr << setup.name << ": drawing " << nnz << " random positions...\n";
  }
  return course::allocate_on_host(
      "S drawn at random", course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)), [&] {
        return course::random_uniform_mask(request.sizes.rows, request.sizes.cols,
                                           static_cast<std::size_t>(nnz), seed);
      });
}

/// S read from request.matrix_path, after the checks that its size line allows.
course::CooMatrix file_sampling(const Request& request, const ProgramSetup& setup,
                                const ApproachEntry& approach) {
  const std::string& path = request.matrix_path;
  const course::MatrixMarketSize size = course::read_matrix_market_size(path);
  // The size line's rows and cols are at most INT_MAX (read_matrix_market_size refuses more).
  const course::ProductSizes sizes{static_cast<int>(size.rows), request.sizes.inner,
                                   static_cast<int>(size.cols)};
  check_sizes(sizes, size.max_nonzeros(), course::SamplingSource::file, approach,
              setup.debug_check);
  if (size.max_nonzeros() >= 20000000) {
    std::cerr << setup.name << ": reading up to " << size.max_nonzeros() << " entries of " << path
              << "...\n";
  }
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
/// Everything that needs no file is checked here: the sizes, the nonzeros and the memory.
bool parse_request(const ProgramSetup& setup, int argc, char** argv, Request& request,
                   long long& approach_number) {
  long long rows = request.sizes.rows;
  long long cols = request.sizes.cols;
  long long inner = request.sizes.inner;
  const bool lesson_only = setup.approaches.size() < 4;
  course::ArgParser parser(
      setup.name,
      "SDDMM C = S o (A*B) at the nonzeros of a sparse S: A is rows x inner, B is inner x cols "
      "(fp16, B stored as its transpose cols x inner), C is float. S is a uniform random mask "
      "of exactly --nnz entries, or the Matrix Market file --matrix. Approaches: " +
          approach_list(setup.approaches) + "." +
          (lesson_only ? " Approach 4 (the hybrid) is going_further's program, "
                         "step5_going_further."
                       : ""));
  parser.add_integer("--approach", &approach_number, 1,
                     static_cast<long long>(setup.approaches.size()),
                     lesson_only ? "approach to run (default: APPROACH; approach 4: "
                                   "step5_going_further)"
                                 : "approach to run (default: APPROACH)");
  parser.add_integer("--rows", &rows, 1, INT_MAX, "rows of A and C (and of the mask S)");
  parser.add_integer("--cols", &cols, 1, INT_MAX, "columns of B and C (and of the mask S)");
  parser.add_integer("--inner", &inner, 1, 1 << 16, "columns of A and rows of B");
  parser.add_integer("--nnz", &request.nnz, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_seed(&request.seed, "seed of the random inputs (the mask S, A and B)");
  parser.add_integer("--repeats", &request.repeats, 1, 1000,
                     "timed runs (of the kernel; the median is reported)");
  parser.add_input_file("--matrix", &request.matrix_path, "read S from this .mtx/.mtx.gz instead");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  parser.refuse_together("--matrix", {"--rows", "--cols", "--nnz"},
                         "the file gives S's sizes and entries");
  request.sizes =
      course::ProductSizes{static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(cols)};
  if (request.matrix_path.empty()) {
    if (static_cast<double>(request.nnz) > static_cast<double>(rows) * static_cast<double>(cols)) {
      throw course::UsageError("--nnz " + std::to_string(request.nnz) +
                               " exceeds rows*cols = " + std::to_string(rows * cols));
    }
    check_sizes(request.sizes, request.nnz, course::SamplingSource::random_mask,
                find_approach(setup, approach_number), setup.debug_check);
  }
  return true;
}

/// A and Bᵀ, drawn on the host.
struct HostOperands {
  course::HostMatrix<__half> a;             ///< A, rows×inner
  course::HostMatrix<__half> b_transposed;  ///< Bᵀ, cols×inner
};

/// Draws A and Bᵀ from @p seed (saying so first when @p say).
HostOperands draw_operands(const course::ProductSizes& sizes, std::uint64_t seed, bool say,
                           const std::string& program) {
  if (say) {
    std::cerr << program << ": drawing A and B (" << sizes.text() << ", fp16) on the host...\n";
  }
  return {random_half_matrix(sizes.rows, sizes.inner, 0, seed),
          random_half_matrix(sizes.cols, sizes.inner, 0, seed + 1)};
}

}  // namespace

course::TimingStats time_preprocessing(const HostSampling& sampling, const ApproachEntry& approach,
                                       int inner, int warmups, int repeats) {
  return course::time_host(
      [&] {
        const DevicePattern pattern = sampling.upload();
        const std::unique_ptr<SddmmPlan> plan = approach.make_plan(pattern, inner);
      },
      warmups, repeats);
}

course::TimingStats time_sddmm(const SddmmPlan& plan, const DenseOperands& operands, float* output,
                               int repeats) {
  return course::time_gpu([&] { plan.run(operands, output); }, 1, repeats);
}

int run_step5_program(const ProgramSetup& setup, int argc, char** argv) {
  return course::run_program(setup.name, [&] {
    give_large_vectors_their_own_pages();  // before S is made, as the benchmark does
    Request request;
    long long approach_number = setup.default_approach;
    if (!parse_request(setup, argc, argv, request, approach_number)) {
      return 0;
    }
    const ApproachEntry& approach = find_approach(setup, approach_number);
    const bool from_file = !request.matrix_path.empty();
    const auto seed = static_cast<std::uint64_t>(request.seed);
    // Everything about the inputs is checked, and S made, before looking for a GPU.
    const course::CooMatrix sampling =
        from_file ? file_sampling(request, setup, approach) : random_sampling(request, setup, seed);
    const course::GpuDescription& device = course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
    const course::ProductSizes sizes{sampling.rows, request.sizes.inner, sampling.cols};
    const bool say = long_host_work(sizes, static_cast<long long>(sampling.nnz()));
    std::cout << "GPU: " << device.name << "\n"
              << "approach " << approach.name << ", rows=" << sizes.rows << " cols=" << sizes.cols
              << " inner=" << sizes.inner << " nnz=" << sampling.nnz() << " seed=" << seed << "\n";

    const HostOperands host = draw_operands(sizes, seed, say, setup.name);
    const course::DeviceMatrix<__half> device_a(host.a);
    const course::DeviceMatrix<__half> device_b(host.b_transposed);
    // A and Bᵀ are packed: each row is inner elements long.
    const DenseOperands operands(sizes, device_a.data(), sizes.inner, device_b.data(), sizes.inner);
    course::DeviceBuffer<float> output(sampling.nnz(), "C");
    output.poison();

    // S as every program and the benchmark upload it: CSR, pinned, a pattern when every value
    // is one (then no values are uploaded or read).
    const HostSampling host_sampling(sampling);
    std::cout << "S: " << pattern_values_name(host_sampling.values())
              << (host_sampling.pattern() ? " (every value one: none uploaded, none read)"
                                          : " (each product times its value)")
              << "\n";
    // "other" = the upload of S and its preprocessing. The first one in a process also pays
    // one-time set-up (the lazy loading of the kernels it launches, the stream-ordered pool's
    // first allocations); a second pattern of the same size shows what every later one costs.
    if (say) {
      std::cerr << setup.name << ": preprocessing S 4 times (first call, then 3 steady)...\n";
    }
    const course::TimingStats first_other =
        time_preprocessing(host_sampling, approach, sizes.inner, 0, 1);
    // A random S gets a second draw of the same size; a file has one pattern, so it is used
    // again.
    std::unique_ptr<HostSampling> second;
    if (!from_file) {
      second = std::make_unique<HostSampling>(random_sampling(request, setup, seed + 1));
    }
    const course::TimingStats steady_other =
        time_preprocessing(from_file ? host_sampling : *second, approach, sizes.inner, 0, 3);
    second.reset();
    const DevicePattern pattern = host_sampling.upload();
    const std::unique_ptr<SddmmPlan> plan = approach.make_plan(pattern, sizes.inner);
    const std::string plan_line = plan->describe();
    if (!plan_line.empty()) {
      std::cout << plan_line << "\n";
    }
    const course::TimingStats kernel =
        time_sddmm(*plan, operands, output.data(), static_cast<int>(request.repeats));
    std::cout << "sddmm " << kernel.median_ms << " ms (median of " << request.repeats << ", min "
              << kernel.min_ms << ")\n"
              << "other (upload + preprocessing), first call: " << first_other.median_ms
              << " ms (includes one-time set-up)\n"
              << "other (upload + preprocessing), steady state: " << steady_other.median_ms
              << " ms (median of 3 on "
              << (from_file ? "the same S again" : "a second random S of the same size") << ")\n";
    if (setup.debug_check) {
      const SampledReference reference = sddmm_reference(host.a, host.b_transposed, sampling);
      const course::CompareResult result =
          compare_sampled(output.to_vector(), reference, sampling,
                          course::Tolerance::tensor_core_fp32_accumulation(sizes.inner));
      if (!course::report_verification(result, std::cout)) {
        return 1;
      }
    }
    return 0;
  });
}

}  // namespace course::step5
