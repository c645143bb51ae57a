/// @file demo_unchecked.cu
/// @brief `--demo-unchecked`: the note's 3×3 product with tile width 2, run by the checked
/// kernel and by the unchecked step-3 kernel, printed next to the CPU product.
#include "common/compare.hpp"
#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "step4_boundary_checks/step4_launchers.hpp"
#include "step4_boundary_checks/step4_program.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <vector>

namespace course::step4 {
namespace {

constexpr int kSize = 3;
constexpr int kTileWidth = 2;
/// Elements the unchecked kernel may touch: up to row 3, column 3 of a 3-wide matrix.
constexpr int kReach = (kSize + 1) * kSize + kSize + 1;  // offset 12, plus one
/// What the slack after each matrix holds: "someone else's data".
constexpr float kSlackValue = 100.0f;

void print_matrix(const char* title, const course::HostMatrix<float>& matrix,
                  const course::HostMatrix<float>* expected) {
  std::cout << title << "\n";
  for (int row = 0; row < matrix.rows(); ++row) {
    std::cout << "   ";
    for (int col = 0; col < matrix.cols(); ++col) {
      const float value = matrix(row, col);
      const bool wrong = expected != nullptr && !(value == (*expected)(row, col));
      std::cout << std::setw(10) << value << (wrong ? "*" : " ");
    }
    std::cout << "\n";
  }
}

course::HostMatrix<float> download(const course::DeviceBuffer<float>& buffer) {
  course::HostMatrix<float> host(kSize, kSize);
  buffer.download(host.data(), host.size());
  return host;
}

}  // namespace

int run_unchecked_demo(bool exact_allocation) {
  course::require_cuda_device();
  course::HostMatrix<float> a_host(kSize, kSize);
  course::HostMatrix<float> b_host(kSize, kSize);
  for (int row = 0; row < kSize; ++row) {
    for (int col = 0; col < kSize; ++col) {
      a_host(row, col) = static_cast<float>(1 + row * kSize + col);  // A = 1..9
      b_host(row, col) = static_cast<float>(row == col ? 1 : 0) + 0.5f * col;
    }
  }
  const std::size_t allocated = exact_allocation ? kSize * kSize : kReach;
  std::vector<float> a_slack(allocated, kSlackValue);
  std::vector<float> b_slack(allocated, kSlackValue);
  std::copy(a_host.data(), a_host.data() + a_host.size(), a_slack.begin());
  std::copy(b_host.data(), b_host.data() + b_host.size(), b_slack.begin());
  course::DeviceBuffer<float> a_device(allocated, "A");
  course::DeviceBuffer<float> b_device(allocated, "B");
  course::DeviceBuffer<float> c_device(allocated, "C");
  a_device.upload(a_slack);
  b_device.upload(b_slack);

  std::cout << "The note's example: C = A.B, all 3x3, tile width 2 (2x2 blocks of 2x2 "
               "threads, 2 phases)\n";
  if (exact_allocation) {
    std::cout << "Allocations hold exactly 9 floats each: run under compute-sanitizer to see "
                 "the out-of-bounds accesses reported.\n";
  } else {
    std::cout << "Each allocation has slack after its 9 elements holding " << kSlackValue
              << " (standing for another array's data), so the wrong results repeat.\n";
  }
  print_matrix("A", a_host, nullptr);
  print_matrix("B", b_host, nullptr);
  course::HostMatrix<float> serial;
  course::matmul_serial(a_host, b_host, serial);
  print_matrix("CPU product", serial, nullptr);

  // The checked kernel first: if the unchecked one crashes, the context is lost.
  c_device.poison();
  launch_tiled_checked(a_device.data(), b_device.data(), c_device.data(), {kSize, kSize, kSize},
                       nullptr, kTileWidth);
  const course::HostMatrix<float> checked = download(c_device);
  print_matrix("checked kernel (tiled_checked.cuh, tile 2)", checked, &serial);
  const bool checked_ok = course::report_verification(
      course::verify_against_serial(a_host, b_host, checked), std::cout);

  c_device.poison();
  try {
    launch_unchecked_tile2_demo(a_device.data(), b_device.data(), c_device.data(),
                                {kSize, kSize, kSize});
    const course::HostMatrix<float> unchecked = download(c_device);
    print_matrix("unchecked kernel (tiled_unchecked.cuh, tile 2), * = differs from the CPU",
                 unchecked, &serial);
    course::report_verification(course::verify_against_serial(a_host, b_host, unchecked),
                                std::cout);
  } catch (const course::CudaError& error) {
    std::cout << "the unchecked kernel failed: " << error.what() << "\n";
  }
  std::cout
      << "\nWhy: in phase 1 of block (0,0), threads (0,1) and (1,1) load A0,3 and A1,3, which "
         "do not exist; in row-major order they silently read A1,0 and A2,0. Threads (1,0) "
         "and (1,1) load B3,0 and B3,1, past the end of B (out of bounds). Every C element "
         "whose dot product meets such a pair is wrong, and threads whose C element does not "
         "exist (row or column 3) store past the end of a row of C -- onto C(r+1,0) -- or "
         "past the end of C. Run step4_tile_tracer --size 3 --tile 2 --only-invalid for the "
         "full list.\n";
  return checked_ok ? 0 : 1;
}

}  // namespace course::step4
