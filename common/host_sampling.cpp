/// @file host_sampling.cpp
/// @brief pattern_values_of() and HostSampling: CSR, pinned, pattern or values.
#include "common/host_sampling.hpp"

#include <cuda_runtime_api.h>

#include <malloc.h>

#include <algorithm>
#include <iostream>

namespace course {

PatternValues pattern_values_of(const std::vector<float>& values) {
  const bool ones =
      std::all_of(values.begin(), values.end(), [](float value) { return value == 1.0f; });
  return ones ? PatternValues::all_ones : PatternValues::upload;
}

void give_large_vectors_their_own_pages() {
  mallopt(M_MMAP_THRESHOLD, 1 << 16);
}

const char* pattern_values_name(PatternValues values) {
  return values == PatternValues::all_ones ? "pattern" : "values";
}

HostSampling::HostSampling(const CooMatrix& matrix)
    : csr_(coo_to_csr(matrix)), values_(pattern_values_of(csr_.values)) {
  pin(csr_.row_offsets.data(), csr_.row_offsets.size() * sizeof(int));
  pin(csr_.col_indices.data(), csr_.col_indices.size() * sizeof(int));
  if (!pattern()) {
    pin(csr_.values.data(), csr_.values.size() * sizeof(float));  // a pattern uploads none
  }
}

HostSampling::~HostSampling() {
  for (void* data : pinned_) {
    cudaHostUnregister(data);  // no check: destructors must not throw
  }
}

void HostSampling::pin(const void* data, std::size_t bytes) {
  constexpr std::size_t kPinFrom = std::size_t{1} << 20;
  if (bytes < kPinFrom) {
    return;  // a small vector: pinning it costs about what it saves
  }
  void* address = const_cast<void*>(data);
  if (cudaHostRegister(address, bytes, cudaHostRegisterDefault) == cudaSuccess) {
    pinned_.push_back(address);
    return;
  }
  cudaGetLastError();  // not pinned: the upload still works, from pageable memory
  std::cerr << "note: could not pin " << bytes << " bytes of S; its upload is pageable\n";
}

}  // namespace course
