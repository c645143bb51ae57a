/// @file progress.hpp
/// @brief Progress lines for long host work: what is being done, how far it is, how long it
/// has taken, printed to stderr at most about once a second.
///
/// Work that ends within the first second prints nothing, so small runs and the tests stay
/// quiet; a run that reads a 69-million-entry matrix or checks an 8192³ product on the CPU
/// says what it is doing instead of looking hung. The loop calls update() as often as it
/// likes: between two looks at the clock it costs one comparison, and the number of updates
/// between looks grows until they are about 10 ms apart.
#pragma once

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>

namespace course {

/// @brief Reports the progress of one long task (see the file comment).
class ProgressMeter {
 public:
  /// @brief A meter for @p task ("reading big.mtx.gz") of @p total units ("entries").
  /// @param task what is being done, printed at the start of each line
  /// @param total how many units the whole task has (0: unknown, no percentage)
  /// @param unit what is counted, e.g. "entries", "rows", "values"
  /// @param out where the lines go (standard error by default)
  /// @param interval the least time between two lines, and before the first one
  ProgressMeter(std::string task, std::uint64_t total, std::string unit,
                std::ostream* out = nullptr,
                std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~ProgressMeter() = default;
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  /// @brief Records that @p done units are finished; prints a line when one is due.
  /// @param done units finished so far (not decreasing)
  void update(std::uint64_t done) {
    if (done >= next_check_) {
      check(done);
    }
  }

  /// @brief Ends the task: prints a last line ("done") when any line was printed, so that a
  /// reader of the log knows the long stage is over. Without it (an exception) the meter
  /// just stops.
  /// @param done units finished in all
  void finish(std::uint64_t done);

  /// @brief How many lines have been printed (for the tests).
  /// @return the count
  int lines_printed() const { return lines_printed_; }

 private:
  using Clock = std::chrono::steady_clock;
  void check(std::uint64_t done);
  void print(std::uint64_t done, const char* state);

  std::string task_;
  std::uint64_t total_;
  std::string unit_;
  std::ostream* out_;
  Clock::duration interval_;
  Clock::time_point start_;
  Clock::time_point last_check_;
  Clock::time_point next_line_;
  std::uint64_t next_check_ = 1;
  std::uint64_t stride_ = 1;
  int lines_printed_ = 0;
};

}  // namespace course
