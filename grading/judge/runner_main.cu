/// @file runner_main.cu
/// @brief The student-side runner's main: reads a case, runs each product on the GPU with
/// the step's launcher (runner_stepN.cu), writes the outputs. Its exit status and printout
/// decide nothing: the judge compares the outputs with its own reference.
///
///     grading_runner_stepN --inputs CASE.in --outputs CASE.out
///     grading_runner_stepN --probe        (prints the GPU it sees: the sandbox's check)

#include "grading/judge/case_file.hpp"
#include "grading/judge/runner_steps.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace course::judge {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

/// Copies the inputs into place. It is the runner's kernel, not the student's: an initcheck
/// run restricted to the student's kernels leaves it uninstrumented, so what it writes looks
/// unwritten to that run, which then reports every read of the inputs by a student kernel,
/// by name (the evidence that a student kernel ran and read them).
__global__ void grading_input_copy_kernel(unsigned char* target, const unsigned char* source,
                                          std::size_t bytes) {
  for (std::size_t index = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       index < bytes; index += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    target[index] = source[index];
  }
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

/// Uploads @p count elements through a staging buffer and the copy kernel.
template <typename T>
void upload(const Buffer& target, const std::vector<T>& host) {
  const std::size_t bytes = host.size() * sizeof(T);
  if (bytes == 0) {
    return;
  }
  Buffer staging(bytes);
  check(cudaMemcpy(staging.as<void>(), host.data(), bytes, cudaMemcpyHostToDevice), "upload");
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((bytes + 255) / 256, 4096));
  grading_input_copy_kernel<<<blocks, 256>>>(target.as<unsigned char>(),
                                             staging.as<unsigned char>(), bytes);
  check(cudaGetLastError(), "input copy launch");
  check(cudaDeviceSynchronize(), "input copy");
}

std::vector<float> download(const Buffer& result, std::size_t count) {
  std::vector<float> values(count);
  check(cudaDeviceSynchronize(), "the launch");
  check(cudaMemcpy(values.data(), result.as<void>(), count * sizeof(float), cudaMemcpyDeviceToHost),
        "copy back");
  return values;
}

std::vector<float> run_one(const GemmProduct& product) {
  const std::size_t count = static_cast<std::size_t>(product.rows) * product.cols;
  Buffer a(product.a.size() * sizeof(float));
  Buffer b(product.b.size() * sizeof(float));
  Buffer c(count * sizeof(float));
  upload(a, product.a);
  upload(b, product.b);
  check(cudaMemset(c.as<void>(), 0xFF, c.bytes()), "poison");  // NaN: unwritten shows
  run_gemm({product.launcher, product.variant, product.rows, product.inner, product.cols,
            a.as<float>(), b.as<float>(), c.as<float>()});
  return download(c, count);
}

std::vector<float> run_one(const SddmmProduct& product) {
  Buffer a(product.a.size() * sizeof(std::uint16_t));
  Buffer b(product.b_transposed.size() * sizeof(std::uint16_t));
  Buffer output(product.value.size() * sizeof(float));
  upload(a, product.a);
  upload(b, product.b_transposed);
  check(cudaMemset(output.as<void>(), 0xFF, output.bytes()), "poison");
  run_sddmm({&product, a.as<__half>(), b.as<__half>(), output.as<float>()});
  return download(output, product.value.size());
}

template <typename Product>
void run_all(const std::vector<Product>& products, std::vector<ProductOutput>& outputs) {
  for (std::size_t index = 0; index < products.size(); ++index) {
    ProductOutput output;
    try {
      output.values = run_one(products[index]);
      output.status = 0;
    } catch (const std::exception& error) {
      std::fprintf(stderr, "product %zu: %s\n", index, error.what());
      cudaGetLastError();  // clear a launch error so that the next product can run
    }
    outputs.push_back(std::move(output));
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
  run_all(inputs.gemm, outputs);
  run_all(inputs.sddmm, outputs);
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
