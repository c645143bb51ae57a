/// @file cuda_check.hpp
/// @brief Checked calls for the CUDA runtime, cuBLAS and cuSPARSE, and a kernel-launch check.
///
/// Every CUDA call in the course goes through one of these macros. On failure they throw
/// course::CudaError whose message names the file, the line, the call as written and the
/// library's error text, so a student sees exactly which call failed and why.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <stdexcept>
#include <string>

namespace course {

/// @brief Error thrown by the checked-call macros; what() names file, line, call and error.
class CudaError : public std::runtime_error {
 public:
  /// @brief Builds the error from an already formatted message.
  /// @param message full description (file:line: call: error text)
  explicit CudaError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief Throws CudaError when @p status is not cudaSuccess.
/// @param status value returned by a CUDA runtime call
/// @param call the call's source text
/// @param file source file of the call
/// @param line source line of the call
void check_cuda(cudaError_t status, const char* call, const char* file, int line);

/// @brief Throws CudaError when @p status is not CUBLAS_STATUS_SUCCESS.
/// @param status value returned by a cuBLAS call
/// @param call the call's source text
/// @param file source file of the call
/// @param line source line of the call
void check_cublas(cublasStatus_t status, const char* call, const char* file, int line);

/// @brief Throws CudaError when @p status is not CUSPARSE_STATUS_SUCCESS.
/// @param status value returned by a cuSPARSE call
/// @param call the call's source text
/// @param file source file of the call
/// @param line source line of the call
void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line);

/// @brief Checks the launch that was just made (bad configuration, missing kernel image).
///
/// Launch errors are reported by cudaGetLastError(); errors raised while the kernel runs
/// appear at the next synchronising call, which is itself checked.
/// @param kernel_name name of the kernel, for the message
/// @param file source file of the launch
/// @param line source line of the launch
void check_launch(const char* kernel_name, const char* file, int line);

}  // namespace course

/// @brief Checks a CUDA runtime call; throws course::CudaError on failure.
#define CUDA_CHECK(call) ::course::check_cuda((call), #call, __FILE__, __LINE__)
/// @brief Checks a cuBLAS call; throws course::CudaError on failure.
#define CUBLAS_CHECK(call) ::course::check_cublas((call), #call, __FILE__, __LINE__)
/// @brief Checks a cuSPARSE call; throws course::CudaError on failure.
#define CUSPARSE_CHECK(call) ::course::check_cusparse((call), #call, __FILE__, __LINE__)
/// @brief Checks the kernel launch just made; @p kernel names it in the message.
#define CUDA_CHECK_LAUNCH(kernel) ::course::check_launch(#kernel, __FILE__, __LINE__)
