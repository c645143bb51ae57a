/// @file step4_program.hpp
/// @brief Step 4's program as the one runner runs it (common/dense_program.hpp): the lesson's
/// three approaches registered with their preconditions and launchers, and the `--demo-unchecked`
/// mode that shows the bug the checks fix. The lesson's program (main.cu) runs approaches 1
/// to 3; going further's (going_further/main.cu) adds the fast kernel as approach 4. Read
/// main.cu first.
#pragma once

#include "common/dense_program.hpp"

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace course::step4 {

/// @brief The lesson's approaches: 1 tiled with the three checks, 2 padding and the unchecked
/// kernel (its padded copies in a workspace the runner keeps between runs), 3 rectangular
/// tiles.
/// @return the approaches, approach 1 first
std::vector<DenseApproach> lesson_approaches();

/// @brief The lesson's program: lesson_approaches(), its texts and sizes (any shape up to
/// kMaxDimension along each side, checked by validate_shape).
/// @return the step
DenseStep lesson_step();

/// @brief Step 4's program: a DenseProgram with one more mode, `--demo-unchecked
/// [--exact-alloc]`, which runs the note's 3×3 example instead of a timed product.
class Step4Program : public DenseProgram {
 public:
  /// @brief The program of @p step (lesson_step(), or going further's with approach 4).
  /// @param step the step
  explicit Step4Program(DenseStep step) : DenseProgram(std::move(step)) {}
  void add_options(ArgParser& parser) override;
  void prepare(const ArgParser& parser, const RunChoice& choice) override;
  MemoryEstimate memory(const RunChoice& choice) const override;
  int run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) override;

 private:
  bool demo_unchecked_ = false;
  bool exact_allocation_ = false;
};

/// @brief The note's 3×3 example with tile width 2: runs the checked kernel and the
/// unchecked one, prints both next to the CPU product, and explains the differences.
/// @param exact_allocation allocate exactly 9 floats per matrix (for compute-sanitizer,
/// which then reports the out-of-bounds accesses); otherwise the allocations get a slack
/// area filled with 100.0 ("someone else's data") so the wrong values are repeatable
/// @return 0 when the checked kernel is right (the unchecked one is expected to be wrong)
int run_unchecked_demo(bool exact_allocation);

}  // namespace course::step4
