/// @file limit_rates.cu
/// @brief measure_limit_rates() (copy, gather, GEMM, empty launch) and case_limit().
///
/// Step 5, the lab: measuring the LIMIT column's rates, and a case's LIMIT.
/// Read first: limit_rates.hpp.
#include "step5_tensor_core_sddmm/lab/bench/limit_rates.hpp"

#include "common/cuda_check.hpp"
#include "common/gpu_description.hpp"
#include "common/matrix.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/lab/bench/graph_timing.hpp"
#include "step5_tensor_core_sddmm/lab/device_utilities.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

namespace course::step5::bench {
namespace {

/// The copy's size: far beyond any L2 cache, so DRAM is measured.
constexpr std::size_t kCopyBytes = std::size_t{512} << 20;
/// Rows of the gather: 256 halves, 512 bytes, as Bᵀ's rows at inner = 256.
constexpr int kRowHalves = 256;
/// Lanes per gathered row (the lane groups' 4 at inner = 256): 8 pieces of 16 bytes each.
constexpr int kGatherLanes = 4;
/// Rows gathered per measurement.
constexpr std::int64_t kGathers = std::int64_t{1} << 22;

/// Each group of kGatherLanes lanes reads one row chosen by a hash, 16 bytes a load, and
/// adds the halves; the sum is stored only if it equals an impossible value, so the loads
/// stay and no write traffic is added.
__global__ void gather_rows_kernel(const uint4* __restrict__ rows, int row_count,
                                   std::int64_t gathers, float* __restrict__ sink) {
  const std::int64_t thread = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t gather = thread / kGatherLanes;
  if (gather >= gathers) {
    return;  // the last block's threads past the last row
  }
  const auto hashed =
      static_cast<std::uint32_t>(gather * 2654435761u) ^ static_cast<std::uint32_t>(gather >> 7);
  const int row = static_cast<int>(hashed % static_cast<std::uint32_t>(row_count));
  const uint4* piece = rows + static_cast<std::int64_t>(row) * (kRowHalves / 8) +
                       static_cast<int>(thread % kGatherLanes);
  float sum = 0.0f;
#pragma unroll
  for (int step = 0; step < kRowHalves / 8 / kGatherLanes; ++step) {
    const uint4 value = __ldg(piece + step * kGatherLanes);
    const __half2* pairs = reinterpret_cast<const __half2*>(&value);
#pragma unroll
    for (int pair = 0; pair < 4; ++pair) {
      const float2 both = __half22float2(pairs[pair]);
      sum += both.x + both.y;
    }
  }
  if (sum == 1234567.0f) {
    *sink = sum;
  }
}

__global__ void empty_kernel() {}

double copy_rate() {
  course::DeviceBuffer<unsigned char> source(kCopyBytes, "the copy rate's source");
  course::DeviceBuffer<unsigned char> target(kCopyBytes, "the copy rate's target");
  CUDA_CHECK(cudaMemset(source.data(), 1, kCopyBytes));
  const course::TimingStats copy = course::time_gpu(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), kCopyBytes,
                                   cudaMemcpyDeviceToDevice, nullptr));
      },
      2, 20);
  return 2.0 * static_cast<double>(kCopyBytes) / (copy.min_ms * 1e-3);
}

double gather_rate() {
  const int l2_bytes = static_cast<int>(course::describe_current_gpu().l2_bytes);
  const int row_count = std::max(1024, l2_bytes / 2 / (kRowHalves * 2));
  course::DeviceBuffer<__half> rows(static_cast<std::size_t>(row_count) * kRowHalves,
                                    "the gather rate's rows");
  course::step5::fill_random_half(rows.data(), row_count, kRowHalves, kRowHalves, 12345);
  course::DeviceBuffer<float> sink(1, "the gather rate's sink");
  const unsigned blocks = static_cast<unsigned>((kGathers * kGatherLanes + 255) / 256);
  const course::TimingStats gather = course::time_gpu(
      [&] {
        gather_rows_kernel<<<blocks, 256>>>(reinterpret_cast<const uint4*>(rows.data()), row_count,
                                            kGathers, sink.data());
        CUDA_CHECK_LAUNCH(gather_rows_kernel);
      },
      2, 20);
  return static_cast<double>(kGathers) * kRowHalves * 2 / (gather.min_ms * 1e-3);
}

