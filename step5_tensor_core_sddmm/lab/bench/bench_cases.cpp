// Step 5, the benchmark (lesson Part 3): which matrices it runs.
// Read first: bench.hpp.
/// @file bench_cases.cpp
/// @brief The benchmark's matrices: the note's 17 shapes, the inner sweep and a directory of
/// Matrix Market files; and why a case cannot run (skip_reason).
#include "step5_tensor_core_sddmm/lab/bench/bench.hpp"

#include "common/cli.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/sparse_generators.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>

namespace course::step5::bench {
namespace {

struct NoteShape {
  int rows;
  int cols;
  std::size_t nnz;
};

// The note's shapes (rows, cols, nnz; inner = 256).
const std::vector<NoteShape> kNoteShapes = {
    {3000, 7000, 313110},      {2000, 12000, 746000},     {300000, 103000, 69000000},
    {35000, 35000, 422000},    {549000, 549000, 926000},  {426000, 426000, 1000000},
    {37000, 37000, 368000},    {4000, 4000, 88000},       {106000, 106000, 3000000},
    {685000, 685000, 8000000}, {916000, 916000, 5000000}, {326000, 326000, 1000000},
    {197000, 197000, 2000000}, {390000, 390000, 2000000}, {260000, 260000, 4000000},
    {241000, 241000, 561000},  {36000, 36000, 4000000}};

}  // namespace

std::uint64_t case_seed(const std::string& name) {
  return std::hash<std::string>{}(name) | 1u;
}

std::vector<BenchCase> note_cases() {
  std::vector<BenchCase> cases;
  for (const NoteShape& shape : kNoteShapes) {
    cases.push_back({course::uniform_mask_name(shape.rows, shape.cols, shape.nnz),
                     [shape] {
                       return course::random_uniform_mask(
                           shape.rows, shape.cols, shape.nnz,
                           case_seed(course::uniform_mask_name(shape.rows, shape.cols, shape.nnz)));
                     },
                     256, shape.nnz, shape.rows, shape.cols, false, ""});
  }
  return cases;
}

std::vector<BenchCase> k_sweep_cases() {
  std::vector<BenchCase> cases;
  const NoteShape shape{37000, 37000, 368000};
  const std::string name = course::uniform_mask_name(shape.rows, shape.cols, shape.nnz);
  for (const int inner : {32, 64, 128, 256, 512, 1024}) {
    cases.push_back({name,
                     [shape, name] {
                       return course::random_uniform_mask(shape.rows, shape.cols, shape.nnz,
                                                          case_seed(name));
                     },
                     inner, shape.nnz, shape.rows, shape.cols, false, ""});
  }
  return cases;
}

std::vector<BenchCase> matrix_cases(const std::string& directory) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(directory)) {
    throw course::UsageError("--matrices " + directory + " is not a directory");
  }
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory)) {
    const std::string name = entry.path().filename().string();
    const auto ends_with = [&](const std::string& suffix) {
      return name.size() >= suffix.size() &&
             name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (entry.is_regular_file() && (ends_with(".mtx") || ends_with(".mtx.gz"))) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<BenchCase> cases;
  for (const fs::path& file : files) {
    std::string name = file.filename().string();
    name = name.substr(0, name.find(".mtx"));
    BenchCase bench_case{
        name, [file] { return course::read_matrix_market(file.string()); }, 256, 0, 0, 0, true, ""};
    try {
      const course::MatrixMarketSize size = course::read_matrix_market_size(file.string());
      bench_case.expected_nnz = static_cast<std::size_t>(size.max_nonzeros());
      bench_case.rows = static_cast<int>(size.rows);
      bench_case.cols = static_cast<int>(size.cols);
    } catch (const course::MatrixMarketError& error) {
      bench_case.problem = error.what();
    }
    cases.push_back(bench_case);
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
