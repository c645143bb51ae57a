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
#include <utility>

namespace course::step5 {
namespace {

/// Sizes from which the program says what it is doing before long host work: about a second
/// of drawing values or of preprocessing on one core.
constexpr std::uint64_t kLongHostWork = std::uint64_t{1} << 27;

/// Refuses a run of @p approach whose sizes cannot work: approach 2's dense product over its
/// limit, or allocations beyond the host's available memory (or the GPU's free memory, when
/// there is one). Takes only the sizes, so it runs before S is drawn or read, and before any
/// work.
void check_run_sizes(const course::ProductSizes& sizes, long long nnz,
                     course::SamplingSource source, const ApproachEntry& approach,
                     bool debug_check) {
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
  // The upload's own: the lesson's expands S to COO (12 B per entry); approach 4's keeps
  // figures of every 64 rows (going_further/panel_pattern.hpp), well under 1 B per row.
  estimate.host(
      "S's upload (12 B per entry, 1 B per row)",
      course::array_bytes(count(nnz), 1, 12) + course::array_bytes(count(sizes.rows), 1, 1));
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
         count(sizes.rows) >= kLongHostWork || static_cast<std::uint64_t>(nnz) >= kLongHostWork / 8;
}

/// S as a uniform random mask of exactly @p nnz entries of a rows×cols matrix, from @p seed
/// (the sizes are checked before).
course::CooMatrix random_sampling(int rows, int cols, long long nnz, std::uint64_t seed,
                                  const std::string& program) {
  if (nnz >= 20000000) {
    std::cerr << program << ": drawing " << nnz << " random positions...\n";
  }
  return course::allocate_on_host(
      "S drawn at random", course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)),
      [&] { return course::random_uniform_mask(rows, cols, static_cast<std::size_t>(nnz), seed); });
}

/// The approaches' names for --help: "1 warp/nonzero, 2 dense WMMA, ...".
std::string approach_list(const std::vector<ApproachEntry>& approaches) {
  std::string text;
  for (const ApproachEntry& approach : approaches) {
    text += (text.empty() ? "" : ", ") + approach.name;
  }
  return text;
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
        const std::unique_ptr<DevicePattern> pattern = approach.upload(sampling);
        const std::unique_ptr<SddmmPlan> plan = approach.make_plan(*pattern, inner);
      },
      warmups, repeats);
}

course::TimingStats time_sddmm(const SddmmPlan& plan, const DenseOperands& operands, float* output,
                               int repeats) {
  return course::time_gpu([&] { plan.run(operands, output); }, 1, repeats);
}

Step5Program::Step5Program(std::string name, std::vector<ApproachEntry> approaches)
    : name_(std::move(name)), approaches_(std::move(approaches)) {}

std::string Step5Program::description() const {
  return "SDDMM C = S o (A*B) at the nonzeros of a sparse S: A is rows x inner, B is inner x "
         "cols (fp16, B stored as its transpose cols x inner), C is float. S is a uniform random "
         "mask of exactly --nnz entries, or the Matrix Market file --matrix. Approaches: " +
         approach_list(approaches_) + "." +
         (approaches_.size() < 4
              ? " Approach 4 (the hybrid) is going_further's program, step5_going_further."
              : "");
}

std::vector<std::string> Step5Program::approach_names() const {
  std::vector<std::string> names;
  for (const ApproachEntry& approach : approaches_) {
    // An entry's name starts with its number ("2 dense WMMA", as the benchmark's tables
    // print it); the runner numbers the list itself.
    names.push_back(approach.name.substr(approach.name.find(' ') + 1));
  }
  return names;
}

std::string Step5Program::approach_note() const {
  return approaches_.size() < 4 ? "approach 4: step5_going_further" : "";
}