double dense_rate(cublasHandle_t cublas) {
  constexpr int kSide = 8192;
  constexpr int kDepth = 4096;
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(kSide) * kDepth, "the GEMM rate's A");
  course::DeviceBuffer<__half> b(static_cast<std::size_t>(kSide) * kDepth, "the GEMM rate's B");
  course::DeviceBuffer<float> c(static_cast<std::size_t>(kSide) * kSide, "the GEMM rate's C");
  course::step5::fill_random_half(a.data(), kSide, kDepth, kDepth, 1);
  course::step5::fill_random_half(b.data(), kSide, kDepth, kDepth, 2);
  const float alpha = 1.0f;
  const float beta = 0.0f;
  const course::TimingStats gemm = course::time_gpu(
      [&] {
        CUBLAS_CHECK(cublasGemmEx(cublas, CUBLAS_OP_T, CUBLAS_OP_N, kSide, kSide, kDepth, &alpha,
                                  b.data(), CUDA_R_16F, kDepth, a.data(), CUDA_R_16F, kDepth, &beta,
                                  c.data(), CUDA_R_32F, kSide, CUBLAS_COMPUTE_32F,
                                  CUBLAS_GEMM_DEFAULT));
      },
      2, 5);
  return 2.0 * kSide * static_cast<double>(kSide) * kDepth / (gemm.min_ms * 1e-3);
}

double launch_floor() {
  // An empty kernel launched, and as a graph: approach 4 runs every plan as a graph
  // (going_further/run_graph.hpp), and the floor is the faster of the two.
  cudaStream_t stream = nullptr;
  const course::TimingStats launch = time_plain_or_graph(
      [&] {
        empty_kernel<<<1, 32, 0, stream>>>();
        CUDA_CHECK_LAUNCH(empty_kernel);
      },
      [&](cudaStream_t given) { stream = given; }, 50);
  return launch.median_ms * 1e-3;
}

}  // namespace

LimitRates measure_limit_rates(cublasHandle_t cublas) {
  LimitRates rates;
  rates.dram_bytes_per_second = copy_rate();
  rates.l2_gather_bytes_per_second = gather_rate();
  rates.dense_flops_per_second = dense_rate(cublas);
  rates.launch_seconds = launch_floor();
  return rates;
}

double CaseLimit::seconds() const {
  return std::max({dram_seconds, gather_seconds, tensor_seconds, launch_seconds});
}

std::string CaseLimit::bound() const {
  const double limit = seconds();
  if (limit == gather_seconds) {
    return "gather";
  }
  if (limit == tensor_seconds) {
    return "tensor";
  }
  if (limit == dram_seconds) {
    return "dram";
  }
  return "launch";
}

CaseLimit case_limit(const MaskedPlanFigures& figures, int rows, int cols, int inner,
                     std::int64_t nnz, bool with_values, const LimitRates& rates) {
  const double dense = 2.0 * (static_cast<double>(rows) + cols) * inner;  // fp16 A and Bᵀ
  const double offsets = 4.0 * (static_cast<double>(rows) + 1.0);         // CSR row offsets
  const double per_entry = 4.0 + 4.0 + (with_values ? 4.0 : 0.0);         // column, output, value
  CaseLimit limit;
  limit.dram_seconds =
      (dense + offsets + per_entry * static_cast<double>(nnz) + figures.extra_dram_bytes) /
      rates.dram_bytes_per_second;
  limit.gather_seconds = figures.gathered_bytes / rates.l2_gather_bytes_per_second;
  limit.tensor_seconds = figures.tensor_flops / rates.dense_flops_per_second;
  limit.launch_seconds = rates.launch_seconds;
  return limit;
}

}  // namespace course::step5::bench
