#include "common/cuda_check.hpp"

#include <sstream>

namespace course {
namespace {

[[noreturn]] void fail(const char* library, const char* call, const char* file, int line,
                       const std::string& error) {
  std::ostringstream message;
  message << file << ":" << line << ": " << library << " call `" << call << "` failed: " << error;
  throw CudaError(message.str());
}

}  // namespace

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    fail("CUDA", call, file, line,
         std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
  }
}

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    fail("cuBLAS", call, file, line, cublasGetStatusString(status));
  }
}

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    fail("cuSPARSE", call, file, line, cusparseGetErrorString(status));
  }
}

void check_launch(const char* kernel_name, const char* file, int line) {
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) {
    fail("CUDA", (std::string("launch of ") + kernel_name).c_str(), file, line,
         std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")");
  }
}

}  // namespace course
