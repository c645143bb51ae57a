/// @file fragment_layout.cu
/// @brief The note's fragment experiment: prints, for the running GPU, which output element
/// each lane holds in a WMMA float accumulator for 16×16×16, 32×8×16 and 8×32×16, and
/// whether fragment_map.cuh (used by the kernels) agrees.
///
/// Step 5, experiment "which lane holds which element" (the lesson): the program.
/// Read first: fragment_probe.hpp, then ../fragment_map.cuh (the maps it checks).
#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/table.hpp"
#include "step5_tensor_core_sddmm/lab/experiments/fragment_probe.hpp"

#include <iostream>
#include <cstddef>

namespace {

int run(int argc, char** argv) {
  course::ArgParser parser("fragment_layout",
                           "Measures the lane -> [row,col] map of WMMA accumulator fragments by "
                           "loading a matrix whose element (r,c) holds r*cols+c.");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  std::cout << course::benchmark_header() << "\n\n";
  int disagreements = 0;
  for (const course::step5::WmmaShape shape :
       {course::step5::WmmaShape::m16n16k16, course::step5::WmmaShape::m32n8k16,
        course::step5::WmmaShape::m8n32k16}) {
    const auto layout = course::step5::measure_accumulator_layout(shape);
    int differing = 0;
    for (int lane = 0; lane < 32; ++lane) {
      for (int index = 0; index < course::step5::kAccumulatorElementsPerLane; ++index) {
        const auto measured = layout[static_cast<std::size_t>(lane * 8 + index)];
        const auto mapped = course::step5::accumulator_element(shape, lane, index);
        differing += (measured.row != mapped.row || measured.col != mapped.col) ? 1 : 0;
      }
    }
    disagreements += differing;
    std::cout << "## " << course::step5::shape_name(shape) << " accumulator (float)\n\n"
              << course::step5::layout_table(layout) << "\n"
              << "fragment_map.cuh " << (differing == 0 ? "agrees" : "DISAGREES") << " ("
              << differing << " of 256 entries differ)\n\n";
  }
  return disagreements == 0 ? 0 : 1;
}

}  // namespace

/// @brief Measures and prints the lane-to-element tables of the accumulator fragments.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  return course::run_program("fragment_layout", [&] { return run(argc, argv); });
}
