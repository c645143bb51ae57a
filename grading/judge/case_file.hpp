/// @file case_file.hpp
/// @brief The files the judge and the student-side runner exchange: the inputs of a graded
/// case (written by the judge) and the outputs the runner computed from them.
///
/// Both sides are course code; neither includes a student's file. The judge writes a case's
/// inputs into its own folder and gives the runner a copy; after the runner has written its
/// outputs, the judge compares them with its own reference computed from its own copy, so
/// nothing the runner does to the inputs changes the verdict.
///
/// A file is a magic line, a count and the products in order. Every size is checked while
/// reading against the bytes left in the file, so a damaged or hostile file is refused with a
/// message, never read past its end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace course::judge {

/// @brief One dense product C = A·B (steps 1 to 4), row-major, for one launcher.
struct GemmProduct {
  std::int32_t launcher = 0;  ///< which launcher of the step runs it (see runner_steps.hpp)
  std::int32_t variant = 0;   ///< a launcher's parameter (step 4's tile width), 0 otherwise
  std::int32_t rows = 0;      ///< rows of A and C
  std::int32_t inner = 0;     ///< columns of A, rows of B
  std::int32_t cols = 0;      ///< columns of B and C
  std::vector<float> a;       ///< rows×inner
  std::vector<float> b;       ///< inner×cols
};

/// @brief One SDDMM C = S ∘ (A·B) at S's nonzeros (step 5); A and Bᵀ in binary16.
struct SddmmProduct {
  std::int32_t launcher = 0;                ///< the approach (1 or 3)
  std::int32_t variant = 0;                 ///< approach 3: 1 runs the note's version 1
  std::int32_t rows = 0;                    ///< rows of A and S
  std::int32_t inner = 0;                   ///< columns of A, rows of B
  std::int32_t cols = 0;                    ///< columns of B and S
  std::int32_t lda = 0;                     ///< leading dimension of A (>= inner)
  std::int32_t ldb = 0;                     ///< leading dimension of Bᵀ (>= inner)
  std::vector<std::uint16_t> a;             ///< rows×lda halves (padding zero)
  std::vector<std::uint16_t> b_transposed;  ///< cols×ldb halves (padding zero)
  std::vector<std::int32_t> row;            ///< row of each nonzero of S, sorted row-major
  std::vector<std::int32_t> col;            ///< column of each nonzero
  std::vector<float> value;                 ///< value of each nonzero
};

/// @brief The inputs of one case: dense products or SDDMMs (one kind per case).
struct CaseInputs {
  std::vector<GemmProduct> gemm;    ///< the dense products
  std::vector<SddmmProduct> sddmm;  ///< the SDDMMs
  /// @brief Number of products.
  std::size_t size() const { return gemm.size() + sddmm.size(); }
};

/// @brief What the runner produced for one product.
struct ProductOutput {
  std::int32_t status = 1;    ///< 0: computed; otherwise the launcher failed (a CUDA error...)
  std::vector<float> values;  ///< C (rows×cols) or one value per nonzero
};

/// @brief The number of floats the runner must write for product @p index of @p inputs.
/// @param inputs the case
/// @param index the product
/// @return rows·cols or the nonzeros of S
std::size_t expected_values(const CaseInputs& inputs, std::size_t index);

/// @brief Writes @p inputs to @p path; throws std::runtime_error when it cannot.
/// @param path the file
/// @param inputs the case
void write_inputs(const std::string& path, const CaseInputs& inputs);

/// @brief Reads a file written by write_inputs; throws std::runtime_error naming the problem
/// (missing file, wrong magic, a size that does not fit the file).
/// @param path the file
/// @return the case
CaseInputs read_inputs(const std::string& path);

/// @brief Writes the runner's outputs.
/// @param path the file
/// @param outputs one entry per product, in the case's order
void write_outputs(const std::string& path, const std::vector<ProductOutput>& outputs);

/// @brief Reads the runner's outputs for @p inputs: at most one entry per product, each at
/// most as long as the product needs (a longer or larger file is refused, not read whole).
/// @param path the file
/// @param inputs the case they answer
/// @return the entries found (fewer than the products when the runner stopped early)
std::vector<ProductOutput> read_outputs(const std::string& path, const CaseInputs& inputs);

}  // namespace course::judge
