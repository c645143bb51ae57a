/// @file step4_program.cu
/// @brief Step 4's program (see step4_program.hpp): the lesson's approaches 1 to 3 registered
/// for the runner, and the demonstration mode.
#include "step4_boundary_checks/step4_program.hpp"

#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/problem_shape.hpp"
#include "step4_boundary_checks/rect_tiles.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"

#include <memory>
#include <string>

namespace course::step4 {
namespace {

/// A lesson approach that launches with a plain launcher: its precondition is its grid's
/// height for tiles of @p tile_rows rows.
DenseApproach checked_grid_approach(const std::string& name, int tile_rows,
                                    const ApproachRun& launch) {
  return plain_approach(
      name,
      [tile_rows, name](const ProductSizes& sizes) { validate_grid_rows(sizes, tile_rows, name); },
      launch);
}

/// Approach 2: the padded copies live in the runner's workspace, reused between its runs.
DenseApproach padded_approach() {
  DenseApproach entry;
  entry.name = "padded + unchecked 32x32";
  entry.check_sizes = [](const ProductSizes& sizes) {
    validate_grid_rows(PaddedWorkspace::padded_sizes(sizes), PaddedWorkspace::kTileWidth,
                       "padded tiling");
  };
  entry.make_run = [] {
    auto workspace = std::make_shared<PaddedWorkspace>();
    return ApproachRun(
        [workspace](const float* a, const float* b, float* c, const ProductSizes& sizes,
                    cudaStream_t stream) { launch_padded(a, b, c, sizes, stream, *workspace); });
  };
  entry.workspace_bytes = [](const ProductSizes& sizes) {
    return PaddedWorkspace::padded_bytes(sizes);
  };
  return entry;
}

}  // namespace

std::vector<DenseApproach> lesson_approaches() {
  using Tiling = DefaultRectTiling;
  return {
      checked_grid_approach(
          "tiled checked 32x32", 32,  // launch_tiled_checked's default tile
          [](const float* a, const float* b, float* c, const ProductSizes& sizes,
             cudaStream_t stream) { launch_tiled_checked(a, b, c, sizes, stream); }),
      padded_approach(),
      checked_grid_approach("rect tiles 64x16 by 16x64", Tiling::kTileRows,
                            [](const float* a, const float* b, float* c, const ProductSizes& sizes,
                               cudaStream_t stream) { launch_rect_tiles(a, b, c, sizes, stream); }),
  };
}

DenseStep lesson_step() {
  DenseStep step;
  step.program = "step4_boundary_checks";
  step.label = "step 4";
  step.description =
      "Tiled matrix product C = A.B for any shape (A is rows x inner, B is inner x cols). "
      "Approaches: 1 tiled with the three boundary checks, 2 zero padding + the unchecked "
      "kernel, 3 rectangular tiles. --demo-unchecked shows the bug the checks fix on the "
      "note's 3x3 example. The fast kernel is going_further's step4_fast_gemm; the "
      "benchmarks are the lab's programs.";
  step.approach_note = "the fast kernel is approach 4 of step4_fast_gemm";
  // A shape the padded copies and the fast kernel's thin paths exercise: no side a multiple
  // of 32.
  step.sizes.defaults = {1000, 777, 1031};
  step.sizes.max = kMaxDimension;
  step.sizes.size_help = "rows = inner = cols (instead of --rows/--inner/--cols)";
  step.sizes.check_shape = [](const ProductSizes& sizes) {
    validate_shape(sizes.rows, sizes.inner, sizes.cols);
  };
  step.approaches = lesson_approaches();
  return step;
}

void Step4Program::add_options(ArgParser& parser) {
  DenseProgram::add_options(parser);
  parser.add_flag("--demo-unchecked", &demo_unchecked_,
                  "run the unchecked kernel on the note's 3x3 example (tile width 2)");
  parser.add_flag("--exact-alloc", &exact_allocation_,
                  "with --demo-unchecked: no slack after the matrices (for compute-sanitizer)");
}

void Step4Program::prepare(const ArgParser& parser, const RunChoice& choice) {
  parser.refuse_unless({"--exact-alloc"}, demo_unchecked_, "--demo-unchecked");
  parser.refuse_together("--demo-unchecked",
                         {"--size", "--rows", "--inner", "--cols", "--approach", "--seed"},
                         "the demonstration runs the note's 3x3 example");
  parser.refuse_together("--demo-unchecked", {"--repeats"}, "the demonstration runs once");
  if (!demo_unchecked_) {
    DenseProgram::prepare(parser, choice);
  }
}

MemoryEstimate Step4Program::memory(const RunChoice& choice) const {
  // The demonstration's three 3×3 matrices need no check.
  return demo_unchecked_ ? MemoryEstimate{} : DenseProgram::memory(choice);
}

int Step4Program::run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) {
  return demo_unchecked_ ? run_unchecked_demo(exact_allocation_)
                         : DenseProgram::run(choice, device, out);
}

}  // namespace course::step4
