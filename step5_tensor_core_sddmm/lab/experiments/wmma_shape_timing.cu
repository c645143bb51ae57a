/// @file wmma_shape_timing.cu
/// @brief Times approach 2's dense product for the three WMMA shapes at the note's two blocks
/// (32×32 and 128×4 threads), and the note's never-true `if` as three variants of one
/// kernel: (a) no `sparsity`, (b) `sparsity` read from S's tile and tested by the `if`,
/// (c) the same read kept alive by a select, without a branch, (d) the read "kept" only by an
/// empty asm statement (which ptxas ignores: it should time as (a)), (e) the read written but
/// its value unused (the note's kernel without its `if`). On the note's S (37000², 368 000
/// nonzeros) and 4000² with 88 000, inner = 256. Every variant's whole SDDMM (product, then
/// sampling) is first checked against the CPU reference on the same data, output poisoned; then the
/// product kernel alone is timed (the sampling is the same for every variant).
/// Writes wmma_shapes.{csv,md} and if_branch.{csv,md} into --out.
///
/// Step 5, an experiment (the lesson, approach 2's experiments):
/// the program that times them. Read first: wmma_shape_sddmm.hpp.
#include "step5_tensor_core_sddmm/lab/experiments/wmma_shape_sddmm.hpp"

#include "common/cli.hpp"
#include "common/device.hpp"
#include "common/output_file.hpp"
#include "common/sparse_generators.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "common/sampled_reference.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using course::step5::experiments::ShapeVariant;
using course::step5::experiments::ShapeWorkspace;

constexpr int kInner = 256;

/// One S of the experiment with its operands on the host and the device, and the reference.
struct Case {
  Case(int rows, int cols, std::size_t nnz, std::uint64_t seed)
      : name(course::uniform_mask_name(rows, cols, nnz)),
        s(course::random_uniform_mask(rows, cols, nnz, seed)),
        a(course::random_half_matrix(rows, kInner, kInner, seed + 100)),
        bt(course::random_half_matrix(cols, kInner, kInner, seed + 101)),
        device_a(a),
        device_bt(bt),
        operands(course::ProductSizes{rows, kInner, cols}, device_a.data(), kInner,
                 device_bt.data(), kInner),
        reference(course::sddmm_reference(a, bt, s)) {}
  std::string name;
  course::CooMatrix s;
  course::HostMatrix<__half> a;
  course::HostMatrix<__half> bt;
  course::DeviceMatrix<__half> device_a;
  course::DeviceMatrix<__half> device_bt;
  course::step5::DenseOperands operands;
  course::SampledReference reference;
};

/// What one variant measured.
struct Measurement {
  std::string check;
  course::TimingStats product;
};

/// Checks @p variant's SDDMM against the reference, then times its product kernel.
Measurement measure(const Case& problem, const course::step5::DevicePattern& pattern,
                    ShapeWorkspace& workspace, const ShapeVariant& variant, int repeats) {
  course::DeviceBuffer<float> output(static_cast<std::size_t>(pattern.nnz()), "C");
  output.poison();
  workspace.sddmm(variant, problem.operands, output.data());
  const course::CompareResult result =
      course::compare_sampled(output.to_vector(), problem.reference, problem.s,
                              course::Tolerance::tensor_core_fp32_accumulation(kInner));
  Measurement measurement;
  measurement.check = result.ok() ? "ok" : "WRONG: " + result.summary();
  if (result.ok()) {
    measurement.product =
        course::time_gpu([&] { workspace.product(variant, problem.operands); }, 2, repeats);
  }
  return measurement;
}

/// The same rows as a Markdown table (under a header naming GPU and date) and as a CSV whose
/// every row also names the GPU and the date.
struct Tables {
  explicit Tables(std::vector<std::string> headers) : markdown(headers), csv(with_run(headers)) {}
  static std::vector<std::string> with_run(std::vector<std::string> cells) {
    cells.push_back("gpu");
    cells.push_back("date");
    return cells;
  }
  void add_row(std::vector<std::string> cells) {
    markdown.add_row(cells);
    cells.push_back(course::gpu_name());
    cells.push_back(course::today_iso());
    csv.add_row(std::move(cells));
  }
  course::ResultTable markdown;
  course::ResultTable csv;
};

// Adds a row: @p cells, then the measurement's minimum and median ("-" when its check failed).
void add_measured_row(Tables& table, std::vector<std::string> cells,
                      const Measurement& measurement) {
  const bool ok = measurement.check == "ok";
  cells.push_back(ok ? course::format_fixed(measurement.product.min_ms, 3) : "-");
  cells.push_back(ok ? course::format_fixed(measurement.product.median_ms, 3) : "-");
  table.add_row(cells);
}

