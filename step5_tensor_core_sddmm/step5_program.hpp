/// @file step5_program.hpp
/// @brief Step 5's program, apart from main(): the command line, S (random or read), the
/// timed runs of the chosen approach and the DEBUG check. It takes the list of approaches it
/// offers, so that the lesson's program (main.cu: approaches 1 to 3) and going_further's
/// (going_further/main.cu: approaches 1 to 4) share it.
///
/// Step 5, the program (lesson "Build and run"): one SDDMM with the chosen approach.
/// Read first: step5_launchers.hpp (ApproachEntry, the API it calls), then main.cu.
#pragma once

#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/device_pattern/host_sampling.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <string>
#include <vector>

namespace course::step5 {

/// @brief What makes a step 5 program: its name, the approaches it offers and the one it
/// runs when `--approach` is not given.
struct ProgramSetup {
  std::string name;                       ///< the program's name, for messages and --help
  std::vector<ApproachEntry> approaches;  ///< numbered 1, 2, ... in order
  int default_approach = 1;               ///< APPROACH: one of the approaches' numbers
  bool debug_check = false;               ///< DEBUG: check the result against the CPU reference
  PatternUpload upload = upload_pattern;  ///< how S goes to the device (host_sampling.hpp)
};

/// @brief Times "other", the upload of S and the approach's preprocessing, as the program and
/// the benchmark both time it: @p warmups untimed calls, then @p repeats timed ones, each
/// making S on the device from @p sampling (pattern or values as it says) and the approach's
/// plan, and waiting for the GPU (the plan's constructor does). S's conversion to CSR and its
/// pinning are made once per S, before, and are not in it.
/// @param sampling S on the host
/// @param upload how S goes to the device
/// @param approach the approach
/// @param inner the inner size
/// @param warmups untimed calls first
/// @param repeats timed calls
/// @return wall times (ms)
course::TimingStats time_preprocessing(const HostSampling& sampling, const PatternUpload& upload,
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

/// @brief Runs one SDDMM: parses the command line, makes S (a uniform random mask or a
/// Matrix Market file), checks the sizes against the memory before any work, says whether S
/// is a pattern (HostSampling) and what the plan does with it, times the upload and
/// preprocessing ("other", first call and steady state: time_preprocessing) and the kernel
/// (time_sddmm), and with DEBUG compares the result with the CPU reference in double.
/// @param setup the program's name, approaches and switches
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a suitable GPU
int run_step5_program(const ProgramSetup& setup, int argc, char** argv);

}  // namespace course::step5
