/// @file baselines.hpp
/// @brief The benchmark's baselines on one case, all on the same inputs: cuSPARSE's SDDMM with
/// fp16 A and B (the reference every speedup is quoted against), cuSPARSE with fp32 A and B
/// (cusparse_baseline.cu), "dense then sample", a cuBLAS fp16 Tensor Core GEMM of the whole
/// rows×cols product and a gather at the nonzeros (dense_then_sample.cu). The LIMIT column,
/// the least time the case's plan can take, is limit_rates.hpp's.
///
/// Step 5, the benchmark (the lab): what each row of ours is compared with.
/// Read first: bench.hpp, then sddmm_bench.cu's file comment (what each column measures).
#pragma once

#include "common/matrix.hpp"
#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/step5_launchers.hpp"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusparse.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace course::step5::bench {

struct Settings;

/// @brief The libraries' handles, created once per run (not timed).
struct Libraries {
  cusparseHandle_t cusparse = nullptr;  ///< for both cuSPARSE baselines
  cublasHandle_t cublas = nullptr;      ///< for dense then sample
};

/// @brief One baseline's run on one case.
struct BaselineRun {
  std::optional<double> ms;        ///< kernel time, median of the repeats (when it ran)
  std::optional<double> min_ms;    ///< kernel time, fastest repeat
  std::optional<double> other_ms;  ///< its preprocessing, median (cuSPARSE only)
  std::string note;                ///< the layout of B, or why it did not run
  std::vector<float> result;       ///< S ∘ (A·B) in S's order (empty when it did not run)
};

/// @brief The precision of the dense A and B that cuSPARSE reads (C and compute: fp32).
enum class CusparseInputs {
  fp16,  ///< A and Bᵀ as they are: the same bytes as our kernels read
  fp32   ///< float copies of the same values: twice the bytes
};

/// @brief Times cuSPARSE's SDDMM on @p csr with the layouts of B that the settings allow
/// (fp16: B column-major only, the bytes of Bᵀ), keeping the fastest; a layout that fails is
/// reported on stderr and skipped.
/// @param case_name the case's name, for the log
/// @param settings repeats and layouts
/// @param handle the cuSPARSE handle
/// @param csr S
/// @param a A (rows×inner half, device)
/// @param b_transposed Bᵀ (cols×inner half, device)
/// @param inner columns of A and Bᵀ (the dot products' length)
/// @param inputs fp16 or fp32 A and B
/// @return the times and results
BaselineRun time_cusparse(const std::string& case_name, const Settings& settings,
                          cusparseHandle_t handle, const course::CsrMatrix& csr,
                          const course::DeviceBuffer<__half>& a,
                          const course::DeviceBuffer<__half>& b_transposed, int inner,
                          CusparseInputs inputs);

/// @brief Why dense then sample cannot run here (its rows×cols float product and cuBLAS's work
/// space do not fit in the free device memory, with a margin), naming the figures; empty when
/// it can.
/// @param rows rows of S and A
/// @param cols columns of S (rows of Bᵀ)
/// @return the reason, or empty
std::string dense_then_sample_skip(int rows, int cols);

/// @brief Times dense then sample: cublasGemmEx (fp16 A and B, fp32 output and compute,
/// Tensor Cores) of the whole rows×cols product into a float buffer, then a gather kernel that
/// reads it at S's nonzeros (times S's values unless S is a pattern). The time is both
/// launches together; a product that does not fit is skipped with the reason in the note.
/// @param settings repeats
/// @param handle the cuBLAS handle
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @return the times and result
BaselineRun time_dense_then_sample(const Settings& settings, cublasHandle_t handle,
                                   const course::step5::DevicePattern& pattern,
                                   const course::step5::DenseOperands& operands);

}  // namespace course::step5::bench
