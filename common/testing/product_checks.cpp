/// @file product_checks.cpp
/// @brief Catch2 checks of launchers and of the DEBUG check.

#include "common/testing/product_checks.hpp"

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/cuda_check.hpp"
#include "common/random_fill.hpp"

#include "common/testing/catch2.hpp"

#include <sstream>

namespace course::testing {

void check_launch(const std::string& what, const ProductSizes& sizes, InputKind kind,
                  const ProductLaunch& launch) {
  const std::uint64_t seed = fresh_seed();
  INFO(what << (what.empty() ? "" : ", ") << "sizes " << sizes.text() << ", "
            << input_kind_name(kind) << ", seed " << seed);
  ProductOperands operands(sizes.rows, sizes.inner, sizes.cols, seed, kind);
  launch(operands.device_a.data(), operands.device_b.data(), operands.device_c.data());
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto reference = matmul_reference(operands.a, operands.b);
  // Small integers make every product and partial sum exact, so no error is allowed.
  const auto tolerance = kind == InputKind::small_integers
                             ? Tolerance::exact()
                             : Tolerance::fp32_accumulation(sizes.inner);
  const auto result = compare_with_reference(operands.device_c.to_host(), reference, tolerance);
  INFO(result.summary());
  CHECK(result.ok());
}

void check_debug_verify_flags(const ProductSizes& sizes, int row, int col, float delta) {
  const std::uint64_t seed = fresh_seed();
  INFO("seed " << seed);
  HostMatrix<float> a(sizes.rows, sizes.inner);
  HostMatrix<float> b(sizes.inner, sizes.cols);
  fill_uniform(a, seed);
  fill_uniform(b, seed + 1);
  HostMatrix<float> product;
  matmul_serial(a, b, product);

  std::ostringstream correct_report;
  CHECK(debug_verify(a, b, product, correct_report));
  CHECK(correct_report.str().find("wrong answer") == std::string::npos);
  CHECK(correct_report.str().find("correct") != std::string::npos);

  product(row, col) += delta;
  std::ostringstream wrong_report;
  CHECK_FALSE(debug_verify(a, b, product, wrong_report));
  CHECK(wrong_report.str().find("wrong answer") != std::string::npos);
  const std::string position = "(" + std::to_string(row) + ", " + std::to_string(col) + ")";
  CHECK(wrong_report.str().find(position) != std::string::npos);
}

}  // namespace course::testing
