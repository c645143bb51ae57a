/// @file fast_gemm_config.cpp
/// @brief Names of the fast kernel's configurations, and which shapes take a thin path
/// (see fast_gemm_config.hpp).
#include "step4_boundary_checks/going_further/fast_gemm_config.hpp"

namespace course::step4 {

std::string fast_variant_name(FastVariant variant) {
  switch (variant) {
    case FastVariant::automatic:
      return "auto";
    case FastVariant::bm128_bn128_bk8:
      return "128x128x8";
    case FastVariant::bm128_bn128_bk16:
      return "128x128x16";
    case FastVariant::bm128_bn64_bk8:
      return "128x64x8";
    case FastVariant::bm64_bn128_bk8:
      return "64x128x8";
    case FastVariant::bm64_bn64_bk8:
      return "64x64x8";
    case FastVariant::bm32_bn128_bk8:
      return "32x128x8";
    case FastVariant::bm128_bn128_bk16_async:
      return "128x128x16 async";
    case FastVariant::bm64_bn128_bk16_async:
      return "64x128x16 async";
    case FastVariant::thin_rows:
      return "thin rows";
    case FastVariant::thin_cols:
      return "thin columns";
  }
  return "unknown";
}

std::string fast_config_name(const FastConfig& config) {
  const std::string tile = fast_variant_name(config.tile);
  std::string name = tile;
  if (config.splits != 1) {
    name += ", split " + (config.splits > 1 ? std::to_string(config.splits) : "auto");
  }
  if (config.group_rows > 1) {
    name += ", groups of " + std::to_string(config.group_rows);
  }
  return name;
}

FastVariant thin_variant(const ProductSizes& sizes) {
  if (sizes.cols <= kThinMax) {
    return FastVariant::thin_cols;
  }
  return sizes.rows <= kThinMax ? FastVariant::thin_rows : FastVariant::automatic;
}

}  // namespace course::step4