void write_text(const std::string& path, const std::string& text) {
  course::write_output_file(path, text);
}

std::string conditions(int repeats) {
  return course::benchmark_header() + "\n\nRelease build, inner = " + std::to_string(kInner) +
         ", A and Bᵀ half, C float; the dense product kernel alone (the sampling after it is "
         "the same for every variant), after each variant's SDDMM was checked against the CPU "
         "reference; 2 warm-up calls, then " +
         std::to_string(repeats) + " timed calls (CUDA events): min and median in ms.\n\n";
}

int run(int argc, char** argv) {
  // The committed results were run with --repeats 20 (their run line says so): the branch and
  // the read they compare differ by a fraction of a per cent of the time, a difference of two
  // medians that more runs hold steadier.
  long long repeats = course::kBenchRepeats;
  std::string out_dir = ".";
  course::ArgParser parser("wmma_shape_timing",
                           "Times approach 2 with the three WMMA shapes and the note's "
                           "never-true if (see the file comment).");
  parser.add_integer("--repeats", &repeats, 1, 1000, "timed runs (calls of each variant)");
  parser.add_output_folder("--out", &out_dir, "folder for the CSV and Markdown files (default .)");
  if (!parser.parse(argc, argv)) {
    return 0;
  }
  course::require_cuda_device(7, 0, "Tensor Cores (WMMA)");
  const int timed = static_cast<int>(repeats);
  Tables shapes(
      {"matrix", "inner", "WMMA shape", "block (threads)", "check", "min ms", "median ms"});
  Tables branch({"matrix", "inner", "block (threads)", "sparsity", "check", "min ms", "median ms"});
  std::string differences =
      "| matrix | block (threads) | (b) - (c): the branch, ms | (c) - (a): the read, ms |\n"
      "|---|---|---:|---:|\n";
  const std::vector<std::pair<int, int>> blocks = {{1, 32}, {4, 4}};
  for (const auto& [rows, nnz, seed] :
       std::vector<std::tuple<int, std::size_t, int>>{{37000, 368000, 5}, {4000, 88000, 6}}) {
    const Case problem(rows, rows, nnz, static_cast<std::uint64_t>(seed));
    const course::step5::DevicePattern pattern(problem.s);
    ShapeWorkspace workspace(pattern, true);
    for (const auto& [warps_x, warps_y] : blocks) {
      for (const auto& [m, n] : std::vector<std::pair<int, int>>{{16, 16}, {32, 8}, {8, 32}}) {
        const ShapeVariant variant{m, n, warps_x, warps_y, 0};
        const Measurement measured = measure(problem, pattern, workspace, variant, timed);
        add_measured_row(
            shapes,
            {problem.name, std::to_string(kInner), course::step5::experiments::shape_name(variant),
             course::step5::experiments::block_name(variant), measured.check},
            measured);
      }
      std::vector<double> medians;
      for (const int use : {0, 1, 2, 3, 4}) {
        const ShapeVariant variant{16, 16, warps_x, warps_y, use};
        const Measurement measured = measure(problem, pattern, workspace, variant, timed);
        add_measured_row(
            branch,
            {problem.name, std::to_string(kInner), course::step5::experiments::block_name(variant),
             course::step5::experiments::sparsity_name(variant), measured.check},
            measured);
        medians.push_back(measured.check == "ok" ? measured.product.median_ms : -1.0);
      }
      differences += "| " + problem.name + " | " +
                     course::step5::experiments::block_name({16, 16, warps_x, warps_y, 0}) + " | " +
                     course::format_fixed(medians[1] - medians[2], 3) + " | " +
                     course::format_fixed(medians[2] - medians[0], 3) + " |\n";
    }
  }
  const std::string header = conditions(timed);
  shapes.csv.write_csv(out_dir + "/wmma_shapes.csv");
  branch.csv.write_csv(out_dir + "/if_branch.csv");
  write_text(out_dir + "/wmma_shapes.md",
             "# Approach 2 with the three WMMA shapes\n\n" + header + shapes.markdown.markdown());
  write_text(out_dir + "/if_branch.md", "# The note's never-true if: branch against read\n\n" +
                                            header + branch.markdown.markdown() +
                                            "\nDifferences of the medians:\n\n" + differences);
  std::cout << header << shapes.markdown.markdown() << "\n"
            << branch.markdown.markdown() << "\n"
            << differences;
  return 0;
}

}  // namespace

/// @brief Runs the experiment (see the file comment).
/// @param argc argument count
/// @param argv arguments (--repeats, --out)
/// @return 0 on success, non-zero on an error
int main(int argc, char** argv) {
  return course::run_program("wmma_shape_timing", [&] { return run(argc, argv); });
}
