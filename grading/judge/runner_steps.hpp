/// @file runner_steps.hpp
/// @brief What a step's runner (runner_stepN.cu) provides to the runner's main
/// (runner_main.cu): one call per product of a case, on device buffers the main prepared.
///
/// The runner is the only program that links a student's kernels. It reads a case's inputs,
/// runs the launcher each product names and writes what came out; it decides nothing. The
/// main uploads the first bytes of every input through a kernel of its own (so that an
/// initcheck run that instruments only the student's kernels sees their reads of those
/// bytes: the judge's evidence that they ran, see grading/gradelib/evidence.py) and fills
/// each output with NaN first.
#pragma once

#include "grading/judge/case_file.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

namespace course::judge {

/// @brief A dense product on the device: C = A·B, row-major, launched on @p stream (the
/// runner's own stream, captured into a graph: a launcher that launches elsewhere fails).
struct DeviceGemm {
  int launcher = 0;               ///< which launcher (cases.cpp numbers them per step)
  int variant = 0;                ///< the launcher's parameter (step 4's tile width)
  int rows = 0;                   ///< rows of A and C
  int inner = 0;                  ///< columns of A, rows of B
  int cols = 0;                   ///< columns of B and C
  const float* a = nullptr;       ///< A, device
  const float* b = nullptr;       ///< B, device
  float* c = nullptr;             ///< C, device (NaN before the launch)
  cudaStream_t stream = nullptr;  ///< the stream every launch of the product must go to
};

/// @brief An SDDMM on the device: A and Bᵀ uploaded; S as host arrays (the step's own
/// upload puts it on the device).
struct DeviceSddmm {
  const SddmmProduct* product = nullptr;  ///< sizes, S and the approach
  const __half* a = nullptr;              ///< A, rows×lda, device
  const __half* b_transposed = nullptr;   ///< Bᵀ, cols×ldb, device
  float* output = nullptr;                ///< one float per nonzero, device (NaN before)
};

/// @brief Runs a dense product with the launcher it names (steps 1 to 4), on the product's
/// stream; throws std::invalid_argument for a launcher the step does not have.
/// @param product the product
void run_gemm(const DeviceGemm& product);

/// @brief Runs an SDDMM with the approach it names (step 5); throws for other steps.
/// @param product the product
void run_sddmm(const DeviceSddmm& product);

}  // namespace course::judge
