// Step 5, experiments (lesson Part 2, "Full tiles"): approach 4 on attention masks.
// Read first: full_tiles.hpp, experiments/attention_masks.hpp.
/// @file full_tile_bench.cu
/// @brief full_tile_bench: approach 4 with and without full tiles on attention masks at
/// inner 64, 128 and 256, against cuSPARSE's SDDMM with fp16 A and B (fp32 C and compute)
/// and "dense then sample" (cuBLAS fp16 GEMM of the whole product, fp16 out, then a gather
/// at S's entries), with the speed of light: A and B once in fp16, S's CSR pattern and the
/// nnz fp32 outputs at the device-to-device copy bandwidth measured at start-up. Every
/// result of ours is checked against cuSPARSE's. Prints Markdown; --csv writes the table.
#include "common/cli.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/timing.hpp"
#include "experiments/attention_masks.hpp"
#include "launch_config.hpp"
#include "step5_launchers.hpp"

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

using course::step5::experiments::bigbird_mask;
using course::step5::experiments::block_sparse_mask;
using course::step5::experiments::sliding_window_mask;

constexpr int kWarmup = 3;
constexpr int kRepeats = 15;

/// One gathered value per entry: out[e] = dense[row_e · cols + col_e] in float.
__global__ void gather_kernel(const __half* dense, int cols, const int* rows, const int* columns,
                              std::int64_t nnz, float* out) {
  const std::int64_t entry = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (entry < nnz) {  // the last block's threads past S's end
    out[entry] =
        __half2float(dense[static_cast<std::int64_t>(rows[entry]) * cols + columns[entry]]);
  }
}

/// Device-to-device copy bandwidth, bytes read plus written per second.
double copy_bandwidth() {
  const std::size_t bytes = std::size_t{1} << 30;
  course::DeviceBuffer<unsigned char> source(bytes, "bandwidth source");
  course::DeviceBuffer<unsigned char> target(bytes, "bandwidth target");
  source.zero();
  const auto stats = course::time_gpu(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice,
                                   nullptr));
      },
      kWarmup, kRepeats);
  return 2.0 * static_cast<double>(bytes) / (stats.median_ms * 1e-3);
}

/// cuSPARSE's SDDMM with fp16 A (row-major) and B (column-major: b_transposed's bytes), fp32
/// C in S's CSR pattern and fp32 compute; times its run.
struct CusparseHalf {
  cusparseHandle_t handle = nullptr;
  cusparseDnMatDescr_t a = nullptr;
  cusparseDnMatDescr_t b = nullptr;
  cusparseSpMatDescr_t c = nullptr;
  course::DeviceBuffer<unsigned char> buffer;
  float alpha = 1.0f;
  float beta = 0.0f;

  CusparseHalf(const course::step5::DenseOperands& operands, int* offsets, int* columns,
               float* values, std::int64_t nnz) {
    CUSPARSE_CHECK(cusparseCreate(&handle));
    CUSPARSE_CHECK(cusparseCreateDnMat(&a, operands.rows, operands.inner, operands.lda,
                                       const_cast<__half*>(operands.a), CUDA_R_16F,
                                       CUSPARSE_ORDER_ROW));
    CUSPARSE_CHECK(cusparseCreateDnMat(&b, operands.inner, operands.cols, operands.ldb,
                                       const_cast<__half*>(operands.b_transposed), CUDA_R_16F,
                                       CUSPARSE_ORDER_COL));
    CUSPARSE_CHECK(cusparseCreateCsr(&c, operands.rows, operands.cols, nnz, offsets, columns,
                                     values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    std::size_t bytes = 0;
    CUSPARSE_CHECK(cusparseSDDMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                            CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b, &beta,
                                            c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &bytes));
    buffer = course::DeviceBuffer<unsigned char>(std::max<std::size_t>(bytes, 1),
                                                 "cuSPARSE fp16 SDDMM buffer");
    CUSPARSE_CHECK(cusparseSDDMM_preprocess(
        handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b,
        &beta, c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, buffer.data()));
  }
  ~CusparseHalf() {
    // No checks: destructors must not throw.
    cusparseDestroySpMat(c);
    cusparseDestroyDnMat(b);
    cusparseDestroyDnMat(a);
    cusparseDestroy(handle);
  }
  CusparseHalf(const CusparseHalf&) = delete;
  CusparseHalf& operator=(const CusparseHalf&) = delete;
  void run() {
    CUSPARSE_CHECK(cusparseSDDMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                 CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b, &beta, c,
                                 CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, buffer.data()));
  }
};

