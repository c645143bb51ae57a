/// @file step5_program.cpp
/// @brief Step5Program: its texts, what each approach allocates, the chosen approach's runs.
#include "step5_tensor_core_sddmm/step5_program.hpp"

#include "common/memory_estimate.hpp"

#include <cstddef>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

namespace course::step5 {
namespace {

/// The approaches' names for --help: "1 warp/nonzero, 2 dense WMMA, ...".
std::string approach_list(const std::vector<ApproachEntry>& approaches) {
  std::string text;
  for (const ApproachEntry& approach : approaches) {
    text += (text.empty() ? "" : ", ") + approach.name;
  }
  return text;
}

}  // namespace

course::TimingStats time_preprocessing(const course::HostSampling& sampling,
                                       const ApproachEntry& approach, int inner, int warmups,
                                       int repeats) {
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

course::GpuNeed Step5Program::gpu_need(const course::RunChoice& choice) const {
  static_cast<void>(choice);
  return {7, 0, "Tensor Cores (WMMA)"};
}

void Step5Program::add_approach_needs(int approach, const course::ProductSizes& sizes,
                                      std::uint64_t nnz, course::MemoryEstimate& estimate) const {
  // The upload's own: the lesson's expands S to COO (12 B per entry); approach 4's keeps
  // figures of every 64 rows (going_further/panel_pattern.hpp), well under 1 B per row.
  estimate.host("S's upload (12 B per entry, 1 B per row)",
                course::array_bytes(nnz, 1, 12) +
                    course::array_bytes(static_cast<std::uint64_t>(sizes.rows), 1, 1));
  const ApproachEntry& entry = approaches_.at(static_cast<std::size_t>(approach - 1));
  if (entry.number == static_cast<int>(Approach::dense_wmma)) {
    check_dense_limit(sizes.rows, sizes.cols, Options{}.dense_limit_elements);
    estimate.device("approach 2's dense rows x cols product",
                    dense_product_bytes(sizes.rows, sizes.cols));
  } else if (entry.plan_bytes_per_nonzero > 0) {
    estimate.device("the plan's tables (about " + std::to_string(entry.plan_bytes_per_nonzero) +
                        " B per nonzero)",
                    course::array_bytes(nnz, 1, entry.plan_bytes_per_nonzero));
  }
}

void Step5Program::run_approach(const course::RunChoice& choice,
                                const course::SampledInputs& inputs, std::ostream& out) {
  const ApproachEntry& approach = approaches_.at(static_cast<std::size_t>(choice.approach - 1));
  const course::HostSampling& sampling = inputs.sampling;
  // A and Bᵀ are packed: each row is inner elements long.
  const DenseOperands operands(inputs.sizes, inputs.a, inputs.sizes.inner, inputs.b_transposed,
                               inputs.sizes.inner);
  const OtherTimes other = time_other(inputs, approach, choice);
  const std::unique_ptr<DevicePattern> pattern = approach.upload(sampling);
  // Approach 4's upload of a pattern uploads and reads no values; the lesson's writes ones.
  out << "S: " << course::pattern_values_name(sampling.values())
      << (sampling.pattern()
              ? (pattern->unit_values() ? " (every value one: none uploaded, none read)"
                                        : " (every value one)")
              : " (each product times its value)")
      << "\n";
  const std::unique_ptr<SddmmPlan> plan = approach.make_plan(*pattern, inputs.sizes.inner);
  const std::string plan_line = plan->describe();
  if (!plan_line.empty()) {
    out << plan_line << "\n";
  }
  const course::TimingStats kernel = time_sddmm(*plan, operands, inputs.output, choice.repeats);
  out << "sddmm " << kernel.median_ms << " ms (median of " << choice.repeats << ", min "
      << kernel.min_ms << ")\n"
      << "other (upload + preprocessing), first call: " << other.first.median_ms
      << " ms (includes one-time set-up)\n"
      << "other (upload + preprocessing), steady state: " << other.steady.median_ms
      << " ms (median of 3 on "
      << (from_file() ? "the same S again" : "a second random S of the same size") << ")\n";
}

Step5Program::OtherTimes Step5Program::time_other(const course::SampledInputs& inputs,
                                                  const ApproachEntry& approach,
                                                  const course::RunChoice& choice) const {
  // "other" = the upload of S and its preprocessing. The first one in a process also pays
  // one-time set-up (the lazy loading of the kernels it launches, the stream-ordered pool's
  // first allocations); a second pattern of the same size shows what every later one costs.
  if (inputs.say) {
    std::cerr << name_ << ": preprocessing S 4 times (first call, then 3 steady)...\n";
  }
  const int inner = inputs.sizes.inner;
  OtherTimes times;
  times.first = time_preprocessing(inputs.sampling, approach, inner, 0, 1);
  if (from_file()) {
    // A file has one pattern, so it is used again.
    times.steady = time_preprocessing(inputs.sampling, approach, inner, 0, 3);
    return times;
  }
  // A random S gets a second draw of the same size.
  const course::HostSampling second(second_random_sampling(choice));
  times.steady = time_preprocessing(second, approach, inner, 0, 3);
  return times;
}

}  // namespace course::step5
