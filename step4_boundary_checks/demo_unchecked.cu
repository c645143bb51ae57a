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

namespace step4 {
namespace {

constexpr int kSize = 3;
constexpr int kTile = 2;
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
  course::HostMatrix<float> m_host(kSize, kSize);
  course::HostMatrix<float> n_host(kSize, kSize);
  for (int row = 0; row < kSize; ++row) {
    for (int col = 0; col < kSize; ++col) {
      m_host(row, col) = static_cast<float>(1 + row * kSize + col);  // M = 1..9
      n_host(row, col) = static_cast<float>(row == col ? 1 : 0) + 0.5f * col;
    }
  }
  const std::size_t allocated = exact_allocation ? kSize * kSize : kReach;
  std::vector<float> m_slack(allocated, kSlackValue);
  std::vector<float> n_slack(allocated, kSlackValue);
  std::copy(m_host.data(), m_host.data() + m_host.size(), m_slack.begin());
  std::copy(n_host.data(), n_host.data() + n_host.size(), n_slack.begin());
  course::DeviceBuffer<float> m_device(allocated, "M");
  course::DeviceBuffer<float> n_device(allocated, "N");
  course::DeviceBuffer<float> p_device(allocated, "P");
  m_device.upload(m_slack);
  n_device.upload(n_slack);

  std::cout << "The note's example: P = M.N, all 3x3, tile width 2 (2x2 blocks of 2x2 "
               "threads, 2 phases)\n";
  if (exact_allocation) {
    std::cout << "Allocations hold exactly 9 floats each: run under compute-sanitizer to see "
                 "the out-of-bounds accesses reported.\n";
  } else {
    std::cout << "Each allocation has slack after its 9 elements holding " << kSlackValue
              << " (standing for another array's data), so the wrong results repeat.\n";
  }
  print_matrix("M", m_host, nullptr);
  print_matrix("N", n_host, nullptr);
  course::HostMatrix<float> serial;
  course::matmul_serial(m_host, n_host, serial);
  print_matrix("CPU product", serial, nullptr);

  // The checked kernel first: if the unchecked one crashes, the context is lost.
  p_device.poison();
  matmul_tiled_checked(m_device.data(), n_device.data(), p_device.data(), kSize, kSize, kSize,
                       kTile);
  const course::HostMatrix<float> checked = download(p_device);
  print_matrix("checked kernel (tiled_checked.cuh, tile 2)", checked, &serial);
  const bool checked_ok = course::report_verification(
      course::verify_against_serial(m_host, n_host, checked), std::cout);

  p_device.poison();
  try {
    demo_unchecked_tile2(m_device.data(), n_device.data(), p_device.data(), kSize, kSize, kSize);
    const course::HostMatrix<float> unchecked = download(p_device);
    print_matrix("unchecked kernel (tiled_unchecked.cuh, tile 2), * = differs from the CPU",
                 unchecked, &serial);
    course::report_verification(course::verify_against_serial(m_host, n_host, unchecked),
                                std::cout);
  } catch (const course::CudaError& error) {
    std::cout << "the unchecked kernel failed: " << error.what() << "\n";
  }
  std::cout
      << "\nWhy: in phase 1 of block (0,0), threads (0,1) and (1,1) load M0,3 and M1,3, which "
         "do not exist; in row-major order they silently read M1,0 and M2,0. Threads (1,0) "
         "and (1,1) load N3,0 and N3,1, past the end of N (out of bounds). Every P element "
         "whose dot product meets such a pair is wrong, and threads whose P element does not "
         "exist (row or column 3) store past the end of a row of P -- onto P(r+1,0) -- or "
         "past the end of P. Run step4_tile_tracer --size 3 --tile 2 --only-invalid for the "
         "full list.\n";
  return checked_ok ? 0 : 1;
}

}  // namespace step4
