/// @file test_stream_capture.cu
/// @brief run_captured() (common/testing/stream_capture.hpp) on work that keeps to its stream
/// and on work that leaves it (GPU): the check the step tests rely on must be able to fail.
#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/testing/stream_capture.hpp"

#include <cuda_runtime_api.h>

#include <vector>

namespace {

/// Writes @p value to each of @p count floats.
__global__ void fill_kernel(float* data, int count, float value) {
  const int index = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (index < count) {  // the last block's threads past the end
    data[index] = value;
  }
}

constexpr int kCount = 1000;
constexpr int kThreads = 256;
constexpr unsigned kBlocks = (kCount + kThreads - 1) / kThreads;

}  // namespace

TEST_CASE("captured runs keep work on their stream and refuse work queued elsewhere",
          "[common][gpu]") {
  course::DeviceBuffer<float> data(kCount, "data");
  data.poison();
  // On the stream: captured, run, and its result is there once run_captured returns.
  REQUIRE_NOTHROW(course::testing::run_captured([&](cudaStream_t stream) {
    fill_kernel<<<kBlocks, kThreads, 0, stream>>>(data.data(), kCount, 2.5f);
    CUDA_CHECK_LAUNCH(fill_kernel);
  }));
  const std::vector<float> filled = data.to_vector();
  CHECK(filled.front() == 2.5f);
  CHECK(filled.back() == 2.5f);
  // A kernel on the default stream, as a launcher that forgot its stream queues it.
  CHECK_THROWS_AS(course::testing::run_captured([&](cudaStream_t) {
                    fill_kernel<<<kBlocks, kThreads>>>(data.data(), kCount, 1.0f);
                    CUDA_CHECK_LAUNCH(fill_kernel);
                  }),
                  course::CudaError);
  // A copy on the default stream.
  CHECK_THROWS_AS(course::testing::run_captured([&](cudaStream_t) {
                    CUDA_CHECK(cudaMemsetAsync(data.data(), 0, sizeof(float) * kCount));
                  }),
                  course::CudaError);
  // The failed captures left nothing behind: the next one runs.
  REQUIRE_NOTHROW(course::testing::run_captured([&](cudaStream_t stream) {
    fill_kernel<<<kBlocks, kThreads, 0, stream>>>(data.data(), kCount, 4.0f);
    CUDA_CHECK_LAUNCH(fill_kernel);
  }));
  CHECK(data.to_vector().front() == 4.0f);
}
