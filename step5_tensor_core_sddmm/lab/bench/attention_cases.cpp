// Step 5, the benchmark (lesson Part 3): the public attention set, `--attention`.
// Read first: bench.hpp, then common/attention_masks.hpp (the generators).
/// @file attention_cases.cpp
/// @brief The attention masks the benchmark runs: the masks of issue 17's table (block-sparse,
/// sliding window with global rows and columns, BigBird-style) and their like from 4096² to
/// 32768², causal ones among them, each at the head dimensions inner = 64, 128 and 256.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/attention_masks.hpp"

namespace course::step5::bench {
namespace {

course::AttentionMaskSpec block_mask(int size, int block, double density, bool causal) {
  return course::block_sparse_spec(size, size, block, density, causal);
}

course::AttentionMaskSpec window_mask(int size, int half_width, int global, bool causal) {
  return course::sliding_window_spec(size, size, half_width, global, causal);
}

course::AttentionMaskSpec bigbird_mask(int size, int half_width, int global, int random) {
  return course::bigbird_spec(size, size, half_width, global, random);
}

}  // namespace

std::vector<BenchCase> attention_cases() {
  const std::vector<course::AttentionMaskSpec> masks = {
      // The table.
      block_mask(16384, 128, 0.05, false),
      block_mask(8192, 64, 0.10, false),
      window_mask(16384, 128, 16, false),
      bigbird_mask(16384, 64, 32, 64),
      window_mask(8192, 256, 0, false),
      // Their like, from 4096² to 32768².
      block_mask(4096, 64, 0.25, true),
      block_mask(32768, 128, 0.02, false),
      window_mask(4096, 64, 8, false),
      window_mask(32768, 256, 0, true),
      bigbird_mask(32768, 64, 32, 64),
  };
  std::vector<BenchCase> cases;
  for (course::AttentionMaskSpec spec : masks) {
    const std::string name = course::attention_mask_name(spec);
    spec.seed = case_seed(name);
    for (const int inner : {64, 128, 256}) {
      BenchCase bench_case;
      bench_case.name = name;
      bench_case.make = [spec] { return course::attention_mask(spec); };
      bench_case.inner = inner;
      bench_case.expected_nnz = course::attention_mask_max_nnz(spec);
      bench_case.rows = spec.rows;
      bench_case.cols = spec.cols;
      bench_case.attention = true;
      cases.push_back(bench_case);
    }
  }
  return cases;
}

}  // namespace course::step5::bench
