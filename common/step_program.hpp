/// @file step_program.hpp
/// @brief The one runner of the course's programs: every step's main() describes its program
/// as a StepProgram (its texts, its numbered approaches, the options it adds) and hands it to
/// run_step_program, which parses the command line, checks everything that needs no GPU,
/// checks the memory, looks for a GPU and runs the chosen approach.
///
/// Steps 1 to 4 multiply dense matrices and register their approaches as DenseApproach
/// entries of a DenseProgram (common/dense_program.hpp); step 5 samples a product at a sparse
/// matrix: its program is a SampledProgram (common/sampled_program.hpp) that runs its
/// approaches (step5_tensor_core_sddmm/step5_program.hpp). Both run
/// through this file, so every program takes `--approach`, `--seed` and `--repeats` the same
/// way, with the same defaults, and turns errors into the same exit codes.
#pragma once

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/memory_estimate.hpp"

#include <iosfwd>
#include <string>
#include <vector>

namespace course {

/// @brief Timed runs every program makes of its kernel by default (the median is printed).
constexpr int kProgramRepeats = 5;

/// @brief What every program's command line chooses, whatever its step.
struct RunChoice {
  int approach = 1;               ///< the approach to run (`--approach`, or main.cu's APPROACH)
  long long seed = kFreshSeed;    ///< seed of the random inputs: a real one once parsed
  int repeats = kProgramRepeats;  ///< timed runs (`--repeats`)
  bool verify = false;            ///< check the result on the CPU (main.cu's DEBUG)
};

/// @brief A compute capability an approach needs and what needs it (for the message).
struct GpuNeed {
  int major = 0;        ///< compute capability, major part (0: the course's minimum)
  int minor = 0;        ///< compute capability, minor part
  std::string feature;  ///< what needs it, e.g. "Tensor Cores (WMMA)"
};

/// @brief A step's program as run_step_program runs it. A step derives from it, keeps its
/// own options as members, and answers the runner's questions in the order the runner asks
/// them: add_options, then prepare (no GPU yet), memory, gpu_need, then run (with a GPU).
class StepProgram {
 public:
  virtual ~StepProgram() = default;
  /// @brief The program's name, for --help and messages (e.g. "step2_three_approaches").
  virtual std::string name() const = 0;
  /// @brief The --help paragraph.
  virtual std::string description() const = 0;
  /// @brief The approaches' names, approach 1 first: `--approach` takes 1 to their count.
  virtual std::vector<std::string> approach_names() const = 0;
  /// @brief Said after the default in `--approach`'s help, e.g. "approach 4:
  /// step5_going_further" (empty: nothing).
  virtual std::string approach_note() const { return {}; }
  /// @brief Said after "timed runs; the median is printed" in `--repeats`'s help.
  virtual std::string repeats_note() const { return {}; }
  /// @brief Adds the step's own options to @p parser (their values go to members).
  /// @param parser the parser, already holding --approach, --seed and --repeats
  virtual void add_options(ArgParser& parser) = 0;
  /// @brief Checks the parsed options together with @p choice and does the work that needs no
  /// GPU (step 5 reads S here), so that a bad input is refused on a machine without one.
  /// Throws UsageError for a bad option (exit status 2), another exception for a bad input
  /// (a malformed file: exit status 1), each naming the problem.
  /// @param parser the parser after parse(), to ask which options were given
  /// @param choice approach, seed, repeats and verify as parsed
  virtual void prepare(const ArgParser& parser, const RunChoice& choice) = 0;
  /// @brief What the run will allocate, for course::require_memory before any work.
  /// @param choice the checked choice
  /// @return the estimate (empty when the step checks its memory later itself)
  virtual MemoryEstimate memory(const RunChoice& choice) const = 0;
  /// @brief What to do when memory() does not fit, e.g. "use smaller sizes".
  virtual std::string memory_advice() const { return "use smaller sizes"; }
  /// @brief The GPU the chosen approach needs, beyond the course's minimum (sm_75).
  /// @param choice the checked choice
  virtual GpuNeed gpu_need(const RunChoice& choice) const {
    static_cast<void>(choice);
    return {};
  }
  /// @brief Runs the chosen approach (a GPU is there) and prints the report.
  /// @param choice the checked choice
  /// @param device the GPU it runs on
  /// @param out where the report is printed
  /// @return the exit code: 0, or 1 for a wrong answer
  virtual int run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) = 0;
};

/// @brief Parses and checks the command line of @p program: `--approach` (1 to the number of
/// approaches), `--seed`, `--repeats` and the program's own options; then
/// StepProgram::prepare. Needs no GPU. Throws UsageError for anything it refuses.
/// @param program the program
/// @param argc argument count
/// @param argv arguments (argv[0] is the program name)
/// @param choice receives the choice; its approach and verify on entry are the defaults
/// (main.cu's APPROACH and DEBUG)
/// @return false when --help was given (the usage text is already printed)
bool parse_step_program(StepProgram& program, int argc, char** argv, RunChoice& choice);

/// @brief The whole program, as main() runs it: parse_step_program (refusing bad options
/// before looking for a GPU), require_memory(StepProgram::memory), require_cuda_device (with
/// StepProgram::gpu_need), then StepProgram::run; errors become messages and exit codes
/// (course::run_program).
/// @param program the program
/// @param argc argument count
/// @param argv arguments
/// @param default_approach main.cu's APPROACH
/// @param verify main.cu's DEBUG (course::kDebugCheck)
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int run_step_program(StepProgram& program, int argc, char** argv, int default_approach,
                     bool verify);

}  // namespace course
