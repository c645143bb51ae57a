/// @file shuffle_mask_main.cu
/// @brief The shuffle lesson as a program: sums over a partial warp with a correct and, on
/// request (--undefined), an undefined shuffle mask.
///
/// Step 5, experiment "The shuffle mask" (the lesson): the program.
/// Read first: shuffle_mask.hpp.
#include "common/cli.hpp"
#include "common/device.hpp"
#include "step5_tensor_core_sddmm/lab/experiments/shuffle_mask.hpp"

#include <iostream>

namespace {

int run(int argc, char** argv) {
  bool run_undefined = false;
  course::ArgParser parser(
      "shuffle_mask",
      "Lane l holds l+1; lanes >= A leave before a shuffle reduction. Prints the sum lane 0 "
      "finds for A = 1..32 with a ballot mask and with all lanes staying (both correct). "
      "--undefined also runs the note's butterfly with mask 0xFFFFFFFF after the lanes left: "
      "undefined behaviour (wrong sums, possibly a hang: run it under `timeout`).");
  parser.add_flag("--undefined", &run_undefined, "also run the undefined full-mask variant");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  course::require_cuda_device(7, 0, "independent thread scheduling (sm_70+)");
  std::cout << "| active lanes | expected | ballot mask | all lanes stay |"
            << (run_undefined ? " full mask after exit (UB) |" : "") << "\n|---|---|---|---|"
            << (run_undefined ? "---|" : "") << "\n";
  int wrong_correct_variants = 0;
  int wrong_undefined = 0;
  for (int active = 1; active <= 32; ++active) {
    const int expected = course::step5::expected_partial_sum(active);
    const int ballot =
        course::step5::partial_warp_sum(active, course::step5::ShuffleMode::ballot_mask);
    const int stay =
        course::step5::partial_warp_sum(active, course::step5::ShuffleMode::all_lanes_stay);
    wrong_correct_variants += (ballot != expected) + (stay != expected);
    std::cout << "| " << active << " | " << expected << " | " << ballot << " | " << stay << " |";
    if (run_undefined) {
      const int undefined =
          course::step5::partial_warp_sum(active, course::step5::ShuffleMode::full_mask_after_exit);
      wrong_undefined += undefined != expected;
      std::cout << " " << undefined << (undefined != expected ? " (wrong)" : "") << " |";
    }
    std::cout << "\n";
  }
  if (run_undefined) {
    std::cout << "\nfull mask after exit: " << wrong_undefined << " of 32 sums wrong\n";
  }
  if (wrong_correct_variants != 0) {
    std::cout << "wrong answer: " << wrong_correct_variants
              << " sums of the correct variants differ\n";
    return 1;
  }
  std::cout << "ballot-mask and all-lanes-stay sums are all correct\n";
  return 0;
}

}  // namespace

/// @brief Runs the shuffle-mask demonstration and prints what each variant computed.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  return course::run_program("shuffle_mask", [&] { return run(argc, argv); });
}
