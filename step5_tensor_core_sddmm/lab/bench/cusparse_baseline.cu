/// @file cusparse_baseline.cu
/// @brief cuSPARSE's SDDMM on one case. fp16: A and Bᵀ exactly as our kernels read them, B
/// handed over column-major (the bytes of Bᵀ). fp32: the half inputs converted to float, B
/// column-major and, if asked, as a row-major copy; the faster layout's times and results
/// are kept.
///
/// Step 5, the benchmark (the lab): cuSPARSE's SDDMM, the reference every row is compared
/// with. Read first: cusparse_sddmm.hpp (the wrapper of cusparseSDDMM), baselines.hpp.
#include "step5_tensor_core_sddmm/lab/bench/baselines.hpp"
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"
#include "step5_tensor_core_sddmm/lab/bench/cusparse_sddmm.hpp"
#include "step5_tensor_core_sddmm/lab/bench/graph_timing.hpp"

#include "common/timing.hpp"

#include <cuda_runtime_api.h>

#include <exception>
#include <iostream>

namespace course::step5::bench {

BaselineRun time_cusparse(const std::string& case_name, const Settings& settings,
                          cusparseHandle_t handle, const course::CsrMatrix& csr,
                          const course::DeviceBuffer<__half>& a,
                          const course::DeviceBuffer<__half>& b_transposed, int inner,
                          CusparseInputs inputs) {
  const int cols = csr.cols;
  const bool fp16 = inputs == CusparseInputs::fp16;
  const char* precision = fp16 ? "fp16" : "fp32";
  BaselineRun baseline;
  course::DeviceBuffer<float> a_float;
  course::DeviceBuffer<float> bt_float;
  if (!fp16) {
    a_float = course::DeviceBuffer<float>(a.size(), "A (float, cuSPARSE)");
    bt_float = course::DeviceBuffer<float>(b_transposed.size(), "Bt (float, cuSPARSE)");
    course::step5::convert_half_to_float(a.data(), a_float.data(), a.size());
    course::step5::convert_half_to_float(b_transposed.data(), bt_float.data(), b_transposed.size());
  }
  const void* a_input = fp16 ? static_cast<const void*>(a.data()) : a_float.data();
  const cudaDataType dense_type = fp16 ? CUDA_R_16F : CUDA_R_32F;
  std::vector<course::step5::CusparseBLayout> layouts;
  if (fp16 || settings.cusparse_layout != "row") {
    layouts.push_back(course::step5::CusparseBLayout::column_major);
  }
  if (!fp16 && settings.cusparse_layout != "col") {
    layouts.push_back(course::step5::CusparseBLayout::row_major);
  }
  for (const course::step5::CusparseBLayout layout : layouts) {
    try {
      course::DeviceBuffer<float> b_row_major;
      const void* b = fp16 ? static_cast<const void*>(b_transposed.data()) : bt_float.data();
      if (layout == course::step5::CusparseBLayout::row_major) {
        b_row_major = course::DeviceBuffer<float>(bt_float.size(), "B row-major (cuSPARSE)");
        course::step5::transpose_float(bt_float.data(), b_row_major.data(), cols, inner);
        b = b_row_major.data();
      }
      const course::TimingStats other = course::time_host(
          [&] {
            course::step5::CusparseSddmm prepared(handle, csr, a_input, b, inner, layout,
                                                  dense_type);
          },
          1, settings.other_repeats);
      std::cerr << case_name << " inner=" << inner << " cuSPARSE " << precision << ": other min "
                << other.min_ms << " median " << other.median_ms << " max " << other.max_ms
                << " ms\n";
      course::step5::CusparseSddmm reference(handle, csr, a_input, b, inner, layout, dense_type);
      const course::TimingStats kernel = time_plain_or_graph(
          [&] { reference.run(); },
          [&](cudaStream_t given) { CUSPARSE_CHECK(cusparseSetStream(handle, given)); },
          settings.repeats);
      if (!baseline.ms || kernel.median_ms < *baseline.ms) {
        baseline.ms = kernel.median_ms;
        baseline.min_ms = kernel.min_ms;
        baseline.other_ms = other.median_ms;
        baseline.note = course::step5::layout_name(layout);
        baseline.result = reference.results(csr);
      }
    } catch (const std::exception& error) {
      std::cerr << case_name << ": cuSPARSE " << precision << " with "
                << course::step5::layout_name(layout) << " failed: " << error.what() << "\n";
      baseline.note = "cuSPARSE failed: see log";
      cudaGetLastError();  // clear a sticky launch error, if any, for the next attempt
    }
  }
  return baseline;
}

}  // namespace course::step5::bench
