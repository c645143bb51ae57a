/// @file launch_checks.hpp
/// @brief What the runner does around the launches of steps 1 to 4 so that two bugs the
/// steps teach show in the outputs: stale shared memory and a launcher that ignores its
/// stream.
///
/// - **Shared memory poisoned.** Before each product, a kernel of the runner fills all the
///   shared memory of every SM with NaN. A kernel that reads a shared slot no thread of its
///   block wrote in this launch (step 4's tiles without the zero fill past the edge: in the
///   first phase of a product whose inner size is under one tile) then multiplies NaN, not a
///   stale finite value that A's zeros would hide, and its outputs are wrong.
/// - **Launches captured.** The products of a batch are launched with the runner's stream
///   captured into a graph in global mode (cudaStreamCaptureModeGlobal), and the graph is
///   what runs. A launch onto the legacy default stream while a blocking stream is captured
///   is refused and invalidates the capture: every product of the batch fails. A launch onto
///   any other stream is not captured: it runs at once, and the outputs are filled with NaN
///   again after every stream has drained and before the graph runs, so its results are
///   gone. Either way a launcher that ignores its stream loses its cases.
///
/// Step 5's sddmm() takes no stream (it allocates and copies on the default stream), so its
/// products run as before, uncaptured and without the poison.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

namespace course::judge {

/// @brief Fills the shared memory of every SM with NaN: one block per SM (twice over), each
/// with the largest dynamic shared memory a block may opt in to. A trial launch at
/// construction decides whether it can run at all (else it is left out, with a line on
/// stderr).
class SharedMemoryPoison {
 public:
  /// @brief Queries the device, raises the poison kernel's shared memory limit and tries it.
  SharedMemoryPoison();
  /// @brief Launches the poison on @p stream and clears the launch's error status, so that
  /// the student's launch check that follows sees only its own.
  /// @param stream the stream being captured
  /// @return the launch's status (a capture already invalidated, or an error of the runner)
  cudaError_t launch(cudaStream_t stream) const;

 private:
  int quads() const;  // float4 slots per block
  int blocks_ = 0;
  int bytes_ = 0;
  bool usable_ = false;  // the trial launch ran
};

/// @brief Runs the launches that @p launch_all makes on @p stream as one graph: captures
/// them (global mode), waits for every stream of the device, calls @p before_graph (the
/// outputs filled with NaN again) and launches the graph; throws std::runtime_error when the
/// capture was invalidated (a launch left the stream) or a call fails.
/// @param stream a blocking stream of the runner's own
/// @param launch_all makes the launches (each product's, on @p stream)
/// @param before_graph queues work on @p stream before the graph (not captured)
void run_captured(cudaStream_t stream, const std::function<void()>& launch_all,
                  const std::function<void()>& before_graph);

}  // namespace course::judge
