/// @file dense_product_path.hpp
/// @brief When S is dense enough, the cheapest SDDMM computes the whole rows×cols product
/// with cuBLAS's fp16 Tensor Core GEMM (fp32 output) and gathers S's entries from it: the
/// note's first version, with a library GEMM. The plan takes this path when the cost model
/// says it wins and its buffer fits in the device's free memory. Its gather reads S through the
/// dense panels' tables, made once per plan (dense_product_gather.cuh says why).
///
/// Step 5, going further: the dense product as one of the plan's paths.
/// Read first: tile_cost_model.hpp (dense_product_pays: when the plan takes it).
#pragma once

#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/dense_operands.hpp"
#include "step5_tensor_core_sddmm/device_pattern/device_pattern.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_panel_tables.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"

#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>

namespace course::step5 {

/// @brief The whole product A·B into @p product (rows×cols floats, row-major) with cuBLAS's
/// fp16 Tensor Core GEMM and fp32 sums, on @p handle's stream. Throws course::CudaError when
/// cuBLAS refuses.
/// @param handle a cuBLAS handle
/// @param operands A and Bᵀ
/// @param product rows×cols floats on the device
void dense_product_fp16(cublasHandle_t handle, const DenseOperands& operands, float* product);

/// @brief Gathers S's entries from a dense product: output[e] = product(row_e, col_e), times
/// S's value e unless S is a pattern; one thread per entry, on @p stream.
/// @param product rows×cols floats, row-major (dense_product_fp16)
/// @param cols columns of the product (S's columns)
/// @param pattern S on the device
/// @param output one float per entry of S
/// @param stream stream to launch on (default stream when nullptr)
void gather_at_pattern(const float* product, int cols, const DevicePattern& pattern, float* output,
                       cudaStream_t stream = nullptr);

/// @brief The dense path: a rows×cols float buffer, a cuBLAS handle and the gather's tables,
/// made once per plan.
class DenseProductPath {
 public:
  /// @brief Allocates the product (course::DeviceMemoryError when it does not fit), creates
  /// the cuBLAS handle (course::CudaError on failure) and builds the gather's tables: every
  /// 64-row panel of S as a dense panel over the columns it spans (upload_dense_panels). Where
  /// those tables could not be indexed with int, the gather reads S's rows and columns
  /// (gather_at_pattern) instead.
  /// @param pattern S on the device (the one run() is given)
  /// @param statistics S's entries and column spans per 64-row panel (panel_statistics.hpp)
  DenseProductPath(const DevicePattern& pattern, const PanelStatistics& statistics);
  ~DenseProductPath();
  DenseProductPath(const DenseProductPath&) = delete;
  DenseProductPath& operator=(const DenseProductPath&) = delete;

  /// @brief The SDDMM: the GEMM into the buffer, then the gather of S's entries (times S's
  /// value unless S is a pattern). Asynchronous on @p stream (the cuBLAS handle is set to it).
  /// @param operands A and Bᵀ (rows and cols of the pattern it was made for)
  /// @param pattern S on the device, the one it was made for
  /// @param output one float per entry of S
  /// @param stream stream to launch on (default stream when nullptr)
  void run(const DenseOperands& operands, const DevicePattern& pattern, float* output,
           cudaStream_t stream = nullptr) const;

  /// @brief Device bytes held (the product and the gather's tables).
  /// @return bytes
  std::size_t bytes() const { return product_.bytes() + tables_.storage.bytes(); }

  /// @brief Whether the gather reads the tables (false: S's rows and columns, one thread per
  /// entry).
  /// @return true when the tables were built
  bool gathers_by_tiles() const { return tables_.tile_count > 0; }

 private:
  course::DeviceBuffer<float> product_;
  cublasHandle_t handle_ = nullptr;
  DensePanelTables tables_;
  int rows_ = 0;
  int cols_ = 0;
  std::int64_t nnz_ = 0;
};

}  // namespace course::step5
