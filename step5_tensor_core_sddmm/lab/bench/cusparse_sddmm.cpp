/// @file cusparse_sddmm.cpp
/// @brief cuSPARSE SDDMM references, fp16 or fp32 A and B (see cusparse_sddmm.hpp).
///
/// Step 5, the benchmark (the lab): the wrapper of cusparseSDDMM.
/// Read first: cusparse_sddmm.hpp.
#include "step5_tensor_core_sddmm/lab/bench/cusparse_sddmm.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cuda_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace course::step5 {
namespace {

std::size_t aligned(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}

}  // namespace

/// @brief What the cuSPARSE reference keeps between calls: handle, descriptors, buffers.
struct CusparseSddmm::State {
  cusparseHandle_t handle = nullptr;  ///< cuSPARSE library handle
  cusparseDnMatDescr_t a = nullptr;   ///< dense A (rows×inner, fp16 or fp32)
  cusparseDnMatDescr_t b = nullptr;   ///< dense B (inner×cols, fp16 or fp32, either layout)
  cusparseSpMatDescr_t c = nullptr;   ///< sparse result in CSR with S's pattern
  /// CSR offsets, columns and C's values in one allocation; stream-ordered pool memory, as
  /// step 5's own plans use, so that both sides of the comparison allocate the same way
  course::DeviceBuffer<unsigned char> structure;
  course::DeviceBuffer<unsigned char> buffer;  ///< cuSPARSE's work buffer (same pool)
  int* offsets = nullptr;                      ///< CSR row offsets (rows + 1), inside structure
  int* columns = nullptr;                      ///< CSR column indices (nnz), inside structure
  float* values = nullptr;                     ///< C's values (nnz), inside structure
  float alpha = 1.0f;                          ///< scale of A·B
  float beta = 0.0f;                           ///< scale of the previous C
  std::size_t nnz = 0;                         ///< nonzeros of S
};

std::string layout_name(CusparseBLayout layout) {
  return layout == CusparseBLayout::column_major ? "B col-major" : "B row-major";
}

CusparseSddmm::CusparseSddmm(cusparseHandle_t handle, const course::CsrMatrix& sampling,
                             const void* a, const void* b, int inner, CusparseBLayout layout,
                             cudaDataType dense_type)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.nnz = sampling.nnz();
  const int rows = sampling.rows;
  const int cols = sampling.cols;
  const std::size_t offsets_bytes = aligned(sampling.row_offsets.size() * sizeof(int));
  const std::size_t columns_bytes = aligned(s.nnz * sizeof(int));
  s.structure = course::DeviceBuffer<unsigned char>(
      offsets_bytes + columns_bytes + s.nnz * sizeof(float), "the CSR structure of cuSPARSE's C",
      course::DeviceMemorySource::stream_pool);
  s.offsets = reinterpret_cast<int*>(s.structure.data());
  s.columns = reinterpret_cast<int*>(s.structure.data() + offsets_bytes);
  s.values = reinterpret_cast<float*>(s.structure.data() + offsets_bytes + columns_bytes);
  // The structure upload: fast when the caller registered the vectors (cudaHostRegister).
  CUDA_CHECK(cudaMemcpyAsync(s.offsets, sampling.row_offsets.data(),
                             sampling.row_offsets.size() * sizeof(int), cudaMemcpyHostToDevice,
                             nullptr));
  if (s.nnz > 0) {
    CUDA_CHECK(cudaMemcpyAsync(s.columns, sampling.col_indices.data(), s.nnz * sizeof(int),
                               cudaMemcpyHostToDevice, nullptr));
    // β = 0, but 0 · NaN would still be NaN: start from zeros.
    CUDA_CHECK(cudaMemsetAsync(s.values, 0, s.nnz * sizeof(float), nullptr));
  }
  s.handle = handle;
  // C and the compute type stay fp32 whatever A and B are: cuSPARSE's mixed-precision SDDMM.
  CUSPARSE_CHECK(cusparseCreateDnMat(&s.a, rows, inner, inner, const_cast<void*>(a), dense_type,
                                     CUSPARSE_ORDER_ROW));
  if (layout == CusparseBLayout::column_major) {
    CUSPARSE_CHECK(cusparseCreateDnMat(&s.b, inner, cols, inner, const_cast<void*>(b), dense_type,
                                       CUSPARSE_ORDER_COL));
  } else {
    CUSPARSE_CHECK(cusparseCreateDnMat(&s.b, inner, cols, cols, const_cast<void*>(b), dense_type,
                                       CUSPARSE_ORDER_ROW));
  }
  CUSPARSE_CHECK(cusparseCreateCsr(&s.c, rows, cols, static_cast<std::int64_t>(s.nnz), s.offsets,
                                   s.columns, s.values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                   CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  std::size_t buffer_bytes = 0;
  CUSPARSE_CHECK(cusparseSDDMM_bufferSize(
      s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.a,
      s.b, &s.beta, s.c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &buffer_bytes));
  s.buffer = course::DeviceBuffer<unsigned char>(buffer_bytes, "cuSPARSE's SDDMM work buffer",
                                                 course::DeviceMemorySource::stream_pool);
  CUSPARSE_CHECK(cusparseSDDMM_preprocess(
      s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.a,
      s.b, &s.beta, s.c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, s.buffer.data()));
  CUDA_CHECK(cudaDeviceSynchronize());
}

CusparseSddmm::~CusparseSddmm() {
  // No checks: destructors must not throw.
  cusparseDestroySpMat(state_->c);
  cusparseDestroyDnMat(state_->b);
  cusparseDestroyDnMat(state_->a);
}

void CusparseSddmm::run() {
  State& s = *state_;
  CUSPARSE_CHECK(cusparseSDDMM(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                               CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.a, s.b, &s.beta, s.c,
                               CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, s.buffer.data()));
}

std::vector<float> CusparseSddmm::results(const course::CsrMatrix& sampling) const {
  std::vector<float> values(state_->nnz);
  if (!values.empty()) {
    CUDA_CHECK(cudaMemcpy(values.data(), state_->values, values.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
  }
  for (std::size_t entry = 0; entry < values.size(); ++entry) {
    values[entry] *= sampling.values[entry];
  }
  return values;
}

}  // namespace course::step5
