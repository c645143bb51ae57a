/// @file step4_program.hpp
/// @brief The step-4 program's body: its command line, one timed product of the chosen approach
/// with the DEBUG check, and the demonstration of the unchecked kernel's bug. The lesson's
/// program (main.cu) runs it with approaches 1 to 3; going further's (going_further/main.cu)
/// with the fast kernel as approach 4 as well. Read main.cu first.
#pragma once

#include "common/product_sizes.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace course::step4 {

/// @brief Multiplies device matrices, C = A·B with A rows×inner and B inner×cols: a launcher
/// bound to its settings (and to a workspace it reuses, where it has one).
using ApproachRun = std::function<void(const float* a, const float* b, float* c,
                                       const ProductSizes& sizes, cudaStream_t stream)>;

/// @brief One approach of the program, as its list describes it.
struct ProgramApproach {
  int number = 0;    ///< its number (`--approach`, APPROACH)
  std::string name;  ///< short name for reports and tables, e.g. "tiled checked 32x32"
  /// @brief Throws std::invalid_argument unless the approach can multiply these sizes (its
  /// grid's limits). Runs before any input is made and before the program looks for a GPU.
  std::function<void(const ProductSizes& sizes)> check_sizes;
  /// @brief A new runner of the approach; a workspace it holds (the padded copies) lives as
  /// long as the runner and is reused by its repeated runs.
  std::function<ApproachRun()> make_run;
  /// @brief Device bytes the approach allocates besides A, B and C (empty: none).
  std::function<std::size_t(const ProductSizes& sizes)> workspace_bytes;
  /// @brief A line saying how the approach will run these sizes, printed before the timing
  /// (empty: nothing to say). May use the GPU.
  std::function<std::string(const ProductSizes& sizes)> describe_run;
};

/// @brief The lesson's approaches: 1 tiled with the three checks, 2 padding and the unchecked
/// kernel, 3 rectangular tiles.
/// @return the approaches, in order
std::vector<ProgramApproach> lesson_approaches();

/// @brief What makes a program of this body: its name, its --help text and its approaches.
struct Step4Program {
  std::string name;                         ///< program name, for --help and messages
  std::string description;                  ///< the --help paragraph
  std::vector<ProgramApproach> approaches;  ///< numbered 1, 2, ... in order
};

/// @brief The lesson's program: lesson_approaches() and its texts.
/// @return the program
Step4Program lesson_program();

/// @brief The whole program, as main() runs it. Parses the options (`--size` or `--rows
/// --inner --cols`, `--approach`, `--repeats`, `--seed`; or `--demo-unchecked [--exact-alloc]`)
/// and checks everything that needs no GPU first (the sizes, the approach's grid, the memory);
/// then requires a GPU and runs one timed product, checked against the serial CPU product when
/// @p verify is true (DEBUG), or the demonstration. Errors become messages and exit codes
/// (course::run_program).
/// @param program the program's name, texts and approaches
/// @param argc argument count
/// @param argv arguments
/// @param default_approach main.cu's APPROACH
/// @param verify main.cu's DEBUG (course::kDebugCheck)
/// @return 0 on success, 1 for a wrong answer or an error, 2 for a bad command line, 3
/// without a GPU
int run_step4_program(const Step4Program& program, int argc, char** argv, int default_approach,
                      bool verify);

/// @brief The note's 3×3 example with tile width 2: runs the checked kernel and the
/// unchecked one, prints both next to the CPU product, and explains the differences.
/// @param exact_allocation allocate exactly 9 floats per matrix (for compute-sanitizer,
/// which then reports the out-of-bounds accesses); otherwise the allocations get a slack
/// area filled with 100.0 ("someone else's data") so the wrong values are repeatable
/// @return 0 when the checked kernel is right (the unchecked one is expected to be wrong)
int run_unchecked_demo(bool exact_allocation);

}  // namespace course::step4
