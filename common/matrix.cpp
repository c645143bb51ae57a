#include "common/matrix.hpp"

#include <cstdint>
#include <mutex>

namespace course {

void check_matrix_shape(long long rows, long long cols, long long ld) {
  if (rows < 0 || cols < 0 || ld < cols) {
    throw std::invalid_argument("bad matrix shape: rows=" + std::to_string(rows) +
                                ", cols=" + std::to_string(cols) + ", ld=" + std::to_string(ld) +
                                " (need rows >= 0, cols >= 0 and ld >= cols)");
  }
}

void keep_pool_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  });
}

}  // namespace course
