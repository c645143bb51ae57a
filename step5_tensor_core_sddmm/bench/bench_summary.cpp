// Step 5, the benchmark (lesson Part 3): the summary below the table.
// Read first: bench.hpp.
/// @file bench_summary.cpp
/// @brief The summary: per approach the geometric mean of its speedups over cuSPARSE, its
/// slowest case, and its worst prep/sddmm and other/sddmm ratios.
#include "bench/bench.hpp"

#include <algorithm>
#include <cmath>

namespace course::step5::bench {
namespace {

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0.0;
  for (const double value : values) {
    log_sum += std::log(value);
  }
  return values.empty() ? 0.0 : std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace

void Summary::add(int number, std::optional<double> cusparse_ms, double ms, double prep_ms,
                  double other_ms, const std::string& case_label) {
  if (cusparse_ms) {
    const double speedup = *cusparse_ms / ms;
    speedups[number].push_back(speedup);
    if (!smallest_speedup.count(number) || speedup < smallest_speedup[number]) {
      smallest_speedup[number] = speedup;
      slowest_case[number] = case_label;
    }
  }
  worst_prep_ratio[number] = std::max(worst_prep_ratio[number], prep_ms / ms);
  worst_other_ratio[number] = std::max(worst_other_ratio[number], other_ms / ms);
}

void print_summary(const Summary& summary, std::ostream& out) {
  out << "## Summary\n\n| approach | rows | geomean speedup vs cuSPARSE | smallest (case) | "
         "max prep/sddmm | max other/sddmm |\n|---|---|---|---|---|---|\n";
  for (const auto& [number, speedups] : summary.speedups) {
    out << "| " << course::step5::approach_name(static_cast<course::step5::Approach>(number))
        << " | " << speedups.size() << " | " << course::format_fixed(geometric_mean(speedups), 2)
        << " | " << course::format_fixed(summary.smallest_speedup.at(number), 2) << " ("
        << summary.slowest_case.at(number) << ") | "
        << course::format_fixed(summary.worst_prep_ratio.at(number), 2) << " | "
        << course::format_fixed(summary.worst_other_ratio.at(number), 2) << " |\n";
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace course::step5::bench
