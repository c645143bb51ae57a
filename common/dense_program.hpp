/// @file dense_program.hpp
/// @brief The program of a dense-product step (steps 1 to 4) for the one runner
/// (common/step_program.hpp): the step registers its approaches (name, precondition,
/// launcher, workspace) and its sizes, and DenseProgram adds `--size`/`--rows`/`--inner`/
/// `--cols`, runs one timed product of the chosen approach checked against the serial CPU
/// product (DEBUG), and, for a step with a benchmark (steps 2 and 3), the square-size table
/// of the notes (`--bench`).
///
/// A step's program file fills in a DenseStep and main.cu runs it:
/// `DenseProgram program(stepN::program_step()); return run_step_program(program, ...);`.
#pragma once

#include "common/product_sizes.hpp"
#include "common/step_program.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace course {

/// @brief Largest size of steps 2 and 3 along any dimension: three 16384×16384 float matrices
/// take 3 GiB, and the DEBUG check of one on the CPU takes hours already.
constexpr int kMaxProductSize = 16384;
/// @brief Largest benchmark size (the notes' largest is 4096).
constexpr int kMaxBenchSize = 8192;

/// @brief Multiplies device matrices, C = A·B with A rows×inner and B inner×cols, on
/// @p stream: a launcher bound to its settings (and to a workspace it reuses, where it has one).
using ApproachRun = std::function<void(const float* a, const float* b, float* c,
                                       const ProductSizes& sizes, cudaStream_t stream)>;

/// @brief One approach of a dense-product step, as the step registers it. Approach numbers
/// are positions: the first entry of a step's list is approach 1.
struct DenseApproach {
  std::string name;  ///< short name for reports and tables, e.g. "tiled checked 32x32"
  /// @brief The precondition: throws std::invalid_argument unless the approach can multiply
  /// these sizes (its grid's limits, its tile multiples). Runs before any input is made.
  std::function<void(const ProductSizes& sizes)> check_sizes;
  /// @brief A new runner of the approach (its launcher); a workspace it holds (step 4's
  /// padded copies) lives as long as the runner and is reused by its repeated runs.
  std::function<ApproachRun()> make_run;
  /// @brief Device bytes the approach allocates besides A, B and C (empty: none).
  std::function<std::size_t(const ProductSizes& sizes)> workspace_bytes;
  /// @brief A line saying how the approach will run these sizes, printed before the timing
  /// (empty: nothing to say). May use the GPU.
  std::function<std::string(const ProductSizes& sizes)> describe_run;
};

/// @brief An approach whose launcher needs nothing but the operands (no workspace).
/// @param name the approach's name
/// @param check_sizes its precondition
/// @param launch its launcher
/// @return the entry
DenseApproach plain_approach(const std::string& name,
                             const std::function<void(const ProductSizes&)>& check_sizes,
                             const ApproachRun& launch);

/// @brief The sizes a dense-product step accepts.
struct DenseSizes {
  ProductSizes defaults{1024, 1024, 1024};  ///< sizes when none is given
  long long max = kMaxProductSize;          ///< largest value of each size option
  std::string size_help = "square size: rows = inner = cols";  ///< help line of --size
  /// @brief The step's check of the shape as a whole (e.g. step 4's element counts), before
  /// the approach's own; throws std::invalid_argument (empty: none).
  std::function<void(const ProductSizes& sizes)> check_shape;
};

/// @brief One GPU row of a benchmark table: an approach and its label.
struct BenchApproach {
  std::string name;   ///< row label, e.g. "approach 2"
  int approach = 1;   ///< the approach it times
  bool slow = false;  ///< true for a single-block kernel: fewer runs at large sizes
};

/// @brief The square-size benchmark of a step (the notes' Tables 1 and 2): the serial CPU
/// product, the step's rows and cuBLAS at each size (course::run_square_benchmark).
struct SquareBench {
  std::string table;                ///< the note's table it reproduces, e.g. "Table 1"
  std::string title;                ///< title of the benchmark table
  std::string sizes_help;           ///< help line of --bench-sizes
  std::string times;                ///< what --bench times, e.g. "every approach"
  std::vector<BenchApproach> rows;  ///< the GPU rows, in table order
  /// @brief Throws std::invalid_argument unless every approach of the table runs at this
  /// square size (empty: every size can).
  std::function<void(int size)> check_size;
};

/// @brief Everything that makes a dense-product program the program of its step.
struct DenseStep {
  std::string program;        ///< program name, e.g. "step2_three_approaches"
  std::string label;          ///< starts the report, e.g. "step 2"
  std::string description;    ///< the --help paragraph
  std::string approach_note;  ///< said after the approaches in --approach's help (may be empty)
  DenseSizes sizes;           ///< the sizes it accepts
  std::vector<DenseApproach> approaches;  ///< approach 1 first
  std::optional<SquareBench> bench;       ///< its benchmark (steps 2 and 3), or none
};

/// @brief What `--bench` and its options asked for.
struct BenchChoice {
  bool on = false;                           ///< run the benchmark instead of one product
  std::vector<int> sizes{1024, 2048, 4096};  ///< benchmark sizes, ascending
  int serial_max = 4096;                     ///< largest size the serial CPU is timed at
  std::string csv_path;                      ///< where the benchmark writes its CSV
};

/// @brief The program of a dense-product step: one timed product of the chosen approach, or
/// the step's benchmark.
class DenseProgram : public StepProgram {
 public:
  /// @brief The program of @p step.
  /// @param step the step's texts, sizes, approaches and benchmark
  explicit DenseProgram(DenseStep step);

  std::string name() const override { return step_.program; }
  std::string description() const override { return step_.description; }
  std::vector<std::string> approach_names() const override;
  std::string approach_note() const override { return step_.approach_note; }
  std::string repeats_note() const override;
  void add_options(ArgParser& parser) override;
  void prepare(const ArgParser& parser, const RunChoice& choice) override;
  MemoryEstimate memory(const RunChoice& choice) const override;
  int run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) override;

  /// @brief The step it runs.
  const DenseStep& step() const { return step_; }
  /// @brief The sizes of the single product, once parsed.
  const ProductSizes& sizes() const { return sizes_; }
  /// @brief The benchmark's options, once parsed.
  const BenchChoice& bench() const { return bench_; }
  /// @brief Runs the step's benchmark table with @p choice's repeats and seed.
  /// @param choice the parsed choice (seed, repeats)
  /// @param out where the table is printed
  /// @param progress where progress lines are printed
  /// @return the exit code
  int run_benchmark(const RunChoice& choice, std::ostream& out, std::ostream& progress) const;

 private:
  /// One timed product of the chosen approach, checked with DEBUG.
  int run_product(const RunChoice& choice, const GpuDescription& device, std::ostream& out) const;
  DenseStep step_;
  long long size_ = 0;
  long long rows_ = 0;
  long long inner_ = 0;
  long long cols_ = 0;
  std::vector<long long> bench_sizes_;
  long long serial_max_ = 0;
  ProductSizes sizes_;
  BenchChoice bench_;
};

}  // namespace course
