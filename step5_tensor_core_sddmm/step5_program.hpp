/// @file step5_program.hpp
/// @brief Step 5's program: a course::SampledProgram (common/sampled_program.hpp: S, A, B and
/// the DEBUG check) that times the chosen approach's upload and plan ("other") and kernel. The
/// lesson's program (main.cu: approaches 1 to 3) and going_further's (approaches 1 to 4) share
/// it.
#pragma once

#include "common/host_sampling.hpp"
#include "common/sampled_program.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief Times "other" as the program and the benchmark both time it: @p warmups untimed
/// calls, then @p repeats timed ones of the approach's upload of S (ApproachEntry::upload) and
/// its plan, whose constructor waits for the GPU. S's conversion to CSR and its pinning
/// (HostSampling) are made once per S, before, and are not in it.
/// @param sampling S on the host
/// @param approach the approach
/// @param inner the inner size
/// @param warmups untimed calls first
/// @param repeats timed calls
/// @return wall times (ms)
course::TimingStats time_preprocessing(const course::HostSampling& sampling,
                                       const ApproachEntry& approach, int inner, int warmups,
                                       int repeats);

/// @brief Times the SDDMM of a plan as the program and the benchmark both time it: one untimed
/// run, then @p repeats runs, each between two CUDA events (course::time_gpu).
/// @param plan the plan
/// @param operands A and Bᵀ
/// @param output device array of S's entries
/// @param repeats timed runs
/// @return kernel times (ms): the median is the figure quoted
course::TimingStats time_sddmm(const SddmmPlan& plan, const DenseOperands& operands, float* output,
                               int repeats);

/// @brief Step 5's program: run_approach() says whether S is a pattern and what the plan does
/// with it, and times "other" (first call and steady state) and the kernel.
class Step5Program : public course::SampledProgram {
 public:
  /// @brief The program @p name offering @p approaches (numbered 1, 2, ... in order).
  /// @param name the program's name, for messages and --help
  /// @param approaches lesson_approaches(), with approach 4 appended by going_further
  Step5Program(std::string name, std::vector<ApproachEntry> approaches);

  std::string name() const override { return name_; }
  std::string description() const override;
  std::vector<std::string> approach_names() const override;
  std::string approach_note() const override;
  course::GpuNeed gpu_need(const course::RunChoice& choice) const override;

 protected:
  void add_approach_needs(int approach, const course::ProductSizes& sizes, std::uint64_t nnz,
                          course::MemoryEstimate& estimate) const override;
  void run_approach(const course::RunChoice& choice, const course::SampledInputs& inputs,
                    std::ostream& out) override;

 private:
  /// The preprocessing's wall times: the first call in the process and the steady state.
  struct OtherTimes {
    course::TimingStats first;   // includes one-time set-up
    course::TimingStats steady;  // median of 3 on a second S of the same size (or the same file)
  };
  /// Times the upload and preprocessing of S for @p approach (time_preprocessing).
  OtherTimes time_other(const course::SampledInputs& inputs, const ApproachEntry& approach,
                        const course::RunChoice& choice) const;
  std::string name_;
  std::vector<ApproachEntry> approaches_;
};

}  // namespace course::step5
