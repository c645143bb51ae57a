/// @file first_call_setup.cu
/// @brief Splits the first preprocessing of a process (upload of S and approach 4's plan) from
/// the steady state by taking away one suspect at a time, each in a fresh process:
/// mode 0 nothing; mode 1 the stream-ordered pool grown by 512 MiB beforehand; mode 2 every
/// preprocessing and SDDMM kernel loaded beforehand (a plan and a run on a small blocky S);
/// mode 3 both. Run each mode also with CUDA_MODULE_LOADING=EAGER to see module loading.
/// S is the 8192² block-sparse attention mask (64×64 blocks, 10 %), inner = 64; calls 1 and 2
/// preprocess a second mask of the same size (twice). Prints one line per call.
///
/// Step 5, an experiment (going further, "Preprocessing"): what the first call's "other"
/// spends its time on. Read first: main.cu (which prints the first and steady-state "other").
#include "common/attention_masks.hpp"
#include "common/cli.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_pattern.hpp"
#include "step5_tensor_core_sddmm/lab/device_utilities.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// The side of S and the head dimension inner.
constexpr int kSize = 8192;
constexpr int kInner = 64;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

course::AttentionMaskSpec block_mask(int size, double density, std::uint64_t seed) {
  course::AttentionMaskSpec spec;
  spec.kind = course::AttentionKind::block_sparse;
  spec.rows = size;
  spec.cols = size;
  spec.block_size = 64;
  spec.block_density = density;
  spec.seed = seed;
  return spec;
}

/// The warm-up that @p mode asks for, timed.
double warm_up(long long mode, const course::step5::DenseOperands& operands, float* output) {
  const auto started = std::chrono::steady_clock::now();
  if (mode == 1 || mode == 3) {  // grow the pool: later allocations reuse its memory
    course::keep_pool_memory();
    void* memory = nullptr;
    CUDA_CHECK(cudaMallocAsync(&memory, std::size_t{512} << 20, nullptr));
    CUDA_CHECK(cudaFreeAsync(memory, nullptr));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  if (mode == 2 || mode == 3) {  // load the kernels: a whole preprocessing and run, small S
    const course::CooMatrix small = course::attention_mask(block_mask(2048, 0.25, 4));
    const course::step5::PanelPattern pattern(course::coo_to_csr(small));
    const course::step5::HybridPlan plan(pattern, kInner);
    course::step5::DenseOperands small_operands = operands;
    small_operands.rows = 2048;
    small_operands.cols = 2048;
    plan.run(small_operands, output);
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  return ms_since(started);
}

int run(int argc, char** argv) {
  long long mode = 0;
  course::ArgParser parser("first_call_setup",
                           "Times the first and later preprocessings of approach 4 on an 8192^2 "
                           "block-sparse mask after a chosen warm-up (see the file comment).");
  parser.add_integer("--mode", &mode, 0, 3,
                     "0 none, 1 pool grown, 2 kernels loaded, 3 both (default 0)");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  // In CSR, as the programs upload S (panel_pattern.hpp); converted before any timing.
  const course::CsrMatrix masks[] = {
      course::coo_to_csr(course::attention_mask(block_mask(kSize, 0.1, 3))),
      course::coo_to_csr(course::attention_mask(block_mask(kSize, 0.1, 4)))};
  const course::GpuDescription device = course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  auto started = std::chrono::steady_clock::now();
  CUDA_CHECK(cudaFree(nullptr));  // the context, created here and not by a timed call
  const double context_ms = ms_since(started);
  course::DeviceBuffer<__half> a(static_cast<std::size_t>(kSize) * kInner, "A");
  course::DeviceBuffer<__half> b_transposed(static_cast<std::size_t>(kSize) * kInner, "Bt");
  course::DeviceBuffer<float> output(masks[0].nnz(), "P");
  course::step5::fill_random_half(a.data(), kSize, kInner, kInner, 1);
  course::step5::fill_random_half(b_transposed.data(), kSize, kInner, kInner, 2);
  CUDA_CHECK(cudaDeviceSynchronize());
  const course::step5::DenseOperands operands(course::ProductSizes{kSize, kInner, kSize}, a.data(),
                                              kInner, b_transposed.data(), kInner);
  const double warm_up_ms = warm_up(mode, operands, output.data());
  const char* loading = std::getenv("CUDA_MODULE_LOADING");
  for (int call = 0; call < 3; ++call) {
    started = std::chrono::steady_clock::now();
    const course::step5::PanelPattern pattern(masks[call == 0 ? 0 : 1]);
    const double pattern_ms = ms_since(started);
    started = std::chrono::steady_clock::now();
    const course::step5::HybridPlan plan(pattern, kInner);
    const double plan_ms = ms_since(started);
    started = std::chrono::steady_clock::now();
    plan.run(operands, output.data());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::printf(
        "%s | mode %lld (%s) | call %d | context %.2f | warm-up %.2f | pattern %.3f | "
        "plan %.3f | other %.3f | run %.3f ms\n",
        device.name.c_str(), mode, loading != nullptr ? loading : "LAZY", call, context_ms,
        warm_up_ms, pattern_ms, plan_ms, pattern_ms + plan_ms, ms_since(started));
  }
  return 0;
}

}  // namespace

/// @brief Runs one mode of the experiment (see the file comment).
/// @param argc argument count
/// @param argv arguments (--mode)
/// @return 0 on success, non-zero on an error
int main(int argc, char** argv) {
  return course::run_program("first_call_setup", [&] { return run(argc, argv); });
}
