/// @file bench_summary.cpp
/// @brief The summary: per approach the geometric mean of its speedups over cuSPARSE fp16,
/// its slowest case and its worst prep/sddmm and other/sddmm ratios (the table the results
/// pages read); then, set by set, its geometric means and smallest ratios against every
/// baseline and its multiple of the LIMIT; then every case; then each valued case over its
/// pattern twin.
///
/// Step 5, the benchmark (the lab): the summary below the table.
/// Read first: bench.hpp.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace course::step5::bench {
namespace {

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0.0;
  for (const double value : values) {
    log_sum += std::log(value);
  }
  return values.empty() ? 0.0 : std::exp(log_sum / static_cast<double>(values.size()));
}

/// The better (faster) of cuSPARSE fp16 and dense then sample, as a ratio over ours: the
/// smaller of the two speedups, since the faster baseline is the one we gain least on.
std::optional<double> vs_better(const CaseRatios& ratios) {
  if (ratios.vs_fp16 && ratios.vs_dense) {
    return std::min(*ratios.vs_fp16, *ratios.vs_dense);
  }
  return ratios.vs_fp16 ? ratios.vs_fp16 : ratios.vs_dense;
}

std::string optional_text(const std::optional<double>& value) {
  return value ? course::format_fixed(*value, 2) : std::string("-");
}

/// "geomean (n; smallest x, case)" of one ratio over an approach's cases, or with
/// @p largest "geomean (n; largest x, case)" (for x LIMIT, where larger is worse).
std::string ratio_cell(const std::vector<CaseRatios>& cases,
                       const std::function<std::optional<double>(const CaseRatios&)>& ratio,
                       bool largest = false) {
  std::vector<double> values;
  const CaseRatios* extreme = nullptr;
  for (const CaseRatios& ratios : cases) {
    const std::optional<double> value = ratio(ratios);
    if (value) {
      values.push_back(*value);
      const bool beyond =
          extreme == nullptr || (largest ? *value > *ratio(*extreme) : *value < *ratio(*extreme));
      if (beyond) {
        extreme = &ratios;
      }
    }
  }
  if (values.empty()) {
    return "-";
  }
  return course::format_fixed(geometric_mean(values), 2) + " (" + std::to_string(values.size()) +
         (largest ? "; largest " : "; smallest ") + course::format_fixed(*ratio(*extreme), 2) +
         ", " + extreme->case_label + ")";
}

/// The sets of @p all in the order they first appear.
std::vector<std::string> sets_of(const std::vector<CaseRatios>& all) {
  std::vector<std::string> sets;
  for (const CaseRatios& ratios : all) {
    if (std::find(sets.begin(), sets.end(), ratios.set) == sets.end()) {
      sets.push_back(ratios.set);
    }
  }
  return sets;
}

/// Each valued case of @p all with its pattern twin (same structure and inner) in @p all.
std::vector<std::pair<const CaseRatios*, const CaseRatios*>> valued_pairs(
    const std::vector<CaseRatios>& all) {
  std::vector<std::pair<const CaseRatios*, const CaseRatios*>> pairs;
  for (const CaseRatios& valued : all) {
    if (!valued.valued) {
      continue;
    }
    const auto twin = std::find_if(all.begin(), all.end(), [&](const CaseRatios& pattern) {
      return !pattern.valued && pattern.structure_label == valued.structure_label;
    });
    if (twin != all.end()) {
      pairs.emplace_back(&valued, &*twin);
    }
  }
  return pairs;
}

/// The valued cases against their pattern twins: time over time, the largest named.
void print_valued_pairs(const Summary& summary, std::ostream& out) {
  bool header = false;
  for (const auto& [number, all] : summary.ratios) {
    const auto pairs = valued_pairs(all);
    if (pairs.empty()) {
      continue;
    }
    if (!header) {
      out << "\n## Valued S against the same structure as a pattern\n\nEach mask with values "
             "(`_v<value>`, `_vrand`) against its pattern twin in the same run: same structure, "
             "A and B; valued / pattern = the valued case's median time over the pattern's.\n\n"
             "| approach | set | case, inner | pattern ms | valued ms | valued / pattern |\n"
             "|---|---|---|---:|---:|---:|\n";
      header = true;
    }
    const std::pair<const CaseRatios*, const CaseRatios*>* largest = nullptr;
    for (const auto& pair : pairs) {
      const double ratio = pair.first->ms / pair.second->ms;
      out << "| " << approach_label(number) << " | " << pair.first->set << " | "
          << pair.first->case_label << " | " << course::format_fixed(pair.second->ms, 4) << " | "
          << course::format_fixed(pair.first->ms, 4) << " | " << course::format_fixed(ratio, 2)
          << " |\n";
      if (largest == nullptr || ratio > largest->first->ms / largest->second->ms) {
        largest = &pair;
      }
    }
    out << "\nLargest valued / pattern of " << approach_label(number) << ": "
        << course::format_fixed(largest->first->ms / largest->second->ms, 2) << " ("
        << largest->first->case_label << ", " << pairs.size() << " pairs).\n";
  }
}

}  // namespace

