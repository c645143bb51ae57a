/// @file mask_set_cases.cpp
/// @brief mask_set_cases(): each mask of a set at each of its inner sizes, in the file's
/// order. The public set is lab/sets/attention_public.txt (block-sparse masks of block sizes
/// 16 to 128, sliding windows, BigBird, causal masks, 4096² to 32768²), and
/// lab/sets/attention_other.txt holds other masks of the same kinds.
///
/// Step 5, the benchmark (the lab): the attention masks of a `--masks` file.
/// Read first: bench.hpp, case_set_files.hpp (the file), common/attention_masks.hpp.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/attention_masks.hpp"

namespace course::step5::bench {

std::vector<BenchCase> mask_set_cases(const std::vector<MaskSetEntry>& masks,
                                      const std::string& set, std::uint64_t seed) {
  std::vector<BenchCase> cases;
  for (const MaskSetEntry& entry : masks) {
    course::AttentionMaskSpec spec = entry.spec;
    if (!entry.seeded) {
      spec.seed = case_seed(entry.structure, seed);  // the same mask with any values
    }
    for (const int inner : entry.inners) {
      BenchCase bench_case;
      bench_case.name = entry.name;
      bench_case.structure = entry.structure;
      bench_case.make = [spec, values = entry.values] {
        course::CooMatrix mask = course::attention_mask(spec);
        apply_mask_values(mask, values, spec.seed);
        return mask;
      };
      bench_case.inner = inner;
      bench_case.expected_nnz = course::attention_mask_max_nnz(spec);
      bench_case.rows = spec.rows;
      bench_case.cols = spec.cols;
      bench_case.set = set;
      bench_case.attention = true;
      cases.push_back(bench_case);
    }
  }
  return cases;
}

}  // namespace course::step5::bench
