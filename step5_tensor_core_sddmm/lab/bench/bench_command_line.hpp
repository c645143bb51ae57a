/// @file bench_command_line.hpp
/// @brief sddmm_bench's command line: what it asks for (Request and Settings) and its parser.
///
/// Step 5, the benchmark (the lab). Read first: bench.hpp (Settings).
#pragma once

#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include <string>
#include <vector>

namespace course::step5::bench {

/// @brief What the command line asks for besides the Settings.
struct Request {
  std::string shapes;                      ///< --shapes: a file of uniform shapes
  std::string masks;                       ///< --masks: a file of attention masks
  std::string matrices;                    ///< --matrices: a folder of Matrix Market files
  std::string csv_path;                    ///< --csv: where the table goes as CSV
  std::string markdown_path;               ///< --markdown: where the report goes
  std::string filter;                      ///< --filter: only the matrices whose name holds it
  std::vector<int> matrix_inners = {256};  ///< --matrix-inner: the matrices' inner sizes
  bool k_sweep = false;                    ///< --ksweep: the inner sweep
  bool experiments = false;                ///< --experiments: the notebook's experiments
};

/// @brief Parses sddmm_bench's command line into @p settings and @p request; throws
/// course::UsageError on a bad option or value.
/// @param argc argument count
/// @param argv arguments
/// @param settings what every case runs with
/// @param request what to measure and where the table goes
/// @return false after --help (nothing to run)
bool parse_command_line(int argc, char** argv, Settings& settings, Request& request);

}  // namespace course::step5::bench
