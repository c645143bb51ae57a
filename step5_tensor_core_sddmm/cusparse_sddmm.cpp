/// @file cusparse_sddmm.cpp
/// @brief cuSPARSE SDDMM reference (see cusparse_sddmm.hpp).
#include "cusparse_sddmm.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace step5 {

struct CusparseSddmm::State {
  cusparseHandle_t handle = nullptr;
  cusparseDnMatDescr_t a = nullptr;
  cusparseDnMatDescr_t b = nullptr;
  cusparseSpMatDescr_t c = nullptr;
  course::DeviceBuffer<int> offsets;
  course::DeviceBuffer<int> columns;
  course::DeviceBuffer<float> values;
  course::DeviceBuffer<unsigned char> buffer;
  float alpha = 1.0f;
  float beta = 0.0f;
  std::size_t nnz = 0;
};

std::string layout_name(CusparseBLayout layout) {
  return layout == CusparseBLayout::column_major ? "B col-major" : "B row-major";
}

CusparseSddmm::CusparseSddmm(cusparseHandle_t handle, const course::CsrMatrix& sampling,
                             const float* a, const float* b, int inner, CusparseBLayout layout)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.nnz = sampling.nnz();
  const int rows = sampling.rows;
  const int cols = sampling.cols;
  s.offsets = course::DeviceBuffer<int>(sampling.row_offsets.size(), "CSR offsets");
  s.columns = course::DeviceBuffer<int>(s.nnz, "CSR columns");
  s.values = course::DeviceBuffer<float>(s.nnz, "cuSPARSE SDDMM output");
  s.offsets.upload(sampling.row_offsets);
  s.columns.upload(sampling.col_indices);
  s.values.zero();  // β = 0, but 0 · NaN would still be NaN: start from zeros
  s.handle = handle;
  CUSPARSE_CHECK(cusparseCreateDnMat(&s.a, rows, inner, inner, const_cast<float*>(a), CUDA_R_32F,
                                     CUSPARSE_ORDER_ROW));
  if (layout == CusparseBLayout::column_major) {
    CUSPARSE_CHECK(cusparseCreateDnMat(&s.b, inner, cols, inner, const_cast<float*>(b), CUDA_R_32F,
                                       CUSPARSE_ORDER_COL));
  } else {
    CUSPARSE_CHECK(cusparseCreateDnMat(&s.b, inner, cols, cols, const_cast<float*>(b), CUDA_R_32F,
                                       CUSPARSE_ORDER_ROW));
  }
  CUSPARSE_CHECK(cusparseCreateCsr(&s.c, rows, cols, static_cast<std::int64_t>(s.nnz),
                                   s.offsets.data(), s.columns.data(), s.values.data(),
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                   CUDA_R_32F));
  std::size_t buffer_bytes = 0;
  CUSPARSE_CHECK(cusparseSDDMM_bufferSize(
      s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &s.alpha, s.a,
      s.b, &s.beta, s.c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &buffer_bytes));
  s.buffer = course::DeviceBuffer<unsigned char>(buffer_bytes, "cuSPARSE SDDMM buffer");
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
  std::vector<float> values = state_->values.to_vector();
  for (std::size_t entry = 0; entry < values.size(); ++entry) {
    values[entry] *= sampling.values[entry];
  }
  return values;
}

}  // namespace step5
