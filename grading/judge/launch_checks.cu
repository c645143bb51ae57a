/// @file launch_checks.cu
/// @brief The shared-memory poison and the captured launches of the runner (see
/// launch_checks.hpp).
#include "grading/judge/launch_checks.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace course::judge {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

/// Writes NaN into every word of the block's dynamic shared memory. The stores are volatile:
/// nothing reads them in this kernel, and they must not be optimised away (the next kernel
/// on the SM is the one that reads them, if it reads a slot it did not write).
__global__ void grading_poison_shared_kernel(int words) {
  extern __shared__ float shared[];
  volatile float* slots = shared;
  const float poison = __int_as_float(0x7FC00000);  // a quiet NaN
  for (int index = threadIdx.x; index < words; index += blockDim.x) {
    slots[index] = poison;
  }
}

constexpr int kPoisonThreads = 1024;

/// Ends a capture still under way when an exception leaves run_captured.
class CaptureGuard {
 public:
  explicit CaptureGuard(cudaStream_t stream) : stream_(stream) {}
  ~CaptureGuard() {
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream_, &status) == cudaSuccess &&
        status != cudaStreamCaptureStatusNone) {
      cudaGraph_t graph = nullptr;
      cudaStreamEndCapture(stream_, &graph);
      if (graph != nullptr) {
        cudaGraphDestroy(graph);
      }
    }
    cudaGetLastError();
  }
  CaptureGuard(const CaptureGuard&) = delete;
  CaptureGuard& operator=(const CaptureGuard&) = delete;

 private:
  cudaStream_t stream_;
};

}  // namespace

SharedMemoryPoison::SharedMemoryPoison() {
  int device = 0;
  int processors = 0;
  int optin = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device),
        "multiprocessor count");
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
        "shared memory per block");
  check(cudaFuncSetAttribute(grading_poison_shared_kernel,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, optin),
        "poison: shared memory size");
  // The whole carveout as shared memory, as the kernels that follow prefer too: what the
  // poison writes stays shared memory for them to read.
  check(cudaFuncSetAttribute(grading_poison_shared_kernel,
                             cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared),
        "poison: carveout");
  check(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), "prefer shared memory");
  blocks_ = 2 * processors;  // one block fits an SM: every SM gets one, twice
  bytes_ = optin;
}

cudaError_t SharedMemoryPoison::launch(cudaStream_t stream) const {
  grading_poison_shared_kernel<<<blocks_, kPoisonThreads, bytes_, stream>>>(
      bytes_ / static_cast<int>(sizeof(float)));
  return cudaGetLastError();
}

void run_captured(cudaStream_t stream, const std::function<void()>& launch_all,
                  const std::function<void()>& before_graph) {
  cudaGraph_t graph = nullptr;
  {
    const CaptureGuard guard(stream);
    check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "begin capture");
    launch_all();
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    if (ended != cudaSuccess || graph == nullptr) {
      cudaGetLastError();
      throw std::runtime_error(
          std::string("a launch did not go to the stream the launcher was given (its "
                      "capture into a graph ended with: ") +
          cudaGetErrorString(ended) + ")");
    }
  }
  cudaGraphExec_t exec = nullptr;
  try {
    // Whatever was launched on another stream has finished now; its outputs are overwritten.
    check(cudaDeviceSynchronize(), "the launches outside the stream");
    before_graph();
    check(cudaGraphInstantiate(&exec, graph, 0), "graph instantiation");
    check(cudaGraphLaunch(exec, stream), "graph launch");
    check(cudaStreamSynchronize(stream), "the launches");
  } catch (...) {
    if (exec != nullptr) {
      cudaGraphExecDestroy(exec);
    }
    cudaGraphDestroy(graph);
    throw;
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

}  // namespace course::judge
