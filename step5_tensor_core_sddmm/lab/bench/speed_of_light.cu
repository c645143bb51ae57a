// Step 5, the benchmark (lesson Part 3): the least time an SDDMM can take on this GPU.
// Read first: baselines.hpp.
/// @file speed_of_light.cu
/// @brief The speed-of-light column: the bytes an SDDMM cannot avoid moving, and the
/// device's copy bandwidth that bounds how fast they move.
#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"

#include "common/cuda_check.hpp"
#include "common/timing.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

namespace course::step5::bench {
namespace {

/// The copy's size: far beyond the L2 cache (50 MiB on an H100), so DRAM is measured.
constexpr std::size_t kCopyBytes = std::size_t{512} << 20;

}  // namespace

double measure_copy_bandwidth() {
  course::DeviceBuffer<unsigned char> source(kCopyBytes, "the copy bandwidth's source");
  course::DeviceBuffer<unsigned char> target(kCopyBytes, "the copy bandwidth's target");
  CUDA_CHECK(cudaMemset(source.data(), 1, kCopyBytes));
  const course::TimingStats copy = course::time_gpu(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), kCopyBytes,
                                   cudaMemcpyDeviceToDevice, nullptr));
      },
      2, 20);
  // A copy reads every byte and writes it: twice its size crosses the memory bus.
  return 2.0 * static_cast<double>(kCopyBytes) / (copy.min_ms * 1e-3);
}

double speed_of_light_bytes(int rows, int cols, int inner, std::size_t nnz, bool with_values) {
  const double dense = 2.0 * (static_cast<double>(rows) + cols) * inner;  // fp16 A and Bᵀ
  const double offsets = 4.0 * (static_cast<double>(rows) + 1.0);         // CSR row offsets
  const double per_nonzero = 4.0 + 4.0 + (with_values ? 4.0 : 0.0);       // column, output, value
  return dense + offsets + per_nonzero * static_cast<double>(nnz);
}

}  // namespace course::step5::bench
