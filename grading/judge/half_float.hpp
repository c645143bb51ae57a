/// @file half_float.hpp
/// @brief IEEE binary16 (CUDA's __half) on the host, without CUDA: the judge generates and
/// checks step 5's half-precision inputs with no CUDA header, so that it links no GPU code.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace course::judge {

/// @brief The binary16 value nearest to @p value (ties to even); values past the largest
/// half become infinities. The judge only converts values in [-1, 1].
/// @param value a float
/// @return its binary16 bits
inline std::uint16_t float_to_half(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const float magnitude = std::fabs(value);
  if (!(magnitude < 65520.0f)) {
    return static_cast<std::uint16_t>(sign | (std::isnan(value) ? 0x7E00u : 0x7C00u));
  }
  if (magnitude < 6.103515625e-05f) {  // subnormal half: a multiple of 2^-24
    const float units = std::nearbyint(magnitude * 16777216.0f);  // ties to even
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
  }
  int exponent = 0;
  const float fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction · 2^exponent
  float mantissa = std::nearbyint((fraction * 2.0f - 1.0f) * 1024.0f);
  if (mantissa == 1024.0f) {  // rounded up to the next power of two
    mantissa = 0.0f;
    ++exponent;
  }
  const auto biased = static_cast<std::uint16_t>(exponent - 1 + 15);
  return static_cast<std::uint16_t>(sign | (biased << 10) | static_cast<std::uint16_t>(mantissa));
}

/// @brief The value of binary16 bits (exact: every half is a float).
/// @param bits the half
/// @return its value
inline double half_to_double(std::uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  const double sign = (bits & 0x8000u) != 0 ? -1.0 : 1.0;
  if (exponent == 0) {
    return sign * std::ldexp(mantissa, -24);
  }
  if (exponent == 31) {
    return mantissa == 0 ? sign * INFINITY : NAN;
  }
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

}  // namespace course::judge
