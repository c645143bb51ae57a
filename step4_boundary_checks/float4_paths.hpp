/// @file float4_paths.hpp
/// @brief Which float4 paths of the fast kernels the operands allow, and the launch of the
/// kernel compiled for them. Shared by fast_gemm_launch.cu and wide_tile_launch.cu.
#pragma once

#include "step4_boundary_checks/problem_shape.hpp"

#include <cstdint>
#include <type_traits>

namespace course::step4 {

/// @brief True when @p pointer lies on a 16-byte boundary (float4 access allowed).
/// @param pointer a device pointer
inline bool aligned16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

/// @brief Calls @p launch with two std::bool_constant arguments: float4 access to A, and float4
/// access to B and C. float4 access is allowed only where every row starts on a 16-byte boundary:
/// the base pointer aligned and the row length (leading dimension) a multiple of 4 floats.
/// @tparam Launch a generic callable, launch(vector_a, vector_bc)
/// @param a A, rows×inner
/// @param b B, inner×cols
/// @param out C or the split-K workspace
/// @param sizes the product's sizes
/// @param launch runs the kernel compiled for the paths it is given
template <typename Launch>
void with_float4_paths(const float* a, const float* b, const float* out, const ProductSizes& sizes,
                       const Launch& launch) {
  const bool vector_a = sizes.inner % 4 == 0 && aligned16(a);
  const bool vector_bc = sizes.cols % 4 == 0 && aligned16(b) && aligned16(out);
  if (vector_a && vector_bc) {
    launch(std::true_type{}, std::true_type{});
  } else if (vector_a) {
    launch(std::true_type{}, std::false_type{});
  } else if (vector_bc) {
    launch(std::false_type{}, std::true_type{});
  } else {
    launch(std::false_type{}, std::false_type{});
  }
}

}  // namespace course::step4
