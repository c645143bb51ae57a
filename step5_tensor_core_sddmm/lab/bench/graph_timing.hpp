/// @file graph_timing.hpp
/// @brief Timing a baseline both ways a user may run it: call by call, and captured once into a
/// CUDA graph then launched, as approach 4 runs every plan
/// (going_further/run_graph.hpp); the faster counts, so that a baseline of several launches
/// (cuBLAS's GEMM and the gather) is not charged the host's queuing of each.
///
/// Step 5, the benchmark (the lab): the baselines' fair timing against approach 4's run graph
/// (going_further/run_graph.hpp).
/// Read first: baselines.hpp, common/timing.hpp.
#pragma once

#include "common/timing.hpp"

#include <cuda_runtime.h>

#include <functional>

namespace course::step5::bench {

/// @brief Times @p work queued call by call (time_gpu on the default stream), then captured once
/// into a CUDA graph on a private stream and launched on the default stream, and returns the
/// faster of the two by median. When the capture fails, says so on stderr and returns the first.
/// @param work queues the work on the stream its library handles are pointed at
/// @param use_stream points the handles (and any stream the work passes) at the stream it is
/// given: the capture's, then the default stream (nullptr) again, also when the capture fails
/// @param repeats timed runs of each (>= 1), after one untimed
/// @return the faster timing
course::TimingStats time_plain_or_graph(const std::function<void()>& work,
                                        const std::function<void(cudaStream_t)>& use_stream,
                                        int repeats);

}  // namespace course::step5::bench
