/// @file launch_checks.cu
/// @brief The shared-memory poison and the captured launches of the runner (see
/// launch_checks.hpp).
#include "grading/judge/launch_checks.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace course::judge {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

/// Writes NaN into every 16 bytes of the block's dynamic shared memory. Nothing reads the
/// stores in this kernel: the compiler barrier at the end keeps them (the next kernel on the
/// SM is the one that reads them, if it reads a slot it did not write).
__global__ void grading_poison_shared_kernel(int quads) {
  extern __shared__ float4 shared[];
  const float nan = __int_as_float(0x7FC00000);  // a quiet NaN
  const float4 poison = make_float4(nan, nan, nan, nan);
  for (int index = threadIdx.x; index < quads; index += blockDim.x) {
    shared[index] = poison;
  }
  asm volatile("" ::: "memory");
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
  bytes_ = optin / static_cast<int>(sizeof(float4)) * static_cast<int>(sizeof(float4));
  // One launch outside any capture: a poison that cannot run (a tool that needs shared
  // memory of its own) is left out with a line on stderr rather than failing every product.
  grading_poison_shared_kernel<<<blocks_, kPoisonThreads, bytes_>>>(quads());
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t ran = launched == cudaSuccess ? cudaDeviceSynchronize() : launched;
  usable_ = ran == cudaSuccess;
  if (!usable_) {
    std::fprintf(stderr, "runner: the shared-memory poison cannot run (%s): left out\n",
                 cudaGetErrorString(ran));
    cudaGetLastError();
  }
}

int SharedMemoryPoison::quads() const {
  return bytes_ / static_cast<int>(sizeof(float4));
}

cudaError_t SharedMemoryPoison::launch(cudaStream_t stream) const {
  if (!usable_) {
    return cudaSuccess;
  }
  grading_poison_shared_kernel<<<blocks_, kPoisonThreads, bytes_, stream>>>(quads());
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
