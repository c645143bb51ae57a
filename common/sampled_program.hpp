/// @file sampled_program.hpp
/// @brief SampledProgram: the program of a step that samples a product at a sparse matrix S
/// (step 5's SDDMM), as DenseProgram (dense_program.hpp) is the dense steps'. It owns what
/// every approach shares: S's options and S itself (a uniform random mask, or a Matrix Market
/// file), the memory check before S is made, A and Bᵀ drawn in half precision, the output
/// poisoned, and the DEBUG check against the CPU reference in double (sampled_reference.hpp).
/// The step says what each approach needs and runs it (add_approach_needs, run_approach).
#pragma once

#include "common/cli.hpp"
#include "common/host_sampling.hpp"
#include "common/memory_estimate.hpp"
#include "common/product_sizes.hpp"
#include "common/sparse_matrix.hpp"
#include "common/step_program.hpp"

#include <cuda_fp16.h>

#include <cstdint>
#include <iosfwd>
#include <string>

namespace course {

/// @brief What a sampled program hands the chosen approach: S on the host, the operands on
/// the device and the output, all made by SampledProgram::run.
struct SampledInputs {
  const HostSampling& sampling;  ///< S in CSR, pinned, pattern or values
  ProductSizes sizes;            ///< rows and cols of S, and inner
  const __half* a;               ///< A on the device, rows×inner, packed
  const __half* b_transposed;    ///< Bᵀ on the device, cols×inner, packed
  float* output;                 ///< C on the device: one float per entry of S, poisoned
  bool say;                      ///< whether long host work is announced on stderr first
};

/// @brief A program that computes C = S ∘ (A·B) at the entries of S with a step's approaches.
/// Its options: `--rows`, `--cols`, `--nnz` (a uniform random S of exactly nnz entries) or
/// `--matrix` (S read from a file), and `--inner`. prepare() checks them and the memory, then
/// makes S, before any GPU call; run() prints the GPU and the sizes, hands the chosen approach
/// its inputs (run_approach) and, with DEBUG, compares C with the CPU reference.
class SampledProgram : public StepProgram {
 public:
  std::string repeats_note() const override { return "of the kernel"; }
  void add_options(ArgParser& parser) override;
  void prepare(const ArgParser& parser, const RunChoice& choice) override;
  /// @brief Nothing: prepare() checked the memory from the sizes alone, before S was made.
  MemoryEstimate memory(const RunChoice& choice) const override;
  int run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) override;

 protected:
  /// @brief Adds what approach @p approach allocates beyond S, A, B, C and S's host copies;
  /// throws (std::length_error) to refuse sizes the approach cannot take, naming its limit.
  /// @param approach the approach's number
  /// @param sizes rows and cols of S, and inner
  /// @param nnz entries of S (at most, for a file)
  /// @param estimate the estimate to add to
  virtual void add_approach_needs(int approach, const ProductSizes& sizes, std::uint64_t nnz,
                                  MemoryEstimate& estimate) const = 0;
  /// @brief Runs the chosen approach on @p inputs: prints its lines (times, plan) to @p out
  /// and leaves C in inputs.output for the DEBUG check.
  /// @param choice the checked choice
  /// @param inputs S, A, Bᵀ and C
  /// @param out where the report is printed
  virtual void run_approach(const RunChoice& choice, const SampledInputs& inputs,
                            std::ostream& out) = 0;
  /// @brief Whether S was read from `--matrix`.
  bool from_file() const { return !matrix_path_.empty(); }
  /// @brief Another random S of the same sizes (seed + 1), for a steady-state time; a file's
  /// S has no second one (use it again).
  /// @param choice the checked choice
  /// @return the second S
  CooMatrix second_random_sampling(const RunChoice& choice) const;

 private:
  /// Refuses sizes whose allocations cannot fit (before S is drawn or read).
  void check_sizes(const ProductSizes& sizes, long long nnz, SamplingSource source,
                   const RunChoice& choice) const;
  /// S drawn at random (seed) or read from the file, after the checks its sizes allow.
  CooMatrix make_sampling(const RunChoice& choice, std::uint64_t seed) const;
  long long rows_ = 3000;
  long long inner_ = 256;
  long long cols_ = 7000;
  long long nnz_ = 313110;
  std::string matrix_path_;  // empty: S is a random mask
  CooMatrix sampling_;
};

}  // namespace course
