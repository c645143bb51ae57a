/// @file runner_main.cu
/// @brief The student-side runner's main: reads a case, runs each product on the GPU with
/// the step's launcher (runner_stepN.cu), in batches, writes the outputs. Its exit status and
/// printout decide nothing: the judge compares the outputs with its own reference. The dense
/// products of steps 1 to 4 are launched on the runner's own stream, captured into a graph,
/// each after a poison of shared memory (launch_checks.hpp).
///
///     grading_runner_stepN --inputs CASE.in --outputs CASE.out
///     grading_runner_stepN --probe        (prints the GPU it sees: the sandbox's check)

#include "grading/judge/case_file.hpp"
#include "grading/judge/launch_checks.hpp"
#include "grading/judge/runner_steps.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace course::judge {
namespace {

// A case's products run in batches of at most this many products and bytes: every buffer
// of a batch is allocated and filled first, then every launch is made, then the batch waits
// for the GPU once and its outputs come back in one copy. A case of thousands of small
// products (step 4's every shape up to 20: 8000) then waits on the GPU a few times, not
// several times per product: beside other processes the GPU is time-sliced and each wait
// can cost a slice (class run of 2026-11-25 on an H200: 28 s for that case beside two other
// graders, 1.6 s alone, with the per-product waits of the first runner).
constexpr std::size_t kBatchProducts = 512;
constexpr std::size_t kBatchBytes = std::size_t{256} << 20;

// The first bytes of each input that only the copy kernel writes: the first elements of A's
// and B's first rows (every product reads them: C's first row and column need them) and of
// S's arrays (the first nonzero needs them). The rest is copied by cudaMemcpy, which the
// sanitizers see, so an evidence run reports the reads of those bytes only, not every read
// of the inputs (it prints at most evidence.PRINT_LIMIT of them, grading/gradelib/evidence.py).
constexpr std::size_t kMarkedBytes = 64;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

/// Copies bytes on the device. It is the runner's kernel, not the student's: an initcheck
/// run restricted to the student's kernels leaves it uninstrumented, so the bytes it writes
/// (the first kMarkedBytes of each input, see stage) look unwritten to that run, which then
/// reports each read of them by a student kernel, by name: the evidence that a student
/// kernel ran and read the inputs.
__global__ void grading_copy_kernel(unsigned char* target, const unsigned char* source,
                                    std::size_t bytes) {
  for (std::size_t index = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       index < bytes; index += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    target[index] = source[index];
  }
}

/// Launches the copy kernel on the default stream (no wait).
void copy_on_device(unsigned char* target, const unsigned char* source, std::size_t bytes) {
  if (bytes == 0) {
    return;
  }
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((bytes + 255) / 256, 4096));
  grading_copy_kernel<<<blocks, 256>>>(target, source, bytes);
  check(cudaGetLastError(), "copy launch");
}

