#include "common/timing.hpp"

#include "common/cuda_check.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace course {

double median(std::vector<double> samples) {
  if (samples.empty()) {
    throw std::invalid_argument("median of an empty list of timings");
  }
  std::sort(samples.begin(), samples.end());
  const std::size_t middle = samples.size() / 2;
  if (samples.size() % 2 == 1) {
    return samples[middle];
  }
  return 0.5 * (samples[middle - 1] + samples[middle]);
}

TimingStats summarize(const std::vector<double>& samples) {
  TimingStats stats;
  stats.median_ms = median(samples);
  stats.min_ms = *std::min_element(samples.begin(), samples.end());
  stats.max_ms = *std::max_element(samples.begin(), samples.end());
  stats.repeats = static_cast<int>(samples.size());
  return stats;
}

GpuTimer::GpuTimer() {
  CUDA_CHECK(cudaEventCreate(&start_));
  CUDA_CHECK(cudaEventCreate(&stop_));
}

GpuTimer::~GpuTimer() {
  cudaEventDestroy(start_);  // no check: destructors must not throw
  cudaEventDestroy(stop_);
}

void GpuTimer::start(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(start_, stream)); }

double GpuTimer::stop_ms(cudaStream_t stream) {
  CUDA_CHECK(cudaEventRecord(stop_, stream));
  CUDA_CHECK(cudaEventSynchronize(stop_));
  float elapsed = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
  return elapsed;
}

TimingStats time_gpu(const std::function<void()>& work, int warmup, int repeats) {
  if (repeats < 1) {
    throw std::invalid_argument("time_gpu needs at least one repeat");
  }
  for (int run = 0; run < warmup; ++run) {
    work();
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  GpuTimer timer;
  std::vector<double> samples;
  for (int run = 0; run < repeats; ++run) {
    timer.start();
    work();
    samples.push_back(timer.stop_ms());
  }
  return summarize(samples);
}

TimingStats time_host(const std::function<void()>& work, int warmup, int repeats) {
  if (repeats < 1) {
    throw std::invalid_argument("time_host needs at least one repeat");
  }
  for (int run = 0; run < warmup; ++run) {
    work();
  }
  std::vector<double> samples;
  for (int run = 0; run < repeats; ++run) {
    const auto begin = std::chrono::steady_clock::now();
    work();
    const auto end = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(end - begin).count());
  }
  return summarize(samples);
}

}  // namespace course
