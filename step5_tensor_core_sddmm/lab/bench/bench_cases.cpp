/// @file bench_cases.cpp
/// @brief The benchmark's matrices: a `--shapes` file's uniform masks, the inner sweep and a
/// directory of Matrix Market files; and why a case cannot run (skip_reason).
///
/// Step 5, the benchmark (the lab): which matrices it runs.
/// Read first: bench.hpp.
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/cli.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/sparse_generators.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>

namespace course::step5::bench {
namespace {

struct NoteShape {
  int rows;
  int cols;
  std::size_t nnz;
};

}  // namespace

std::uint64_t case_seed(const std::string& name, std::uint64_t seed) {
  // splitmix64's finaliser on the name's hash plus the run's seed: every run seed gives
  // every case its own inputs.
  std::uint64_t mixed = std::hash<std::string>{}(name) + seed * 0x9E3779B97F4A7C15ull;
  mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9ull;
  mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBull;
  return (mixed ^ (mixed >> 31)) | 1u;
}

std::vector<BenchCase> shape_set_cases(const std::vector<ShapeSetEntry>& shapes,
                                       const std::string& set, std::uint64_t seed) {
  std::vector<BenchCase> cases;
  for (const ShapeSetEntry& shape : shapes) {
    const std::size_t nnz = static_cast<std::size_t>(shape.nnz);
    const std::string name = course::uniform_mask_name(shape.rows, shape.cols, nnz);
    const std::uint64_t mask_seed = case_seed(name, seed);
    BenchCase bench_case;
    bench_case.name = name;
    bench_case.make = [shape, nnz, mask_seed] {
      return course::random_uniform_mask(shape.rows, shape.cols, nnz, mask_seed);
    };
    bench_case.inner = shape.inner;
    bench_case.expected_nnz = nnz;
    bench_case.rows = shape.rows;
    bench_case.cols = shape.cols;
    bench_case.set = set;
    cases.push_back(bench_case);
  }
  return cases;
}

std::vector<BenchCase> k_sweep_cases(std::uint64_t seed) {
  std::vector<BenchCase> cases;
  const NoteShape shape{37000, 37000, 368000};
  const std::string name = course::uniform_mask_name(shape.rows, shape.cols, shape.nnz);
  const std::uint64_t mask_seed = case_seed(name, seed);
  for (const int inner : {32, 64, 128, 256, 512, 1024}) {
    BenchCase bench_case;
    bench_case.name = name;
    bench_case.make = [shape, mask_seed] {
      return course::random_uniform_mask(shape.rows, shape.cols, shape.nnz, mask_seed);
    };
    bench_case.inner = inner;
    bench_case.expected_nnz = shape.nnz;
    bench_case.rows = shape.rows;
    bench_case.cols = shape.cols;
    bench_case.set = "inner sweep";
    cases.push_back(bench_case);
  }
  return cases;
}

std::vector<BenchCase> matrix_cases(const std::string& directory, const std::vector<int>& inners) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(directory)) {
    throw course::UsageError("--matrices " + directory + " is not a directory");
  }
  // Each .mtx/.mtx.gz entry, with what is wrong with it when it cannot be examined (a
  // symbolic link in a loop or to nowhere): such a file becomes a skipped row that says why,
  // never an error that ends the whole run.
  std::vector<std::pair<fs::path, std::string>> files;
  std::error_code listing_error;
  for (fs::directory_iterator entries(directory, listing_error), end;
       !listing_error && entries != end; entries.increment(listing_error)) {
    const fs::directory_entry& entry = *entries;
    const std::string name = entry.path().filename().string();
    const auto ends_with = [&](const std::string& suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!ends_with(".mtx") && !ends_with(".mtx.gz")) {
      continue;
    }
    std::error_code kind_error;
    const bool regular = entry.is_regular_file(kind_error);
    if (kind_error) {
      files.emplace_back(entry.path(), entry.path().string() + ": cannot be examined (" +
                                           kind_error.message() + ")");
    } else if (regular) {
      files.emplace_back(entry.path(), "");
    }
  }
  if (listing_error) {
    throw course::UsageError("--matrices " + directory +
                             " cannot be listed: " + listing_error.message());
  }
  std::sort(files.begin(), files.end());
  std::vector<BenchCase> cases;
  for (const auto& listed : files) {
    const fs::path& file = listed.first;
    const std::string& problem = listed.second;
    std::string name = file.filename().string();
    name = name.substr(0, name.find(".mtx"));
    BenchCase bench_case{
        name, [file] { return course::read_matrix_market(file.string()); }, 256, 0, 0, 0, true, ""};
    if (!problem.empty()) {
      bench_case.problem = problem;
      cases.push_back(bench_case);
      continue;
    }
    try {
      const course::MatrixMarketSize size = course::read_matrix_market_size(file.string());
      bench_case.expected_nnz = static_cast<std::size_t>(size.max_nonzeros());
      bench_case.rows = static_cast<int>(size.rows);
      bench_case.cols = static_cast<int>(size.cols);
    } catch (const course::MatrixMarketError& error) {
      bench_case.problem = error.what();
    }
    for (const int inner : inners) {
      bench_case.inner = inner;
      cases.push_back(bench_case);
    }
  }
  return cases;
}

std::string skip_reason(const BenchCase& bench_case, const Settings& settings) {
  if (!bench_case.problem.empty()) {
    return "skipped: " + bench_case.problem;
  }
  if (settings.max_nnz > 0 &&
      bench_case.expected_nnz > static_cast<std::size_t>(settings.max_nnz)) {
    return "skipped (--max-nnz)";
  }
  const auto rows = static_cast<std::uint64_t>(bench_case.rows);
  const auto cols = static_cast<std::uint64_t>(bench_case.cols);
  const auto inner = static_cast<std::uint64_t>(bench_case.inner);
  const auto nnz = static_cast<std::uint64_t>(bench_case.expected_nnz);
  course::MemoryEstimate estimate = course::sampled_product_estimate(
      course::ProductSizes{bench_case.rows, bench_case.inner, bench_case.cols}, nnz,
      bench_case.from_file ? course::SamplingSource::file : course::SamplingSource::random_mask,
      false);
  // The benchmark's own: S as CSR, cuSPARSE's result and ours read back, the magnitudes; on
  // the device cuSPARSE's float copies of A and Bᵀ (and B row-major), its CSR and result,
  // the magnitudes and the approach's plan.
  estimate.host("S as CSR", course::saturating_add(course::array_bytes(nnz, 1, 8),
                                                   course::array_bytes(rows + 1, 1, 4)));
  estimate.host("results read back and magnitudes", course::array_bytes(nnz, 3, sizeof(float)));
  estimate.device("A and B in float for cuSPARSE",
                  course::array_bytes(rows + 2 * cols, inner, sizeof(float)));
  estimate.device("cuSPARSE's CSR and result, magnitudes, plan",
                  course::array_bytes(nnz, 1, 12 + 4 + 4 + 16));
  estimate.device("S kept on the device for the checks and the gather, approach 4's result",
                  course::array_bytes(nnz, 1, 12 + 4));
  try {
    course::require_memory(estimate, "--max-nnz or --filter leaves it out");
  } catch (const course::OutOfMemoryError& error) {
    return std::string("skipped: ") + error.what();
  }
  return "";
}

}  // namespace course::step5::bench
