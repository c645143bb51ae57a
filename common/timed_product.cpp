/// @file timed_product.cpp
/// @brief One timed product with the DEBUG check, shared by the step programs.

#include "common/timed_product.hpp"

#include "common/compare.hpp"
#include "common/product_operands.hpp"
#include "common/random_fill.hpp"
#include "common/timing.hpp"

#include <cstdint>
#include <ostream>

namespace course {
namespace {

void print_header(const TimedProduct& product, std::uint64_t seed, std::ostream& out) {
  const ProductSizes& sizes = product.sizes;
  out << product.label << "C (" << sizes.rows << "x" << sizes.cols << ") = A (" << sizes.rows << "x"
      << sizes.inner << ") · B (" << sizes.inner << "x" << sizes.cols << ")" << product.shape_note
      << ", seed " << seed << "\n";
}

void print_timing(const TimedProduct& product, const TimingStats& timing, std::ostream& out) {
  const double flops = product.sizes.flops();
  out << "kernel time: " << timing.median_ms << " ms (median of " << timing.repeats << " runs), "
      << flops / (timing.median_ms * 1e-3) / 1e9 << " GFLOP/s\n";
}

}  // namespace

bool debug_verify(const HostMatrix<float>& a, const HostMatrix<float>& b,
                  const HostMatrix<float>& got, std::ostream& out) {
  return report_verification(verify_against_serial(a, b, got), out);
}

int run_timed_product(const TimedProduct& product, const ProductLaunch& launch, bool verify,
                      std::ostream& out) {
  const std::uint64_t seed =
      product.seed >= 0 ? static_cast<std::uint64_t>(product.seed) : fresh_seed();
  // The header comes before the upload, so a run that fails on the GPU still names its seed.
  print_header(product, seed, out);
  ProductOperands operands(product.sizes.rows, product.sizes.inner, product.sizes.cols, seed);
  const TimingStats timing = time_gpu(
      [&] { launch(operands.device_a.data(), operands.device_b.data(), operands.device_c.data()); },
      1, product.repeats);
  print_timing(product, timing, out);

  if (!verify) {
    out << "DEBUG is off: the result was not checked (define DEBUG or build with "
           "-DCOURSE_DEBUG=ON)\n";
    return 0;
  }
  out << "DEBUG: checking against the serial CPU product...\n" << std::flush;
  // The check runs while the device matrices are still allocated, as the note asks.
  const HostMatrix<float> got = operands.device_c.to_host();
  return debug_verify(operands.a, operands.b, got, out) ? 0 : 1;
}

}  // namespace course