/// A device buffer of its own (exact size, so that memcheck sees a read or write past it).
class Buffer {
 public:
  explicit Buffer(std::size_t bytes) : bytes_(bytes) {
    check(cudaMalloc(&data_, bytes == 0 ? 1 : bytes), "cudaMalloc");
  }
  ~Buffer() { cudaFree(data_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_;
};

/// One product's device buffers: its two inputs and its output (NaN before the launch).
struct Slot {
  std::vector<std::unique_ptr<Buffer>> inputs;
  std::unique_ptr<Buffer> output;
  bool failed = false;
};

using Span = std::pair<const void*, std::size_t>;

std::vector<Span> input_spans(const GemmProduct& product) {
  return {{product.a.data(), product.a.size() * sizeof(float)},
          {product.b.data(), product.b.size() * sizeof(float)}};
}

std::vector<Span> input_spans(const SddmmProduct& product) {
  return {{product.a.data(), product.a.size() * sizeof(std::uint16_t)},
          {product.b_transposed.data(), product.b_transposed.size() * sizeof(std::uint16_t)}};
}

std::size_t output_bytes(const GemmProduct& product) {
  return static_cast<std::size_t>(product.rows) * product.cols * sizeof(float);
}

std::size_t output_bytes(const SddmmProduct& product) {
  return product.value.size() * sizeof(float);
}

template <typename Product>
std::size_t product_bytes(const Product& product) {
  std::size_t bytes = output_bytes(product);
  for (const Span& span : input_spans(product)) {
    bytes += span.second;
  }
  return bytes;
}

/// What every batch of a run shares: the runner's stream, the shared-memory poison and the
/// launchers (launcher, variant) already launched once outside a capture.
struct Launching {
  cudaStream_t stream = nullptr;  ///< blocking: a legacy-stream launch breaks its capture
  SharedMemoryPoison poison;
  std::set<std::pair<int, int>> warmed;
};

void launch(const GemmProduct& product, const Slot& slot, const Launching& launching) {
  run_gemm({product.launcher, product.variant, product.rows, product.inner, product.cols,
            slot.inputs[0]->as<float>(), slot.inputs[1]->as<float>(), slot.output->as<float>(),
            launching.stream});
}

void launch(const SddmmProduct& product, const Slot& slot, const Launching&) {
  run_sddmm({&product, slot.inputs[0]->as<__half>(), slot.inputs[1]->as<__half>(),
             slot.output->as<float>()});
}

/// Allocates the buffers of the products of @p slots (from @p first on) and fills them: the inputs
/// in one copy to a staging buffer, then into each input's own buffer (its first kMarkedBytes by
/// the copy kernel, the rest by a device-to-device copy); the outputs
/// with NaN (unwritten shows). Returns the staging buffer, which must live until the batch has been
/// waited for.
template <typename Product>
std::unique_ptr<Buffer> stage(const std::vector<Product>& products, std::size_t first,
                              std::vector<Slot>& slots) {
  std::vector<unsigned char> host;
  for (std::size_t index = 0; index < slots.size(); ++index) {
    for (const Span& span : input_spans(products[first + index])) {
      const auto* bytes = static_cast<const unsigned char*>(span.first);
      host.insert(host.end(), bytes, bytes + span.second);
    }
  }
  auto staging = std::make_unique<Buffer>(host.size());
  if (!host.empty()) {
    check(cudaMemcpy(staging->as<void>(), host.data(), host.size(), cudaMemcpyHostToDevice),
          "upload");
  }
  std::size_t offset = 0;
  for (std::size_t index = 0; index < slots.size(); ++index) {
    Slot& slot = slots[index];
    for (const Span& span : input_spans(products[first + index])) {
      slot.inputs.push_back(std::make_unique<Buffer>(span.second));
      auto* target = slot.inputs.back()->as<unsigned char>();
      const unsigned char* source = staging->as<unsigned char>() + offset;
      const std::size_t marked = std::min(span.second, kMarkedBytes);
      copy_on_device(target, source, marked);
      check(cudaMemcpyAsync(target + marked, source + marked, span.second - marked,
                            cudaMemcpyDeviceToDevice),
            "input copy");
      offset += span.second;
    }
    slot.output = std::make_unique<Buffer>(output_bytes(products[first + index]));
    check(cudaMemsetAsync(slot.output->as<void>(), 0xFF, slot.output->bytes()), "poison");
  }
  return staging;
}

/// Launches one product; a launcher that throws fails that product only.
template <typename Product>
void launch_one(const Product& product, Slot& slot, std::size_t index, const Launching& launching) {
  try {
    launch(product, slot, launching);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "product %zu: %s\n", index, error.what());
    cudaGetLastError();  // clear a launch error so that the next product can run
    slot.failed = true;
  }
}

/// Gathers the outputs of the products that launched into one buffer, copies it back once
/// and hands each product its values.
void download(const std::vector<Slot>& slots, std::vector<ProductOutput>& outputs) {
  std::size_t total = 0;
  for (const Slot& slot : slots) {
    total += slot.failed ? 0 : slot.output->bytes();
  }
  Buffer gathered(total);
  std::size_t offset = 0;
  for (const Slot& slot : slots) {
    if (!slot.failed) {
      // A copy the sanitizers see (not the copy kernel): an evidence run leaves the copy
      // kernel uninstrumented, and the copy back of outputs it gathered would then be
      // reported as a read of unwritten memory, every word of them.
      check(cudaMemcpyAsync(gathered.as<unsigned char>() + offset, slot.output->as<void>(),
                            slot.output->bytes(), cudaMemcpyDeviceToDevice),
            "gather");
      offset += slot.output->bytes();
    }
  }
  std::vector<float> host(total / sizeof(float));
  if (total > 0) {
    check(cudaMemcpy(host.data(), gathered.as<void>(), total, cudaMemcpyDeviceToHost), "copy back");
  }
  offset = 0;
  for (std::size_t index = 0; index < slots.size(); ++index) {
    if (slots[index].failed) {
      continue;
    }
    const std::size_t count = slots[index].output->bytes() / sizeof(float);
    outputs[index].values.assign(host.begin() + offset, host.begin() + offset + count);
    outputs[index].status = 0;
    offset += count;
  }
}

/// Launches the dense products of a batch as one captured graph (launch_checks.hpp): each
/// after the shared-memory poison, all on the runner's stream; the outputs are filled with
/// NaN again just before the graph runs.
void launch_captured(const std::vector<GemmProduct>& products, std::size_t first,
                     std::vector<Slot>& slots, Launching& launching) {
  // The first launch of each kernel loads it (lazy loading; under compute-sanitizer, its
  // instrumentation too): each launcher runs once before any capture, into its product's
  // output, which is filled with NaN again before the graph runs.
  bool warmed = false;
  for (std::size_t index = 0; index < slots.size(); ++index) {
    const GemmProduct& product = products[first + index];
    if (launching.warmed.insert({product.launcher, product.variant}).second) {
      try {
        launch(product, slots[index], launching);
      } catch (const std::exception& error) {
        std::fprintf(stderr, "product %zu (before the capture): %s\n", first + index, error.what());
        cudaGetLastError();
      }
      warmed = true;
    }
  }
  if (warmed) {
    check(cudaDeviceSynchronize(), "the launches before the capture");
  }
  run_captured(
      launching.stream,
      [&] {
        for (std::size_t index = 0; index < slots.size(); ++index) {
          const cudaError_t poisoned = launching.poison.launch(launching.stream);
          if (poisoned != cudaSuccess && poisoned != cudaErrorStreamCaptureInvalidated) {
            throw std::runtime_error(std::string("the shared-memory poison: ") +
                                     cudaGetErrorString(poisoned));
          }
          launch_one(products[first + index], slots[index], first + index, launching);
        }
      },
      [&] {
        for (const Slot& slot : slots) {
          check(cudaMemsetAsync(slot.output->as<void>(), 0xFF, slot.output->bytes(),
                                launching.stream),
                "poison again");
        }
      });
}

/// Runs products [first, first + outputs.size()): a CUDA error while staging, launching or
/// waiting fails every product of the batch that has no output yet (an error of a kernel
/// stays with the context: the products after it could not run either).
template <typename Product>
void run_batch(const std::vector<Product>& products, std::size_t first,
               std::vector<ProductOutput>& outputs, Launching& launching) {
  std::vector<Slot> slots(outputs.size());
  try {
    const std::unique_ptr<Buffer> staging = stage(products, first, slots);
    if constexpr (std::is_same_v<Product, GemmProduct>) {
      check(cudaDeviceSynchronize(), "staging");  // before the capture: no legacy-stream work
      launch_captured(products, first, slots, launching);
    } else {
      for (std::size_t index = 0; index < slots.size(); ++index) {
        launch_one(products[first + index], slots[index], first + index, launching);
      }
    }
    check(cudaDeviceSynchronize(), "the launches");
    download(slots, outputs);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "products %zu to %zu: %s\n", first, first + outputs.size() - 1,
                 error.what());
    cudaGetLastError();
    for (ProductOutput& output : outputs) {
      output = ProductOutput{};  // status 1: not computed
    }
  }
}

