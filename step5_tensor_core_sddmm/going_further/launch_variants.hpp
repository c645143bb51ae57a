/// @file launch_variants.hpp
/// @brief with_load_variant(): the one place where a launcher turns its two run-time facts
/// about the operands and S (16-byte loads allowed; S has values) into the compile-time
/// switches of a kernel's four variants.
///
/// Step 5, going further: shared by the masked tiles' launchers.
/// Read first: sddmm_masked_tiles_launch.cu or sddmm_register_tiles_launch.cu.
#pragma once

#include <type_traits>

namespace course::step5 {

/// @brief Calls @p launch with two std::bool_constant tags, for 16-byte loads and for values,
/// so that the caller names its kernel's variant once: each tag's type carries its flag as a
/// compile-time constant, which the caller passes on as the kernel's template argument.
/// @tparam Launch a callable taking two std::bool_constant tags
/// @param vector 16-byte loads are allowed (allows_vector_loads of A and Bᵀ)
/// @param valued S has values
/// @param launch the launch of one variant
template <typename Launch>
void with_load_variant(bool vector, bool valued, Launch&& launch) {
  if (vector && valued) {
    launch(std::true_type{}, std::true_type{});
  } else if (vector) {
    launch(std::true_type{}, std::false_type{});
  } else if (valued) {
    launch(std::false_type{}, std::true_type{});
  } else {
    launch(std::false_type{}, std::false_type{});
  }
}

}  // namespace course::step5
