/// @file step4_program.cu
/// @brief The step-4 program's body (see step4_program.hpp) and the lesson's approaches 1 to 3.
#include "step4_boundary_checks/step4_program.hpp"

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/memory_estimate.hpp"
#include "common/timed_product.hpp"
#include "step4_boundary_checks/padded.cuh"
#include "step4_boundary_checks/problem_shape.hpp"
#include "step4_boundary_checks/rect_tiles.cuh"
#include "step4_boundary_checks/step4_launchers.hpp"

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

namespace course::step4 {
namespace {

/// What the command line asked for.
struct ProgramOptions {
  ProductSizes sizes;
  int approach = 1;
  long long seed = kFreshSeed;  // a real seed once parsed (printed with the result)
  int repeats = 10;
  bool demo_unchecked = false;
  bool exact_allocation = false;
};

/// A lesson approach that launches with a plain launcher and needs no workspace.
ProgramApproach plain_approach(Approach approach, int tile_rows, const ApproachRun& run) {
  ProgramApproach entry;
  entry.number = static_cast<int>(approach);
  entry.name = approach_name(approach);
  entry.check_sizes = [tile_rows, name = entry.name](const ProductSizes& sizes) {
    validate_grid_rows(sizes, tile_rows, name);
  };
  entry.make_run = [run] { return run; };
  return entry;
}

/// Approach 2: the padded copies live in the runner's workspace, reused between its runs.
ProgramApproach padded_approach() {
  ProgramApproach entry;
  entry.number = static_cast<int>(Approach::padded);
  entry.name = approach_name(Approach::padded);
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

/// Refuses options of the other mode and --size with the sizes it sets.
void check_modes(const ArgParser& parser, bool demo_unchecked) {
  parser.refuse_unless({"--exact-alloc"}, demo_unchecked, "--demo-unchecked");
  parser.refuse_together("--demo-unchecked",
                         {"--size", "--rows", "--inner", "--cols", "--approach", "--seed"},
                         "the demonstration runs the note's 3x3 example");
  parser.refuse_together("--demo-unchecked", {"--repeats"}, "the demonstration runs once");
  parser.refuse_together("--size", {"--rows", "--inner", "--cols"},
                         "--size sets all three; give either --size or the three sizes");
}

/// The approach numbered @p number in @p program.
const ProgramApproach& find_approach(const Step4Program& program, int number) {
  for (const ProgramApproach& approach : program.approaches) {
    if (approach.number == number) {
      return approach;
    }
  }
  throw UsageError("--approach " + std::to_string(number) + " is not an approach of " +
                   program.name);
}

/// Parses the command line; false for --help. Every check that needs no GPU is made here.
bool parse_options(const Step4Program& program, int argc, char** argv, int default_approach,
                   ProgramOptions& options) {
  long long size = 1000;
  long long rows = 1000;
  long long inner = 777;
  long long cols = 1031;
  long long approach = default_approach;
  long long repeats = options.repeats;
  long long seed = options.seed;
  ArgParser parser(program.name, program.description);
  parser.add_integer("--size", &size, 1, kMaxDimension,
                     "rows = inner = cols (instead of --rows/--inner/--cols)");
  parser.add_integer("--rows", &rows, 1, kMaxDimension, "rows of A and C");
  parser.add_integer("--inner", &inner, 1, kMaxDimension, "columns of A and rows of B");
  parser.add_integer("--cols", &cols, 1, kMaxDimension, "columns of B and C");
  std::string approach_help;
  for (const ProgramApproach& entry : program.approaches) {
    approach_help +=
        (approach_help.empty() ? "" : ", ") + std::to_string(entry.number) + " " + entry.name;
  }
  parser.add_integer("--approach", &approach, 1, static_cast<long long>(program.approaches.size()),
                     approach_help + " (default: APPROACH in main.cu)");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs (the median is reported)");
  parser.add_seed(&seed, "seed of the random inputs (A and B)");
  parser.add_flag("--demo-unchecked", &options.demo_unchecked,
                  "run the unchecked kernel on the note's 3x3 example (tile width 2)");
  parser.add_flag("--exact-alloc", &options.exact_allocation,
                  "with --demo-unchecked: no slack after the matrices (for compute-sanitizer)");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  check_modes(parser, options.demo_unchecked);
  if (parser.given("--size")) {
    rows = inner = cols = size;
  }
  options.approach = static_cast<int>(approach);
  options.repeats = static_cast<int>(repeats);
  options.seed = seed;
  if (options.demo_unchecked) {
    return true;
  }
  // Cheap checks first: the sizes, then the chosen approach's grid, before any input is made.
  try {
    options.sizes = validate_shape(rows, inner, cols);
    find_approach(program, options.approach).check_sizes(options.sizes);
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
  return true;
}

/// What one product allocates: A, B, C (with DEBUG, the check's arrays) and the workspace.
MemoryEstimate product_estimate(const ProgramApproach& approach, const ProductSizes& sizes,
                                bool verify) {
  MemoryEstimate estimate = dense_product_estimate(sizes, verify);
  if (approach.workspace_bytes) {
    estimate.device(approach.name + " workspace", approach.workspace_bytes(sizes));
  }
  return estimate;
}

int run_product(const Step4Program& program, const ProgramOptions& options, bool verify) {
  const ProgramApproach& approach = find_approach(program, options.approach);
  require_memory(product_estimate(approach, options.sizes, verify),
                 "use smaller --rows, --inner, --cols");
  const GpuDescription& device = require_cuda_device();
  if (approach.describe_run) {
    std::cout << approach.describe_run(options.sizes) << "\n";
  }
  const ApproachRun run = approach.make_run();
  TimedProduct product;
  product.label = "step 4, approach " + std::to_string(approach.number) + " (" + approach.name +
                  ") on " + device.name + "\n";
  product.sizes = options.sizes;
  product.seed = options.seed;
  product.repeats = options.repeats;
  const ProductSizes sizes = options.sizes;
  return run_timed_product(
      product, [&](const float* a, const float* b, float* c) { run(a, b, c, sizes, nullptr); },
      verify, std::cout);
}

}  // namespace

std::vector<ProgramApproach> lesson_approaches() {
  using Tiling = DefaultRectTiling;
  return {
      plain_approach(Approach::tiled_checked, 32,  // launch_tiled_checked's default tile
                     [](const float* a, const float* b, float* c, const ProductSizes& sizes,
                        cudaStream_t stream) { launch_tiled_checked(a, b, c, sizes, stream); }),
      padded_approach(),
      plain_approach(Approach::rect_tiles, Tiling::kTileRows,
                     [](const float* a, const float* b, float* c, const ProductSizes& sizes,
                        cudaStream_t stream) { launch_rect_tiles(a, b, c, sizes, stream); }),
  };
}

Step4Program lesson_program() {
  return {"step4_boundary_checks",
          "Tiled matrix product C = A.B for any shape (A is rows x inner, B is inner x cols). "
          "Approaches: 1 tiled with the three boundary checks, 2 zero padding + the unchecked "
          "kernel, 3 rectangular tiles. --demo-unchecked shows the bug the checks fix on the "
          "note's 3x3 example. The fast kernel is going_further's step4_fast_gemm; the "
          "benchmarks are the lab's programs.",
          lesson_approaches()};
}

int run_step4_program(const Step4Program& program, int argc, char** argv, int default_approach,
                      bool verify) {
  return run_program(program.name, [&] {
    ProgramOptions options;
    if (!parse_options(program, argc, argv, default_approach, options)) {
      return 0;
    }
    if (options.demo_unchecked) {
      return run_unchecked_demo(options.exact_allocation);
    }
    return run_product(program, options, verify);
  });
}

}  // namespace course::step4
