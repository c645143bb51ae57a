/// @file parallel_launches.hpp
/// @brief ParallelLaunches: a plan's independent kernels (each writes its own entries of the
/// output, none reads another's) queued on side streams, so that they run side by side on
/// the GPU, then joined back into the caller's stream.
///
/// Why: a plan of two or three kernels (full tiles, dense panels, masked tiles, lane groups)
/// queued on one stream runs them one after the other, and a small kernel (64 full tiles
/// are 64 blocks on a 132-SM H200) leaves most SMs idle until it ends. Side by side, the next
/// kernel's blocks fill those SMs at once.
///
/// Step 5, approach 4 (going further): the plan's launches side by side.
/// Read first: sddmm_hybrid_launch.cu (its user).
#pragma once

#include <cuda_runtime.h>

namespace course::step5 {

/// @brief Side streams a run may use besides its own: the most kernels a plan launches (dense
/// panels, full tiles, masked tiles, lane groups) less the one on the caller's stream.
constexpr int kMaxSideStreams = 3;

/// @brief The streams for one run's independent kernels. The first kernel goes on the
/// caller's stream; each later one on a side stream that first waits for what the caller's
/// stream had queued before the run (the fork). join() makes the caller's stream wait for
/// every side stream used, so whatever the caller queues next (a copy, a timing event, the
/// end of a CUDA graph capture) follows every kernel of the run.
///
/// The side streams and events belong to the calling thread (one set per device, created on
/// first use), so runs from one thread share them and runs from two threads never do.
/// Preconditions: the kernels queued through next() write disjoint outputs and read nothing
/// another of them writes; join() is called once, after the last of them.
class ParallelLaunches {
 public:
  /// @brief Records the fork on @p origin.
  /// @param origin the caller's stream (nullptr: the default stream)
  explicit ParallelLaunches(cudaStream_t origin);
  ParallelLaunches(const ParallelLaunches&) = delete;
  ParallelLaunches& operator=(const ParallelLaunches&) = delete;

  /// @brief The stream for the next kernel: the caller's for the first, then side stream
  /// 1, 2, ... (each made to wait for the fork). Throws std::logic_error past
  /// 1 + kMaxSideStreams kernels.
  /// @return the stream
  cudaStream_t next();

  /// @brief Makes the caller's stream wait for every side stream used so far.
  void join();

 private:
  cudaStream_t origin_;
  int used_ = 0;  ///< streams handed out by next()
};

}  // namespace course::step5