/// One row of the table.
struct Row {
  std::string mask;
  int size = 0;
  std::int64_t nnz = 0;
  int inner = 0;
  std::int64_t full_tiles = 0;
  double ours = 0, ours_without = 0, cusparse = 0, dense = -1, light = 0;
  bool ok = false;
};

/// The largest |ours - cuSPARSE| over Σ|a||b| + 1e-6 (the fp16 rounding scale).
bool same_results(const std::vector<float>& ours, const std::vector<float>& theirs,
                  const std::vector<float>& magnitude) {
  for (std::size_t entry = 0; entry < ours.size(); ++entry) {
    if (!(std::fabs(ours[entry] - theirs[entry]) <= 1e-4 * magnitude[entry] + 1e-6)) {
      return false;
    }
  }
  return true;
}

Row measure(const std::string& name, const course::CsrMatrix& mask, int inner, double bandwidth,
            cublasHandle_t cublas) {
  Row row{name, mask.rows, static_cast<std::int64_t>(mask.col_indices.size()), inner};
  const int size = mask.rows;
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(size) * inner, "A");
  course::DeviceBuffer<__half> bt(static_cast<std::size_t>(size) * inner, "b_transposed");
  course::step5::fill_random_half(a.data(), size, inner, inner, 11);
  course::step5::fill_random_half(bt.data(), size, inner, inner, 12);
  const course::step5::DenseOperands operands{size, size, inner, a.data(), inner, bt.data(), inner};
  const course::step5::DevicePattern pattern(mask, course::step5::PatternValues::all_ones);
  course::DeviceBuffer<float> out(row.nnz, "C");
  course::DeviceBuffer<float> reference(row.nnz, "C (cuSPARSE)");
  course::DeviceBuffer<float> magnitude(row.nnz, "magnitudes");

  course::step5::Options without;
  without.full_tiles = false;
  const course::step5::Plan plain(course::step5::Approach::hybrid, pattern, inner, without);
  row.ours_without =
      course::time_gpu([&] { plain.run(operands, out.data()); }, kWarmup, kRepeats).median_ms;
  const course::step5::Plan plan(course::step5::Approach::hybrid, pattern, inner);
  row.full_tiles = plan.full_tiles();
  out.poison();
  row.ours = course::time_gpu([&] { plan.run(operands, out.data()); }, kWarmup, kRepeats).median_ms;

  course::DeviceBuffer<int> offsets(mask.row_offsets.size(), "CSR offsets");
  course::DeviceBuffer<int> columns(mask.col_indices.size(), "CSR columns");
  offsets.upload(mask.row_offsets);
  columns.upload(mask.col_indices);
  {
    CusparseHalf cusparse(operands, offsets.data(), columns.data(), reference.data(), row.nnz);
    row.cusparse = course::time_gpu([&] { cusparse.run(); }, kWarmup, kRepeats).median_ms;
  }
  course::step5::sampled_magnitude(pattern, operands, magnitude.data());
  row.ok = same_results(out.to_vector(), reference.to_vector(), magnitude.to_vector());

  const double dense_bytes = 2.0 * size * static_cast<double>(size);
  if (dense_bytes < 8e9) {  // dense then sample needs the whole product: skipped beyond 8 GB
    course::DeviceBuffer<__half> dense(static_cast<std::size_t>(size) * size, "dense product");
    const float alpha = 1.0f;
    const float beta = 0.0f;
    row.dense = course::time_gpu(
                    [&] {
                      // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: b_transposed's bytes are B
                      // column-major (transposed here), A's are Aᵀ column-major.
                      CUBLAS_CHECK(cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, size, size, inner,
                                                &alpha, bt.data(), CUDA_R_16F, inner, a.data(),
                                                CUDA_R_16F, inner, &beta, dense.data(), CUDA_R_16F,
                                                size, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
                      gather_kernel<<<course::step5::blocks_for(row.nnz, 256), 256>>>(
                          dense.data(), size, pattern.row_indices(), pattern.col_indices(), row.nnz,
                          out.data());
                      CUDA_CHECK_LAUNCH(gather_kernel);
                    },
                    kWarmup, kRepeats)
                    .median_ms;
  }
  const double bytes = 2.0 * 2.0 * size * static_cast<double>(inner) + 4.0 * (size + 1.0) +
                       4.0 * row.nnz + 4.0 * row.nnz;
  row.light = bytes / bandwidth * 1e3;
  return row;
}

}  // namespace

