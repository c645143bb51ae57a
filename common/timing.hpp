/// @file timing.hpp
/// @brief Timing with CUDA events (GPU work) and std::chrono (host work): warm-up runs,
/// then repeats, reporting the median so one slow run does not move the figure.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace course {

/// @brief Median, minimum and maximum of repeated timings, in milliseconds.
struct TimingStats {
  double median_ms = 0.0;  ///< median of the repeats
  double min_ms = 0.0;     ///< fastest repeat
  double max_ms = 0.0;     ///< slowest repeat
  int repeats = 0;         ///< number of timed repeats
};

/// @brief Median of @p samples (the mean of the middle two for an even count).
/// @param samples timings; must not be empty
double median(std::vector<double> samples);

/// @brief Summarises a list of timings.
/// @param samples timings in ms; must not be empty
TimingStats summarize(const std::vector<double>& samples);

/// @brief A pair of CUDA events that times the GPU work issued between start() and stop().
class GpuTimer {
 public:
  GpuTimer();
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  /// @brief Records the start event on @p stream.
  /// @param stream stream whose work is timed
  void start(cudaStream_t stream = nullptr);
  /// @brief Records the stop event, waits for it and returns the elapsed milliseconds.
  /// @param stream the same stream as start()
  double stop_ms(cudaStream_t stream = nullptr);

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

/// @brief Times GPU work: @p warmup untimed calls, then @p repeats calls each between events.
/// @param work enqueues the work to time (a kernel launch, a cuBLAS call, ...)
/// @param warmup untimed calls first (clocks, caches, lazy loading)
/// @param repeats timed calls (>= 1)
TimingStats time_gpu(const std::function<void()>& work, int warmup, int repeats);

/// @brief Times host work with a steady clock, like time_gpu.
/// @param work the work to time
/// @param warmup untimed calls first
/// @param repeats timed calls (>= 1)
TimingStats time_host(const std::function<void()>& work, int warmup, int repeats);

/// @brief Timed runs per measurement of the lab's benchmarks and experiments by default (their
/// `--repeats`; the step programs have their own, shorter default). A result that needed more
/// names its `--repeats` in its run line.
constexpr int kBenchRepeats = 10;

/// @brief Seed of the lab's benchmarks by default (their `--seed`; printed with the results).
/// A fixed one, unlike the step programs' fresh seed, so that two runs (two commits, two GPUs)
/// measure the same inputs: sddmm_bench's random masks are part of what it measures.
constexpr long long kBenchSeed = 1;

}  // namespace course
