/// @file square_benchmark.hpp
/// @brief The square-size benchmark behind the note's Table 1 (step 2) and Table 2 (step 3):
/// square products of sizes 2^10, 2^11, 2^12 timed for the serial CPU product, the GPU
/// kernels of a step and cuBLAS SGEMM, with the note's speedup column.
///
/// Every time is the median of several runs (fewer for the slow serial product and the
/// single-block approach, see the `runs` column). Every result is checked: the inputs are
/// small integers, so every method must reproduce cuBLAS's product bit for bit; a mismatch
/// prints `wrong answer` and stops the benchmark. Cells that were not measured show "-".
#pragma once

#include "common/table.hpp"

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace course {

/// @brief One GPU row of the table: a name and how to multiply square device matrices.
struct BenchMethod {
  std::string name;  ///< row label, e.g. "approach 2"
  /// @brief Enqueues c = a·b for size×size device matrices (a launcher call, on the default
  /// stream).
  std::function<void(const float* a, const float* b, float* c, int size)> multiply;
  bool slow = false;  ///< true for a single-block kernel: fewer runs at large sizes
};

/// @brief What to measure.
struct BenchSettings {
  std::vector<int> sizes{1024, 2048, 4096};  ///< square sizes, ascending
  int serial_max = 4096;        ///< the serial CPU product is timed only up to this size
  int repeats = 5;              ///< timed runs of each fast GPU method (median reported)
  unsigned long long seed = 1;  ///< seed of the small-integer inputs
};

/// @brief The measurements of one row of the table.
struct BenchRow {
  std::string name;                              ///< row label
  std::vector<std::optional<double>> median_ms;  ///< per size; empty when not measured
  std::vector<int> runs;                         ///< timed runs per size (0: not measured)
};

/// @brief How many timed runs a method gets at @p size.
///
/// Fast methods get @p repeats. A slow one (a single block) gets at most 3 below 2048, at
/// most 2 below 4096 and 1 from 4096 on, so that approach 1 at 2^12 costs one run.
/// @param size square size
/// @param repeats runs asked for
/// @param slow whether the method is slow
int runs_for(int size, int repeats, bool slow);

/// @brief The note's speedup: the mean, over the two largest sizes, of serial time / method
/// time. Empty when one of those four times is missing (or with fewer than two sizes).
/// @param serial the serial row
/// @param method the row whose speedup is wanted
std::optional<double> speedup_over_serial(const BenchRow& serial, const BenchRow& method);

/// @brief Column label of a size: "2^k (ms)" for a power of two, "N (ms)" otherwise.
/// @param size square size
std::string size_label(int size);

/// @brief Builds the table: one column per size, then the speedup over serial, TFLOP/s and
/// the percentage of cuBLAS's speed at the largest size, and the runs per size.
/// @param sizes the sizes, ascending
/// @param serial the serial CPU row (first in the table)
/// @param gpu_rows the other rows, the cuBLAS row last
ResultTable make_table(const std::vector<int>& sizes, const BenchRow& serial,
                       const std::vector<BenchRow>& gpu_rows);

/// @brief Measures the serial product, every method and cuBLAS at every size, checking every
/// result against cuBLAS's; throws std::runtime_error after printing `wrong answer` on a
/// mismatch. Needs a GPU.
/// @param methods the step's kernels, in table order
/// @param settings sizes, serial limit, repeats, seed
/// @param progress where progress lines are printed while it runs
/// @param serial receives the serial row
/// @return the GPU rows, cuBLAS last
std::vector<BenchRow> measure(const std::vector<BenchMethod>& methods,
                              const BenchSettings& settings, std::ostream& progress,
                              BenchRow& serial);

/// @brief measure(), then prints the header line (GPU, date), the Markdown table and notes to
/// @p out and writes the CSV to @p csv_path unless it is empty.
/// @param title the table's title, e.g. "Table 1: ..."
/// @param methods the step's kernels
/// @param settings what to measure
/// @param csv_path CSV file to write, or empty
/// @param out where the table is printed
/// @param progress where progress is printed
/// @return 0
int run_square_benchmark(const std::string& title, const std::vector<BenchMethod>& methods,
                         const BenchSettings& settings, const std::string& csv_path,
                         std::ostream& out, std::ostream& progress);

}  // namespace course
