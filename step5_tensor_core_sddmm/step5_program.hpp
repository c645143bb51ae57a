/// @file step5_program.hpp
/// @brief Step 5's program as the one runner runs it (common/step_program.hpp): its own
/// options (S's sizes or file, the inner size), S (random or read), the timed runs of the
/// chosen approach and the DEBUG check. It takes the list of approaches it offers, so that
/// the lesson's program (main.cu: approaches 1 to 3) and going_further's
/// (going_further/main.cu: approaches 1 to 4) share it.
///
/// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
/// Read first: step5_launchers.hpp (ApproachEntry, the API it calls), then main.cu.
#pragma once

#include "common/product_sizes.hpp"
#include "common/sparse_matrix.hpp"
#include "common/step_program.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/device_pattern/host_sampling.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief Times "other", the upload of S and the approach's preprocessing, as the program and
/// the benchmark both time it: @p warmups untimed calls, then @p repeats timed ones, each
/// making S on the device from @p sampling (pattern or values as it says) with the approach's
/// upload (ApproachEntry::upload) and the approach's plan, and waiting for the GPU (the plan's
/// constructor does). S's conversion to CSR and its pinning are made once per S, before, and are
/// not in it.
/// @param sampling S on the host
/// @param approach the approach
/// @param inner the inner size
/// @param warmups untimed calls first
/// @param repeats timed calls
/// @return wall times (ms)
course::TimingStats time_preprocessing(const HostSampling& sampling, const ApproachEntry& approach,
                                       int inner, int warmups, int repeats);

/// @brief Times the SDDMM of a plan as the program and the benchmark both time it: one untimed
/// run, then @p repeats runs, each between two CUDA events (course::time_gpu).
/// @param plan the plan
/// @param operands A and Bᵀ
/// @param output device array of S's entries
/// @param repeats timed runs
/// @return kernel times (ms): the median is the figure quoted
course::TimingStats time_sddmm(const SddmmPlan& plan, const DenseOperands& operands, float* output,
                               int repeats);

/// @brief Step 5's program: one SDDMM with the chosen approach. Its options make S (a
/// uniform random mask of `--nnz` entries, or the Matrix Market file `--matrix`) and size A
/// and B (`--inner`); prepare() checks the sizes against the memory and makes S before any
/// GPU call; run() says whether S is a pattern (HostSampling) and what the plan does with it,
/// times the upload and preprocessing ("other", first call and steady state:
/// time_preprocessing) and the kernel (time_sddmm), and with DEBUG compares the result with
/// the CPU reference in double.
class Step5Program : public course::StepProgram {
 public:
  /// @brief The program @p name offering @p approaches (numbered 1, 2, ... in order).
  /// @param name the program's name, for messages and --help
  /// @param approaches lesson_approaches(), with approach 4 appended by going_further
  Step5Program(std::string name, std::vector<ApproachEntry> approaches);

  std::string name() const override { return name_; }
  std::string description() const override;
  std::vector<std::string> approach_names() const override;
  std::string approach_note() const override;
  std::string repeats_note() const override { return "of the kernel"; }
  void add_options(course::ArgParser& parser) override;
  void prepare(const course::ArgParser& parser, const course::RunChoice& choice) override;
  course::MemoryEstimate memory(const course::RunChoice& choice) const override;
  course::GpuNeed gpu_need(const course::RunChoice& choice) const override;
  int run(const course::RunChoice& choice, const course::GpuDescription& device,
          std::ostream& out) override;

 private:
  /// Refuses sizes whose allocations cannot fit (before S is drawn or read).
  void check_sizes(const course::ProductSizes& sizes, long long nnz, course::SamplingSource source,
                   const course::RunChoice& choice) const;
  /// S drawn at random (seed) or read from the file, after the checks its sizes allow.
  course::CooMatrix make_sampling(const course::RunChoice& choice, std::uint64_t seed) const;
  /// The preprocessing's wall times: the first call in the process and the steady state.
  struct OtherTimes {
    course::TimingStats first;   // includes one-time set-up
    course::TimingStats steady;  // median of 3 on a second S of the same size (or the same file)
  };
  /// Times the upload and preprocessing of S for @p approach (time_preprocessing).
  OtherTimes time_other(const HostSampling& host_sampling, const ApproachEntry& approach,
                        const course::RunChoice& choice, bool say) const;
  std::string name_;
  std::vector<ApproachEntry> approaches_;
  long long rows_ = 3000;
  long long inner_ = 256;
  long long cols_ = 7000;
  long long nnz_ = 313110;
  std::string matrix_path_;  // empty: S is a random mask
  course::CooMatrix sampling_;
};

}  // namespace course::step5
