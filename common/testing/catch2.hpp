/// @file catch2.hpp
/// @brief The one Catch2 include of the course's tests: the same test code builds with
/// Catch2 2 (Debian 12, Ubuntu 22.04) and Catch2 3 (Debian 13, Ubuntu 24.04).
///
/// CMake finds whichever major is installed and passes it as COURSE_CATCH2_MAJOR (see the
/// top-level CMakeLists.txt). What differs between the two, and how the tests see one API:
/// - headers: Catch2 2 is one header, <catch2/catch.hpp>; Catch2 3 is split, and this file
///   includes the parts the tests use (test macros, Approx, the string matchers);
/// - names: Catch2 2's string matchers are also reachable as Catch::Contains,
///   Catch::StartsWith, Catch::EndsWith and Catch::Equals, and Approx is global; Catch2 3
///   keeps them in Catch::Matchers (Contains became ContainsSubstring) and has Catch::Approx.
///   Below, Catch2 3 gets the short names, so a test is written once;
/// - the main: both are built without CATCH_CONFIG_MAIN; the course's own main
///   (common/test_main.cpp) uses the session API of each major where they differ.
/// A test includes this file, never <catch2/...> directly (scripts/check_layout.py checks it).
#pragma once

#ifndef COURSE_CATCH2_MAJOR
#error "COURSE_CATCH2_MAJOR is set by CMake on course_test_main: build the tests with CMake"
#endif

#if COURSE_CATCH2_MAJOR >= 3
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>

namespace Catch {
using Matchers::EndsWith;
using Matchers::Equals;
using Matchers::StartsWith;

/// @brief Catch2 2's name for the matcher "the string contains @p text".
/// @param text the text to find
/// @param sensitivity whether case matters (by default it does)
/// @return Catch2 3's ContainsSubstring matcher
inline Matchers::StringContainsMatcher Contains(const std::string& text,
                                                CaseSensitive sensitivity = CaseSensitive::Yes) {
  return Matchers::ContainsSubstring(text, sensitivity);
}
}  // namespace Catch

using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
