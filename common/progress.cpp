/// @file progress.cpp
/// @brief Progress lines for long host work (see progress.hpp).
#include "common/progress.hpp"

#include <cstdio>
#include <iostream>
#include <utility>

namespace course {
namespace {

/// The meter looks at the clock about this often: rare enough to cost nothing, often enough
/// that a line is never much later than due.
constexpr auto kCheckSpacing = std::chrono::milliseconds(10);

/// Largest number of updates between two looks at the clock.
constexpr std::uint64_t kMaxStride = std::uint64_t{1} << 24;

/// A count for people: 1234567 -> "1.23 M".
std::string format_count(std::uint64_t count) {
  char text[32];
  if (count >= 1000000000ULL) {
    std::snprintf(text, sizeof(text), "%.2f G", static_cast<double>(count) / 1e9);
  } else if (count >= 1000000ULL) {
    std::snprintf(text, sizeof(text), "%.2f M", static_cast<double>(count) / 1e6);
  } else {
    std::snprintf(text, sizeof(text), "%llu", static_cast<unsigned long long>(count));
  }
  return text;
}

}  // namespace

ProgressMeter::ProgressMeter(std::string task, std::uint64_t total, std::string unit,
                             std::ostream* out, std::chrono::milliseconds interval)
    : task_(std::move(task)),
      total_(total),
      unit_(std::move(unit)),
      out_(out != nullptr ? out : &std::cerr),
      interval_(interval),
      start_(Clock::now()),
      last_check_(start_),
      next_line_(start_ + interval_) {}

void ProgressMeter::finish(std::uint64_t done) {
  if (lines_printed_ > 0) {
    print(done, "done");
  }
}

void ProgressMeter::check(std::uint64_t done) {
  const Clock::time_point now = Clock::now();
  // Look at the clock about every kCheckSpacing: double the updates between looks while
  // they come faster than that, halve them when they come slower.
  if (now - last_check_ < kCheckSpacing) {
    stride_ = stride_ < kMaxStride ? stride_ * 2 : stride_;
  } else if (stride_ > 1) {
    stride_ /= 2;
  }
  last_check_ = now;
  next_check_ = done + stride_;
  if (now >= next_line_) {
    print(done, "");
    next_line_ = now + interval_;
  }
}

void ProgressMeter::print(std::uint64_t done, const char* state) {
  const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  char line[160];
  if (total_ > 0) {
    std::snprintf(line, sizeof(line), ": %s of %s %s (%.0f %%), %.0f s", format_count(done).c_str(),
                  format_count(total_).c_str(), unit_.c_str(),
                  100.0 * static_cast<double>(done) / static_cast<double>(total_), seconds);
  } else {
    std::snprintf(line, sizeof(line), ": %s %s, %.0f s", format_count(done).c_str(), unit_.c_str(),
                  seconds);
  }
  *out_ << task_ << line << (*state != '\0' ? ", " : "") << state << "\n" << std::flush;
  ++lines_printed_;
}

}  // namespace course