void Step5Program::add_options(course::ArgParser& parser) {
  parser.add_integer("--rows", &rows_, 1, INT_MAX, "rows of A and C (and of the mask S)");
  parser.add_integer("--cols", &cols_, 1, INT_MAX, "columns of B and C (and of the mask S)");
  parser.add_integer("--inner", &inner_, 1, 1 << 16, "columns of A and rows of B");
  parser.add_integer("--nnz", &nnz_, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_input_file("--matrix", &matrix_path_, "read S from this .mtx/.mtx.gz instead");
}

void Step5Program::check_sizes(const course::ProductSizes& sizes, long long nnz,
                               course::SamplingSource source,
                               const course::RunChoice& choice) const {
  check_run_sizes(sizes, nnz, source, approaches_.at(choice.approach - 1), choice.verify);
}

void Step5Program::prepare(const course::ArgParser& parser, const course::RunChoice& choice) {
  parser.refuse_together("--matrix", {"--rows", "--cols", "--nnz"},
                         "the file gives S's sizes and entries");
  if (matrix_path_.empty()) {
    if (static_cast<double>(nnz_) > static_cast<double>(rows_) * static_cast<double>(cols_)) {
      throw course::UsageError("--nnz " + std::to_string(nnz_) +
                               " exceeds rows*cols = " + std::to_string(rows_ * cols_));
    }
    const course::ProductSizes sizes{static_cast<int>(rows_), static_cast<int>(inner_),
                                     static_cast<int>(cols_)};
    check_sizes(sizes, nnz_, course::SamplingSource::random_mask, choice);
  }
  // Everything about the inputs is checked, and S made, before looking for a GPU.
  give_large_vectors_their_own_pages();  // before S is made, as the benchmark does
  sampling_ = make_sampling(choice, static_cast<std::uint64_t>(choice.seed));
}

course::CooMatrix Step5Program::make_sampling(const course::RunChoice& choice,
                                              std::uint64_t seed) const {
  if (matrix_path_.empty()) {
    return random_sampling(static_cast<int>(rows_), static_cast<int>(cols_), nnz_, seed, name_);
  }
  const course::MatrixMarketSize size = course::read_matrix_market_size(matrix_path_);
  // The size line's rows and cols are at most INT_MAX (read_matrix_market_size refuses more).
  const course::ProductSizes sizes{static_cast<int>(size.rows), static_cast<int>(inner_),
                                   static_cast<int>(size.cols)};
  check_sizes(sizes, size.max_nonzeros(), course::SamplingSource::file, choice);
  if (size.max_nonzeros() >= 20000000) {
    std::cerr << name_ << ": reading up to " << size.max_nonzeros() << " entries of "
              << matrix_path_ << "...\n";
  }
  return course::allocate_on_host(
      "S read from " + matrix_path_,
      course::array_bytes(static_cast<std::uint64_t>(size.max_nonzeros()), 2, 12),
      [&] { return course::read_matrix_market(matrix_path_); });
}

course::MemoryEstimate Step5Program::memory(const course::RunChoice& choice) const {
  static_cast<void>(choice);
  return {};  // checked by prepare(), from the sizes alone, before S was made
}

course::GpuNeed Step5Program::gpu_need(const course::RunChoice& choice) const {
  static_cast<void>(choice);
  return {7, 0, "Tensor Cores (WMMA)"};
}

int Step5Program::run(const course::RunChoice& choice, const course::GpuDescription& device,
                      std::ostream& out) {
  const ApproachEntry& approach = approaches_.at(choice.approach - 1);
  const bool from_file = !matrix_path_.empty();
  const auto seed = static_cast<std::uint64_t>(choice.seed);
  const course::ProductSizes sizes{sampling_.rows, static_cast<int>(inner_), sampling_.cols};
  const bool say = long_host_work(sizes, static_cast<long long>(sampling_.nnz()));
  out << "GPU: " << device.name << "\n"
      << "approach " << approach.name << ", rows=" << sizes.rows << " cols=" << sizes.cols
      << " inner=" << sizes.inner << " nnz=" << sampling_.nnz() << " seed=" << seed << "\n";

  const HostOperands host = draw_operands(sizes, seed, say, name_);
  const course::DeviceMatrix<__half> device_a(host.a);
  const course::DeviceMatrix<__half> device_b(host.b_transposed);
  // A and Bᵀ are packed: each row is inner elements long.
  const DenseOperands operands(sizes, device_a.data(), sizes.inner, device_b.data(), sizes.inner);
  course::DeviceBuffer<float> output(sampling_.nnz(), "C");
  output.poison();

  // S as every program and the benchmark hold it: CSR, pinned, and a pattern when every value
  // is one.
  const HostSampling host_sampling(sampling_);
  const OtherTimes other = time_other(host_sampling, approach, choice, say);
  const std::unique_ptr<DevicePattern> pattern = approach.upload(host_sampling);
  // Approach 4's upload of a pattern uploads and reads no values; the lesson's writes ones.
  out << "S: " << pattern_values_name(host_sampling.values())
      << (host_sampling.pattern()
              ? (pattern->unit_values() ? " (every value one: none uploaded, none read)"
                                        : " (every value one)")
              : " (each product times its value)")
      << "\n";
  const std::unique_ptr<SddmmPlan> plan = approach.make_plan(*pattern, sizes.inner);
  const std::string plan_line = plan->describe();
  if (!plan_line.empty()) {
    out << plan_line << "\n";
  }
  const course::TimingStats kernel = time_sddmm(*plan, operands, output.data(), choice.repeats);
  out << "sddmm " << kernel.median_ms << " ms (median of " << choice.repeats << ", min "
      << kernel.min_ms << ")\n"
      << "other (upload + preprocessing), first call: " << other.first.median_ms
      << " ms (includes one-time set-up)\n"
      << "other (upload + preprocessing), steady state: " << other.steady.median_ms
      << " ms (median of 3 on "
      << (from_file ? "the same S again" : "a second random S of the same size") << ")\n";
  if (!choice.verify) {
    return 0;
  }
  const SampledReference reference = sddmm_reference(host.a, host.b_transposed, sampling_);
  const course::CompareResult result =
      compare_sampled(output.to_vector(), reference, sampling_,
                      course::Tolerance::tensor_core_fp32_accumulation(sizes.inner));
  return course::report_verification(result, out) ? 0 : 1;
}

Step5Program::OtherTimes Step5Program::time_other(const HostSampling& host_sampling,
                                                  const ApproachEntry& approach,
                                                  const course::RunChoice& choice, bool say) const {
  // "other" = the upload of S and its preprocessing. The first one in a process also pays
  // one-time set-up (the lazy loading of the kernels it launches, the stream-ordered pool's
  // first allocations); a second pattern of the same size shows what every later one costs.
  if (say) {
    std::cerr << name_ << ": preprocessing S 4 times (first call, then 3 steady)...\n";
  }
  const int inner = static_cast<int>(inner_);
  OtherTimes times;
  times.first = time_preprocessing(host_sampling, approach, inner, 0, 1);
  if (!matrix_path_.empty()) {
    // A file has one pattern, so it is used again.
    times.steady = time_preprocessing(host_sampling, approach, inner, 0, 3);
    return times;
  }
  // A random S gets a second draw of the same size.
  const HostSampling second(make_sampling(choice, static_cast<std::uint64_t>(choice.seed) + 1));
  times.steady = time_preprocessing(second, approach, inner, 0, 3);
  return times;
}

}  // namespace course::step5
