/// @file cusparse_sddmm.hpp
/// @brief The references the benchmark compares with: cuSPARSE's SDDMM on CSR, with A and B
/// in fp16 (the fair one: the same bytes our kernels read) or in fp32, C and compute in fp32.
///
/// Step 5, the benchmark (the lab): cuSPARSE's SDDMM, the reference.
/// Read first: bench.hpp (how the benchmark uses it).
#pragma once

#include "common/sparse_matrix.hpp"

#include <cusparse.h>

#include <memory>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief How B is handed to cuSPARSE.
enum class CusparseBLayout {
  column_major,  ///< the bytes of Bᵀ (cols×inner row-major) as a column-major inner×cols matrix
  row_major      ///< an explicit inner×cols row-major copy
};

/// @brief Name of a layout for tables.
/// @param layout the layout
/// @return "B col-major" or "B row-major"
std::string layout_name(CusparseBLayout layout);

/// @brief cusparseSDDMM (CUSPARSE_SDDMM_ALG_DEFAULT; A and B in fp16 or fp32, C and compute
/// in fp32) with α = 1, β = 0: C = (A·B) ∘ spy(S) on S's CSR structure.
///
/// Construction is the reference's preprocessing: it uploads the CSR structure, creates the
/// descriptors, sizes and allocates the buffer and calls cusparseSDDMM_preprocess. run()
/// launches cusparseSDDMM only. cuSPARSE ignores S's values (its result is the product at
/// S's positions), so results() multiplies by them on the host for comparison.
class CusparseSddmm {
 public:
  /// @brief Prepares the SDDMM.
  /// @param handle a cuSPARSE handle (created once by the caller, not timed)
  /// @param sampling S, sorted row-major (its order is CSR order)
  /// @param a A, rows×inner row-major, device, of @p dense_type
  /// @param b B in @p layout (inner×cols), device, of @p dense_type
  /// @param inner columns of A and Bᵀ (the dot products' length)
  /// @param layout how @p b is stored
  /// @param dense_type CUDA_R_16F or CUDA_R_32F: the type of A and B
  CusparseSddmm(cusparseHandle_t handle, const course::CsrMatrix& sampling, const void* a,
                const void* b, int inner, CusparseBLayout layout, cudaDataType dense_type);
  ~CusparseSddmm();
  CusparseSddmm(const CusparseSddmm&) = delete;
  CusparseSddmm& operator=(const CusparseSddmm&) = delete;

  /// @brief Enqueues cusparseSDDMM on the handle's stream (the default stream unless the caller
  /// points the handle elsewhere).
  void run();

  /// @brief Downloads C's values and multiplies each by S's value: S ∘ (A·B) in S's order.
  /// @param sampling the same S
  /// @return one float per nonzero
  std::vector<float> results(const course::CsrMatrix& sampling) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace course::step5
