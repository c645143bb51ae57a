/// @file fragment_probe.cu
/// @brief Kernels and host code of the fragment-layout experiment.
///
/// Step 5, experiment "which lane holds which element" (the lesson): the probe kernel.
/// Read first: fragment_probe.hpp.
#include "step5_tensor_core_sddmm/lab/experiments/fragment_probe.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"

#include <mma.h>

#include <sstream>
#include <stdexcept>
#include <cstddef>
#include <string>
#include <vector>

namespace course::step5 {
namespace {

constexpr int kLanes = 32;

/// One warp loads the encoded tile into an accumulator fragment and writes each register
/// out as it holds it: out[lane * 8 + index] = frag.x[index].
template <int kRows, int kCols>
__global__ void probe_accumulator_kernel(const float* encoded, float* out, int* elements) {
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, kRows, kCols, 16, float> fragment;
  nvcuda::wmma::load_matrix_sync(fragment, encoded, kCols, nvcuda::wmma::mem_row_major);
  const int lane = static_cast<int>(threadIdx.x);
  for (int index = 0; index < fragment.num_elements; ++index) {
    out[lane * kAccumulatorElementsPerLane + index] = fragment.x[index];
  }
  if (lane == 0) {
    *elements = fragment.num_elements;
  }
}

template <int kRows, int kCols>
std::vector<FragmentElement> probe() {
  course::HostMatrix<float> encoded(kRows, kCols);
  for (int row = 0; row < kRows; ++row) {
    for (int col = 0; col < kCols; ++col) {
      encoded(row, col) = static_cast<float>(row * kCols + col);  // exact in float
    }
  }
  course::DeviceMatrix<float> device_encoded(encoded);
  course::DeviceBuffer<float> out(kLanes * kAccumulatorElementsPerLane, "fragment probe output");
  course::DeviceBuffer<int> elements(1, "fragment element count");
  out.poison();
  probe_accumulator_kernel<kRows, kCols>
      <<<1, kLanes>>>(device_encoded.data(), out.data(), elements.data());
  CUDA_CHECK_LAUNCH(probe_accumulator_kernel);
  int count = 0;
  elements.download(&count, 1);
  if (count != kAccumulatorElementsPerLane) {
    throw std::runtime_error("accumulator fragment holds " + std::to_string(count) +
                             " elements per lane, expected " +
                             std::to_string(kAccumulatorElementsPerLane));
  }
  const std::vector<float> values = out.to_vector();
  std::vector<FragmentElement> layout;
  for (const float value : values) {
    const int code = static_cast<int>(value);
    layout.push_back({code / kCols, code % kCols});
  }
  return layout;
}

}  // namespace

void accumulator_tile_size(WmmaShape shape, int& rows, int& cols) {
  rows = shape == WmmaShape::m16n16k16 ? 16 : shape == WmmaShape::m32n8k16 ? 32 : 8;
  cols = shape == WmmaShape::m16n16k16 ? 16 : shape == WmmaShape::m32n8k16 ? 8 : 32;
}

std::string shape_name(WmmaShape shape) {
  int rows = 0;
  int cols = 0;
  accumulator_tile_size(shape, rows, cols);
  return std::to_string(rows) + "x" + std::to_string(cols) + "x16";
}

std::vector<FragmentElement> measure_accumulator_layout(WmmaShape shape) {
  switch (shape) {
    case WmmaShape::m16n16k16:
      return probe<16, 16>();
    case WmmaShape::m32n8k16:
      return probe<32, 8>();
    case WmmaShape::m8n32k16:
      return probe<8, 32>();
  }
  throw std::invalid_argument("unknown WMMA shape");
}

std::string layout_table(const std::vector<FragmentElement>& layout) {
  std::ostringstream table;
  table << "| lane\\idx |";
  for (int index = 0; index < kAccumulatorElementsPerLane; ++index) {
    table << " " << index << " |";
  }
  table << "\n|---|";
  for (int index = 0; index < kAccumulatorElementsPerLane; ++index) {
    table << "---|";
  }
  table << "\n";
  for (int lane = 0; lane < kLanes; ++lane) {
    table << "| T" << lane << " |";
    for (int index = 0; index < kAccumulatorElementsPerLane; ++index) {
      const FragmentElement& element =
          layout.at(static_cast<std::size_t>(lane * kAccumulatorElementsPerLane + index));
      table << " [" << element.row << "," << element.col << "] |";
    }
    table << "\n";
  }
  return table.str();
}

}  // namespace course::step5
