/// @file bench_options.hpp
/// @brief The command line of the lab's benchmark programs (step4_approach_bench,
/// step4_shape_bench, step4_pad_to_four): which shapes (`--shapes FILE`, or one shape from
/// `--size` or `--rows --inner --cols`), `--repeats`, `--seed`, and where the table goes
/// (`--csv`, `--markdown`). Everything that needs no GPU is checked when the command line is
/// parsed: the shapes file is read and every shape checked, the output folders must exist,
/// and the largest shape must fit in memory. Read approach_benchmark.cu first.
#pragma once

#include "common/product_sizes.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace course::step4 {

/// @brief What a lab benchmark's command line asked for.
struct BenchOptions {
  std::vector<ProductSizes> shapes;  ///< the shapes to measure, in order
  std::string shapes_source;         ///< where they came from ("FILE" or "--rows/--inner/--cols")
  int repeats = kBenchRepeats;       ///< timed runs per measurement (the median is reported)
  std::uint64_t seed = kBenchSeed;   ///< seed of the random inputs (given or kBenchSeed; printed)
  bool all_fast_variants = false;    ///< also time every tile shape of the fast kernel
  std::string csv_path;              ///< write the table as CSV here (empty: do not)
  std::string markdown_path;         ///< write the whole report as Markdown here (empty: do not)
};

/// @brief Which options a lab program takes, and its texts.
struct BenchProgram {
  std::string name;            ///< program name, for --help and messages
  std::string description;     ///< the --help paragraph
  std::string default_shapes;  ///< the shapes file read when neither --shapes nor sizes are given
  bool takes_all_fast_variants = false;  ///< whether --all-fast-variants applies
  bool takes_outputs = true;             ///< whether --csv and --markdown apply
  bool measures_padding = false;  ///< runs approach 2 (its padded copies count in the memory)
};

/// @brief Parses and checks a lab benchmark's command line (see the file comment); false for
/// --help. Throws course::UsageError for a bad command line, std::runtime_error for a bad
/// shapes file, OutOfMemoryError when the largest shape cannot fit.
/// @param program which options apply, and the texts
/// @param argc argument count
/// @param argv arguments
/// @param options receives the values
/// @return false when --help was given
bool parse_bench_options(const BenchProgram& program, int argc, char** argv, BenchOptions& options);

/// @brief A lab program's main(): parses its command line (parse_bench_options), then runs
/// @p measure on the options, turning errors into messages and exit codes (course::run_program).
/// @param program which options apply, and the texts
/// @param argc argument count
/// @param argv arguments
/// @param measure the measurements; returns the exit code
/// @return 0 on success, 1 when a result disagreed or on an error, 2 for a bad command line, 3
/// without a GPU
int run_bench_program(const BenchProgram& program, int argc, char** argv,
                      const std::function<int(const BenchOptions&)>& measure);

/// @brief Prints @p report and writes it to options.markdown_path and @p table to
/// options.csv_path where asked; says `wrong answer` when a result disagreed with cuBLAS.
/// @param options the paths
/// @param report the whole report (header, table, notes)
/// @param table the table, for the CSV
/// @param all_agreed whether every result agreed with cuBLAS's
/// @return the exit code: 0, or 1 when a result disagreed (its row says WRONG)
int publish_bench(const BenchOptions& options, const std::string& report, const ResultTable& table,
                  bool all_agreed);

}  // namespace course::step4
