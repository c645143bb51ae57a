/// @file debug_switch.hpp
/// @brief The notes' `#define DEBUG` switch as a constant a step program can pass on.
///
/// Include this header in a step's main.cu after the place where the note puts
/// `#define DEBUG` (the build defines DEBUG itself when COURSE_DEBUG=ON, the default). Only
/// the main.cu files include it: each program decides once whether its result is checked.
#pragma once

namespace course {

#ifdef DEBUG
constexpr bool kDebugCheck = true;  // DEBUG: check the product against the serial CPU one
#else
/// @brief True when the including program was built with DEBUG: after the kernel runs, and
/// before device memory is freed, the result is checked against the serial CPU product.
constexpr bool kDebugCheck = false;
#endif

}  // namespace course