/// The end of the batch that starts at @p first.
template <typename Product>
std::size_t batch_end(const std::vector<Product>& products, std::size_t first) {
  std::size_t last = first;
  std::size_t bytes = 0;
  while (last < products.size() && last - first < kBatchProducts) {
    bytes += product_bytes(products[last]);
    if (last > first && bytes > kBatchBytes) {
      break;
    }
    ++last;
  }
  return last;
}

template <typename Product>
void run_all(const std::vector<Product>& products, std::vector<ProductOutput>& outputs,
             Launching& launching) {
  for (std::size_t first = 0; first < products.size();) {
    const std::size_t last = batch_end(products, first);
    std::vector<ProductOutput> batch(last - first);
    run_batch(products, first, batch, launching);
    for (ProductOutput& output : batch) {
      outputs.push_back(std::move(output));
    }
    first = last;
  }
}

int probe() {
  int count = 0;
  cudaDeviceProp properties{};
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
      cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    std::printf("no CUDA device\n");
    return 1;
  }
  std::printf("GPU: %s (sm_%d%d)\n", properties.name, properties.major, properties.minor);
  return 0;
}

int run(int argc, char* argv[]) {
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf(
        "usage: %s --inputs CASE.in --outputs CASE.out | --probe\n\n"
        "Runs each product of a grading case with the step's launcher and writes what came out "
        "(grading/README.md); --probe prints the GPU it sees.\n",
        argv[0]);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--probe") == 0) {
    return probe();
  }
  if (argc != 5 || std::strcmp(argv[1], "--inputs") != 0 ||
      std::strcmp(argv[3], "--outputs") != 0) {
    std::fprintf(stderr, "usage: %s --inputs CASE.in --outputs CASE.out | --probe\n", argv[0]);
    return 2;
  }
  const CaseInputs inputs = read_inputs(argv[2]);
  std::vector<ProductOutput> outputs;
  // Wait for the GPU asleep, not spinning: the eight runs of a turn share the cores with
  // their compute-sanitizer processes, whose threads must run while the runner waits. Set
  // before the first CUDA call; should a context be active already, it keeps its flags
  // (spinning costs time, not results).
  if (cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) != cudaSuccess) {
    cudaGetLastError();
  }
  Launching launching;
  check(cudaStreamCreate(&launching.stream), "the runner's stream");
  run_all(inputs.gemm, outputs, launching);
  run_all(inputs.sddmm, outputs, launching);
  cudaStreamDestroy(launching.stream);
  write_outputs(argv[4], outputs);
  return 0;
}

}  // namespace
}  // namespace course::judge

int main(int argc, char* argv[]) {
  try {
    return course::judge::run(argc, argv);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "runner: %s\n", error.what());
    return 1;
  }
}
