#include "common/device.hpp"

#include "common/cuda_check.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <sstream>

namespace course {

int cuda_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" status so later calls start clean
    return 0;
  }
  return count;
}

bool has_cuda_device() noexcept {
  return cuda_device_count() > 0;
}

const GpuDescription& require_cuda_device(int min_major, int min_minor,
                                          const std::string& feature) {
  if (!has_cuda_device()) {
    throw NoDeviceError(
        "no CUDA-capable GPU was found (cudaGetDeviceCount reports none). The step programs "
        "run their kernels on a GPU; build here, then run on a machine with an NVIDIA GPU "
        "and its driver.");
  }
  const GpuDescription& info = describe_current_gpu();
  if (info.major < kMinComputeMajor ||
      (info.major == kMinComputeMajor && info.minor < kMinComputeMinor)) {
    std::ostringstream message;
    message << "GPU " << info.name << " has compute capability " << info.major << "." << info.minor
            << ", but the course is built for " << kMinComputeMajor << "." << kMinComputeMinor
            << " or newer (the oldest architecture CUDA 13 compiles for)";
    throw NoDeviceError(message.str());
  }
  if (info.major < min_major || (info.major == min_major && info.minor < min_minor)) {
    std::ostringstream message;
    message << "GPU " << info.name << " has compute capability " << info.major << "." << info.minor
            << ", but " << (feature.empty() ? "this program" : feature) << " needs " << min_major
            << "." << min_minor << " or newer";
    throw NoDeviceError(message.str());
  }
  return info;
}

std::string gpu_name() noexcept {
  if (!has_cuda_device()) {
    return "no GPU";
  }
  cudaDeviceProp prop{};
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    return "unknown GPU";
  }
  return prop.name;
}

void device_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
}

std::string format_bytes(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof(text), unit == 0 ? "%.0f %s" : "%.2f %s", value, units[unit]);
  return text;
}

void require_device_memory(std::size_t bytes, const std::string& what) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  device_memory(free_bytes, total_bytes);
  if (bytes > free_bytes) {
    std::ostringstream message;
    message << "not enough device memory for " << what << ": needs " << format_bytes(bytes) << " ("
            << bytes << " bytes), but only " << format_bytes(free_bytes) << " of "
            << format_bytes(total_bytes) << " are free";
    throw DeviceMemoryError(message.str());
  }
}

}  // namespace course
