/// @file dense_product_path.hpp
/// @brief When S is dense enough, the cheapest SDDMM computes the whole rows×cols product
/// with cuBLAS's fp16 Tensor Core GEMM (fp32 output) and gathers S's entries from it: the
/// note's first version, with a library GEMM. The plan takes this path when the cost model
/// says it wins and its buffer fits in the device's free memory. Its gather reads S through the
/// dense panels' tables, made once per plan (dense_product_gather.cuh says why). It computes
/// and gathers the product a band of rows at a time into one buffer that half of L2 holds
/// (dense_band_rows says why).
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
#include <vector>

namespace course::step5 {

/// @brief The whole product A·B into @p product (rows×cols floats, row-major) with cuBLAS's
/// fp16 Tensor Core GEMM and fp32 sums, on @p handle's stream. Throws course::CudaError when
/// cuBLAS refuses.
/// @param handle a cuBLAS handle
/// @param operands A and Bᵀ
/// @param product rows×cols floats on the device
void dense_product_fp16(cublasHandle_t handle, const DenseOperands& operands, float* product);

/// @brief Rows @p first_row to @p first_row + @p row_count - 1 of the product A·B into
/// @p product (row_count×cols floats, row-major), as dense_product_fp16 computes them.
/// @param handle a cuBLAS handle
/// @param operands A and Bᵀ
/// @param first_row the band's first row (0 <= first_row < rows)
/// @param row_count its rows (first_row + row_count <= rows)
/// @param product row_count×cols floats on the device
void dense_product_rows_fp16(cublasHandle_t handle, const DenseOperands& operands, int first_row,
                             int row_count, float* product);

/// @brief The rows of the product the dense path computes, then gathers, at a time (a band).
/// Why: the whole product, written to DRAM by the GEMM and read back by the gather, is most of
/// the dense path's bytes (two thirds on a quarter of 8192² at inner 256). A band whose floats
/// fill at most half of L2 is still there when its gather reads it, and the next band's GEMM
/// writes over the same buffer. The band is a whole number of 64-row panels (the gather's
/// tiles), at least kMinDenseBandRows (each GEMM then has 128×128 tiles for every SM, and the
/// launches stay few), at most the rows rounded up to a panel.
/// @param rows rows of S (>= 1)
/// @param cols columns of S (>= 1)
/// @param l2_bytes the GPU's L2 (GpuDescription::l2_bytes)
/// @return rows per band, a multiple of 64
int dense_band_rows(int rows, int cols, long long l2_bytes);

/// @brief The least rows of a band (dense_band_rows): eight 64-row panels.
constexpr int kMinDenseBandRows = 512;

/// @brief Gathers S's entries from a dense product: output[e] = product(row_e, col_e), times
/// S's value e unless S is a pattern; one thread per entry, on @p stream.
/// @param product rows×cols floats, row-major (dense_product_fp16)
/// @param cols columns of the product (S's columns)
/// @param pattern S on the device
/// @param output one float per entry of S
/// @param stream stream to launch on (default stream when nullptr)
void gather_at_pattern(const float* product, int cols, const DevicePattern& pattern, float* output,
                       cudaStream_t stream = nullptr);

/// @brief The dense path: a float buffer for one band of the product's rows (dense_band_rows;
/// the whole product when the gather reads S's rows and columns), a cuBLAS handle and the
/// gather's tables, made once per plan.
class DenseProductPath {
 public:
  /// @brief Allocates the band (course::DeviceMemoryError when it does not fit), creates
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

  /// @brief The SDDMM: for each band, the GEMM of its rows into the buffer, then the gather of
  /// its tiles' entries (times S's value unless S is a pattern). Asynchronous on @p stream (the
  /// cuBLAS handle is set to it).
  /// @param operands A and Bᵀ (rows and cols of the pattern it was made for)
  /// @param pattern S on the device, the one it was made for
  /// @param output one float per entry of S
  /// @param stream stream to launch on (default stream when nullptr)
  void run(const DenseOperands& operands, const DevicePattern& pattern, float* output,
           cudaStream_t stream = nullptr) const;

  /// @brief Device bytes held (the band's buffer and the gather's tables).
  /// @return bytes
  std::size_t bytes() const { return product_.bytes() + tables_.storage.bytes(); }

  /// @brief Whether the gather reads the tables (false: S's rows and columns, one thread per
  /// entry).
  /// @return true when the tables were built
  bool gathers_by_tiles() const { return tables_.tile_count > 0; }

  /// @brief Rows per band (all of them when the gather reads S's rows and columns).
  /// @return rows
  int band_rows() const { return band_rows_; }

  /// @brief Kernels run() launches: a GEMM and a gather per band that holds entries.
  /// @return launches
  int launches() const;

 private:
  /// Gathers the entries of @p tiles tiles from @p first_tile on, whose rows the buffer holds
  /// from @p first_row on.
  void gather_band(int first_row, std::int64_t first_tile, std::int64_t tiles,
                   const DevicePattern& pattern, float* output, cudaStream_t stream) const;

  std::vector<std::int64_t> band_first_tile_;  ///< each band's first tile, then the tile count
  int band_rows_ = 0;                          ///< rows per band (dense_band_rows)
  DensePanelTables tables_;
  course::DeviceBuffer<float> product_;  ///< one band of the product
  cublasHandle_t handle_ = nullptr;
  int rows_ = 0;
  int cols_ = 0;
  std::int64_t nnz_ = 0;
};

}  // namespace course::step5