void Summary::add(int number, const CaseRatios& case_ratios, double ms, double prep_ms,
                  double other_ms) {
  if (case_ratios.vs_fp16) {
    const double speedup = *case_ratios.vs_fp16;
    speedups[number].push_back(speedup);
    if (!smallest_speedup.count(number) || speedup < smallest_speedup[number]) {
      smallest_speedup[number] = speedup;
      slowest_case[number] = case_ratios.case_label;
    }
  }
  ratios[number].push_back(case_ratios);
  worst_prep_ratio[number] = std::max(worst_prep_ratio[number], prep_ms / ms);
  worst_other_ratio[number] = std::max(worst_other_ratio[number], other_ms / ms);
}

void print_summary(const Summary& summary, std::ostream& out) {
  out << "## Summary\n\ncuSPARSE here is cuSPARSE with fp16 A and B (fp32 output and compute), "
         "the fair reference: it reads the same bytes as our kernels.\n\n"
         "| approach | rows | geomean speedup vs cuSPARSE | smallest (case) | "
         "max prep/sddmm | max other/sddmm |\n|---|---|---|---|---|---|\n";
  for (const auto& [number, speedups] : summary.speedups) {
    out << "| " << approach_label(number) << " | " << speedups.size() << " | "
        << course::format_fixed(geometric_mean(speedups), 2) << " | "
        << course::format_fixed(summary.smallest_speedup.at(number), 2) << " ("
        << summary.slowest_case.at(number) << ") | "
        << course::format_fixed(summary.worst_prep_ratio.at(number), 2) << " | "
        << course::format_fixed(summary.worst_other_ratio.at(number), 2) << " |\n";
  }
  out << "\n## Against every baseline and the LIMIT\n\nGeometric mean of baseline time / our "
         "time (cases; smallest and its case), every baseline timed in the same run; x LIMIT: "
         "our time / the LIMIT, the largest of DRAM bytes / copy bandwidth, the L2 bytes the "
         "plan gathers / the gather bandwidth, Tensor Core FLOPs / cuBLAS's fp16 rate and the "
         "launch floor (1 = at the limit; larger is further from it, so its largest is our "
         "worst case).\n\n"
         "| approach | set | vs cuSPARSE fp16 | vs cuSPARSE fp32 | vs dense then sample | "
         "vs the better of fp16 and dense | x LIMIT |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [number, all] : summary.ratios) {
    for (const std::string& set : sets_of(all)) {
      std::vector<CaseRatios> cases;
      std::copy_if(all.begin(), all.end(), std::back_inserter(cases),
                   [&](const CaseRatios& ratios) { return ratios.set == set; });
      out << "| " << approach_label(number) << " | " << set << " | "
          << ratio_cell(cases, [](const CaseRatios& r) { return r.vs_fp16; }) << " | "
          << ratio_cell(cases, [](const CaseRatios& r) { return r.vs_fp32; }) << " | "
          << ratio_cell(cases, [](const CaseRatios& r) { return r.vs_dense; }) << " | "
          << ratio_cell(cases, vs_better) << " | "
          << ratio_cell(
                 cases, [](const CaseRatios& r) { return std::optional(r.limit_multiple); }, true)
          << " |\n";
    }
  }
  out << "\n## Case by case\n\n| approach | set | case, inner | ms | vs cuSPARSE fp16 | vs dense "
         "then sample | vs the better | LIMIT ms | x LIMIT | bound |\n"
         "|---|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& [number, all] : summary.ratios) {
    for (const CaseRatios& ratios : all) {
      out << "| " << approach_label(number) << " | " << ratios.set << " | " << ratios.case_label
          << " | " << course::format_fixed(ratios.ms, 4) << " | " << optional_text(ratios.vs_fp16)
          << " | " << optional_text(ratios.vs_dense) << " | " << optional_text(vs_better(ratios))
          << " | " << course::format_fixed(ratios.limit_ms, 4) << " | "
          << course::format_fixed(ratios.limit_multiple, 2) << " | " << ratios.limit_bound
          << " |\n";
    }
  }
  print_valued_pairs(summary, out);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace course::step5::bench
