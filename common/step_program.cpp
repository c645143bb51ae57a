/// @file step_program.cpp
/// @brief The one runner (see step_program.hpp): the options every program shares and the
/// order in which a program's questions are asked.

#include "common/step_program.hpp"

#include <iostream>

namespace course {
namespace {

/// "1 naive, 2 one thread per element, ..." for --approach's help.
std::string numbered_list(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t index = 0; index < names.size(); ++index) {
    text += (index == 0 ? "" : ", ") + std::to_string(index + 1) + " " + names[index];
  }
  return text;
}

}  // namespace

bool parse_step_program(StepProgram& program, int argc, char** argv, RunChoice& choice) {
  const std::vector<std::string> names = program.approach_names();
  long long approach = choice.approach;
  long long repeats = choice.repeats;
  ArgParser parser(program.name(), program.description());
  const std::string note = program.approach_note();
  parser.add_integer("--approach", &approach, 1, static_cast<long long>(names.size()),
                     "approach to run: " + numbered_list(names) + " (default: APPROACH in main.cu" +
                         (note.empty() ? "" : "; " + note) + ")");
  parser.add_seed(&choice.seed, "seed of the random inputs");
  const std::string repeats_note = program.repeats_note();
  parser.add_integer("--repeats", &repeats, 1, 1000,
                     "timed runs; the median is printed" +
                         (repeats_note.empty() ? "" : " (" + repeats_note + ")"));
  program.add_options(parser);
  if (!parser.parse(argc, argv)) {
    return false;
  }
  choice.approach = static_cast<int>(approach);
  choice.repeats = static_cast<int>(repeats);
  program.prepare(parser, choice);
  return true;
}

int run_step_program(StepProgram& program, int argc, char** argv, int default_approach,
                     bool verify) {
  return run_program(program.name(), [&] {
    RunChoice choice;
    choice.approach = default_approach;
    choice.verify = verify;
    if (!parse_step_program(program, argc, argv, choice)) {
      return 0;  // --help
    }
    require_memory(program.memory(choice), program.memory_advice());
    const GpuNeed need = program.gpu_need(choice);
    const GpuDescription device = require_cuda_device(need.major, need.minor, need.feature);
    return program.run(choice, device, std::cout);
  });
}

}  // namespace course
