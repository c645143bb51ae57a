/// @file dense_then_sample.cu
/// @brief Dense then sample: cuBLAS's fp16 Tensor Core GEMM of the whole rows×cols product, then a
/// gather at S's nonzeros.
///
/// Step 5, the benchmark (the lab): the baseline a user would write for a dense-ish mask.
/// Read first: baselines.hpp.
#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/going_further/dense_product_path.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"
#include "step5_tensor_core_sddmm/lab/bench/graph_timing.hpp"

#include <cstddef>
#include <string>

namespace course::step5::bench {
namespace {

/// Device memory left free beside the product: cuBLAS's work space and the allocator's slack.
constexpr std::size_t kMarginBytes = std::size_t{512} << 20;

std::size_t product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * sizeof(float);
}

}  // namespace

std::string dense_then_sample_skip(int rows, int cols) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  course::device_memory(free_bytes, total_bytes);
  const std::size_t needed = product_bytes(rows, cols) + kMarginBytes;
  if (needed <= free_bytes) {
    return "";
  }
  return "skipped: the dense " + std::to_string(rows) + " x " + std::to_string(cols) +
         " float product needs " + course::format_bytes(product_bytes(rows, cols)) + " (plus " +
         course::format_bytes(kMarginBytes) + " margin), " + course::format_bytes(free_bytes) +
         " free";
}

BaselineRun time_dense_then_sample(const Settings& settings, cublasHandle_t handle,
                                   const course::step5::DevicePattern& pattern,
                                   const course::step5::DenseOperands& operands) {
  BaselineRun run;
  run.note = dense_then_sample_skip(operands.rows, operands.cols);
  if (!run.note.empty()) {
    return run;
  }
  run.note = "cuBLAS fp16 GEMM + gather";
  course::DeviceBuffer<float> product(
      static_cast<std::size_t>(operands.rows) * static_cast<std::size_t>(operands.cols),
      "the dense product (dense then sample)");
  course::DeviceBuffer<float> output(static_cast<std::size_t>(pattern.nnz()),
                                     "P (dense then sample)");
  // The same GEMM and gather as approach 4's dense path (going_further/dense_product_path.hpp),
  // with the benchmark's own handle and buffer: what a user who does it densely runs.
  cudaStream_t stream = nullptr;  // the default stream; the capture's while it is captured
  const auto work = [&] {
    course::step5::dense_product_fp16(handle, operands, product.data());
    course::step5::gather_at_pattern(product.data(), operands.cols, pattern, output.data(), stream);
  };
  const auto use_stream = [&](cudaStream_t given) {
    stream = given;
    CUBLAS_CHECK(cublasSetStream(handle, given));
  };
  const course::TimingStats timing = time_plain_or_graph(work, use_stream, settings.repeats);
  run.ms = timing.median_ms;
  run.min_ms = timing.min_ms;
  run.result = output.to_vector();
  return run;
}

}  // namespace course::step5::bench