/// @brief Measures approach 4 on the attention masks and prints the table.
/// @param argc argument count
/// @param argv arguments
/// @return 0 on success, non-zero on an error (2: bad command line, 3: no suitable GPU)
int main(int argc, char** argv) {
  return course::run_program("full_tile_bench", [&] {
    std::string csv_path;
    bool quick = false;
    course::ArgParser parser("full_tile_bench",
                             "Times approach 4's full tiles on attention masks (see the file).");
    parser.add_path("--csv", &csv_path, "also write the table as CSV to this file");
    parser.add_flag("--quick", &quick, "only the 16384² block-sparse mask at inner 64");
    if (!parser.parse(argc, argv)) {
      return 0;
    }
    course::require_cuda_device(7, 0);
    const double bandwidth = copy_bandwidth();
    cublasHandle_t cublas = nullptr;
    CUBLAS_CHECK(cublasCreate(&cublas));
    struct Case {
      std::string name;
      course::CsrMatrix mask;
    };
    std::vector<Case> cases;
    cases.push_back(
        {"block-sparse 16384², 128² blocks, 5 %", block_sparse_mask(16384, 128, 0.05, false, 1)});
    if (!quick) {
      cases.push_back(
          {"block-sparse 8192², 64² blocks, 10 %", block_sparse_mask(8192, 64, 0.10, false, 2)});
      cases.push_back({"causal block-sparse 16384², 128² blocks, 10 %",
                       block_sparse_mask(16384, 128, 0.10, true, 3)});
      cases.push_back(
          {"sliding window ±128 + 16 global, 16384²", sliding_window_mask(16384, 128, 16)});
      cases.push_back(
          {"BigBird ±64, 32 global, 64 random, 16384²", bigbird_mask(16384, 64, 32, 64, 4)});
      cases.push_back({"sliding window ±256, 8192²", sliding_window_mask(8192, 256, 0)});
    }
    std::vector<Row> rows;
    for (const Case& c : cases) {
      for (const int inner : {64, 128, 256}) {
        if (quick && inner != 64) {
          continue;
        }
        rows.push_back(measure(c.name, c.mask, inner, bandwidth, cublas));
        const Row& r = rows.back();
        std::fprintf(stderr, "%s inner %d: ours %.3f ms\n", r.mask.c_str(), inner, r.ours);
      }
    }
    cublasDestroy(cublas);
    std::printf("GPU: %s, date: 2026-11-24, copy bandwidth %.0f GB/s (read + written)\n\n",
                course::gpu_name().c_str(), bandwidth * 1e-9);
    std::printf(
        "| mask | inner | nnz | full tiles | approach 4 ms | without full tiles ms | cuSPARSE fp16 "
        "ms | dense then sample ms | speed of light ms | vs best baseline | x light | check |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    std::ofstream csv;
    if (!csv_path.empty()) {
      csv.open(csv_path);
      csv << "gpu,date,mask,size,inner,nnz,full_tiles,approach4_ms,without_full_tiles_ms,"
             "cusparse_fp16_ms,dense_then_sample_ms,speed_of_light_ms,vs_best_baseline,x_light,"
             "check\n";
    }
    for (const Row& r : rows) {
      const double best = r.dense > 0 ? std::min(r.cusparse, r.dense) : r.cusparse;
      std::printf("| %s | %d | %lld | %lld | %.3f | %.3f | %.3f | %s | %.3f | %.2f | %.2f | %s |\n",
                  r.mask.c_str(), r.inner, static_cast<long long>(r.nnz),
                  static_cast<long long>(r.full_tiles), r.ours, r.ours_without, r.cusparse,
                  r.dense > 0 ? std::to_string(r.dense).substr(0, 5).c_str() : "skipped", r.light,
                  best / r.ours, r.ours / r.light, r.ok ? "ok" : "MISMATCH");
      if (csv.is_open()) {
        csv << course::gpu_name() << ",2026-11-24,\"" << r.mask << "\"," << r.size << "," << r.inner
            << "," << r.nnz << "," << r.full_tiles << "," << r.ours << "," << r.ours_without << ","
            << r.cusparse << "," << r.dense << "," << r.light << "," << best / r.ours << ","
            << r.ours / r.light << "," << (r.ok ? "ok" : "mismatch") << "\n";
      }
    }
    return 0;
  });
}
