/// @file bench_command_line.cpp
/// @brief parse_command_line(): sddmm_bench's options in four groups (what to measure, every
/// run, the approaches, the selection), then checked and copied into Settings and Request.
///
/// Step 5, the benchmark (the lab). Read first: bench_command_line.hpp.
#include "step5_tensor_core_sddmm/lab/bench/bench_command_line.hpp"

#include "common/cli.hpp"
#include "common/timing.hpp"
#include "step5_tensor_core_sddmm/going_further/hybrid_plan.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace course::step5::bench {
namespace {

/// The kernel of the masked tiles named by --masked-kernel, checked against the ring's
/// switches (they shape only the ring).
course::step5::MaskedTileKernel masked_kernel_named(const std::string& name, bool ring_switches) {
  using course::step5::MaskedTileKernel;
  if (name != "auto" && name != "ring" && name != "registers") {
    throw course::UsageError("--masked-kernel must be auto, ring or registers, got '" + name + "'");
  }
  if (ring_switches && name != "ring") {
    throw course::UsageError(
        "--tile-panels, --tile-stages and --tile-group-steps shape the ring's kernel: they need "
        "--masked-kernel ring, got --masked-kernel " +
        name);
  }
  return name == "ring"        ? MaskedTileKernel::ring
         : name == "registers" ? MaskedTileKernel::registers
                               : MaskedTileKernel::automatic;
}

/// Approach 4's switches of the masked-tile plan, checked.
void apply_tile_options(const std::string& tiles, const std::string& masked_kernel,
                        long long panels, long long group_steps, long long stages,
                        long long min_entries, bool no_dense_path,
                        course::step5::HybridOptions& hybrid) {
  if (tiles == "combined") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::combined;
  } else if (tiles == "masked16") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::masked16;
  } else if (tiles == "panels64") {
    hybrid.tensor_core_tiles = course::step5::TensorCoreTiles::panels64;
  } else {
    throw course::UsageError("--tiles must be combined, masked16 or panels64, got '" + tiles + "'");
  }
  if (panels != 0 && panels != 1 && panels != 2 && panels != 4) {
    throw course::UsageError("--tile-panels must be 0 (choose), 1, 2 or 4, got " +
                             std::to_string(panels));
  }
  if (stages == 1) {
    throw course::UsageError("--tile-stages must be 0 (choose), 2, 3 or 4, got 1");
  }
  hybrid.masked.kernel =
      masked_kernel_named(masked_kernel, panels != 0 || group_steps != 0 || stages != 0);
  hybrid.masked.panels = static_cast<int>(panels);
  hybrid.masked.group_steps = static_cast<int>(group_steps);
  hybrid.masked.stages = static_cast<int>(stages);
  hybrid.masked.min_entries = static_cast<int>(min_entries);
  hybrid.masked.dense_path = !no_dense_path;
}

/// The command line's numbers and words, before they are checked and copied into Settings.
struct RawOptions {
  std::vector<long long> matrix_inners = {256};
  long long seed = course::kBenchSeed;
  std::vector<long long> approach_numbers = {1, 2, 3, 4};
  long long repeats = course::kBenchRepeats;
  long long other_repeats = 21;
  long long max_nnz = 0;
  bool no_fp32 = false;
  long long group_lanes = 0;
  long long dense_limit_log2 = 32;
  std::string tiles = "combined";
  std::string panel_choice = "cost";
  std::string masked_kernel = "auto";
  long long tile_panels = 0;
  long long tile_group_steps = 0;
  long long tile_stages = 0;
  long long tile_min_entries = 0;
  bool no_dense_path = false;
  double tc_density = course::step5::HybridOptions{}.tc_density;
  long long tc_min_nnz = course::step5::HybridOptions{}.tc_min_nnz;
  long long lane_iterations = 0;
  bool no_run_graph = false;
};

/// The options that say what to measure: the sets, the matrices and where the table goes.
void add_input_options(course::ArgParser& parser, Request& request, RawOptions& raw) {
  parser.add_input_file("--shapes", &request.shapes,
                        "a file of the shapes to measure, one a line ('rows inner cols nnz', a "
                        "uniform mask each; e.g. lab/sets/note_shapes.txt)");
  parser.add_input_file("--masks", &request.masks,
                        "a file of the attention masks to measure, one a line (e.g. "
                        "lab/sets/attention_public.txt)");
  parser.add_flag("--ksweep", &request.k_sweep, "inner = 32..1024 on matrix_37000_37000_368000");
  parser.add_flag("--experiments", &request.experiments,
                  "block shape, COO v1/v2, lanes per nonzero, Tensor Core threshold");
  parser.add_input_folder("--matrices", &request.matrices,
                          "directory of .mtx/.mtx.gz files to add");
  parser.add_integer_list("--matrix-inner", &raw.matrix_inners, 1, 1 << 16,
                          "inner sizes of the --matrices files, e.g. 64,256 (default 256)");
  parser.add_output_file("--csv", &request.csv_path, "also write the table as CSV to this file");
  parser.add_output_file(
      "--markdown", &request.markdown_path,
      "also write the report as Markdown to this file (the table and the summary)");
}

/// The options of every run: the inputs' seed, the approaches, the repeats, the baselines.
void add_run_options(course::ArgParser& parser, RawOptions& raw) {
  parser.add_seed(&raw.seed,
                  "seed of the random inputs (A and B, and the masks whose set gives no seed)");
  parser.add_integer_list("--approaches", &raw.approach_numbers, 1, course::step5::kHybridApproach,
                          "approaches to run, e.g. 1,3,4");
  parser.add_integer("--repeats", &raw.repeats, 1, 1000,
                     "timed runs (the median and the minimum are reported)");
  parser.add_integer("--other-repeats", &raw.other_repeats, 1, 1000,
                     "timed preprocessings (median reported, default 21)");
  parser.add_integer("--max-nnz", &raw.max_nnz, 0, 1LL << 40,
                     "skip matrices above this nnz (0: none)");
  parser.add_flag("--no-fp32", &raw.no_fp32, "do not time cuSPARSE with fp32 A and B");
}

/// The options of the approaches themselves (approach 2's limit, approach 4's plan).
void add_approach_options(course::ArgParser& parser, RawOptions& raw) {
  parser.add_integer(
      "--group-lanes", &raw.group_lanes, 0, 32,
      "approach 4: lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256, doubling with inner)");
  parser.add_integer("--dense-limit-log2", &raw.dense_limit_log2, 10, 40,
                     "approach 2: refuse dense products above 2^this elements");
  parser.add_text("--tiles", &raw.tiles,
                  "approach 4's Tensor Cores: combined (the default: 64x64 full tiles and dense "
                  "64-row panels, then 16x16 masked tiles by the cost model), masked16 (masked "
                  "tiles only) or panels64 (full tiles and dense panels only)");
  parser.add_text("--panel-choice", &raw.panel_choice,
                  "combined: dense 64-row panels by modelled kernel times (cost, the default) or "
                  "from 15 % of their span (density, the earlier rule)");
  parser.add_text("--masked-kernel", &raw.masked_kernel,
                  "masked tiles: auto (the plan's choice), ring (blocks share stages of Bt in "
                  "shared memory) or registers (a warp per run of tiles, no barrier)");
  parser.add_integer("--tile-panels", &raw.tile_panels, 0, 4,
                     "masked tiles, the ring: 16-row panels per block (0: the plan's choice, 1, "
                     "2, 4)");
  parser.add_integer(
      "--tile-stages", &raw.tile_stages, 0, 4,
      "masked tiles, the ring: stages of Bt in flight per block (0: the plan's choice, 2 to 4)");
  parser.add_integer("--tile-group-steps", &raw.tile_group_steps, 0, 4,
                     "masked tiles, the ring: tile columns per stage of Bt (0: the plan's choice, "
                     "1 to 4)");
  parser.add_integer(
      "--tile-min-entries", &raw.tile_min_entries, 0, 257,
      "masked tiles: entries from which a tile goes to Tensor Cores (0: the model's)");
  parser.add_flag("--no-dense-path", &raw.no_dense_path,
                  "never take the dense product, even where the model prefers it");
  parser.add_real("--tc-density", &raw.tc_density, {0.0, 1.0, true},
                  "full tiles and dense panels: a panel's density for Tensor Cores");
  parser.add_integer("--tc-min-nnz", &raw.tc_min_nnz, 0, 1LL << 40,
                     "full tiles and dense panels: dense panels only from this many nonzeros");
  parser.add_integer("--lane-iterations", &raw.lane_iterations, 0, 64,
                     "approach 4: runs of nonzeros per lane-group block (0: automatic)");
  parser.add_flag("--no-run-graph", &raw.no_run_graph,
                  "approach 4: queue a run's kernels, fork and join one by one, not as a graph");
}

/// Approach 4's options, checked, into @p hybrid.
void apply_approach4_options(const RawOptions& raw, bool panel_choice_given,
                             course::step5::HybridOptions& hybrid) {
  const long long lanes = raw.group_lanes;
  if (lanes != 0 && lanes != 4 && lanes != 8 && lanes != 16 && lanes != 32) {
    throw course::UsageError("--group-lanes must be 0, 4, 8, 16 or 32, got " +
                             std::to_string(lanes));
  }
  hybrid.group_lanes = static_cast<int>(lanes);
  hybrid.lane_iterations = static_cast<int>(raw.lane_iterations);
  hybrid.run_graph = !raw.no_run_graph;
  hybrid.tc_min_nnz = raw.tc_min_nnz;
  hybrid.tc_density = raw.tc_density;
  if (raw.panel_choice == "cost") {
    hybrid.panel_choice = course::step5::PanelChoice::cost;
  } else if (raw.panel_choice == "density") {
    hybrid.panel_choice = course::step5::PanelChoice::density;
  } else {
    throw course::UsageError("--panel-choice must be cost or density, got '" + raw.panel_choice +
                             "'");
  }
  if (panel_choice_given && raw.tiles != "combined") {
    throw course::UsageError(
        "--panel-choice chooses the combined plan's panels: it needs --tiles "
        "combined, got --tiles " +
        raw.tiles);
  }
  apply_tile_options(raw.tiles, raw.masked_kernel, raw.tile_panels, raw.tile_group_steps,
                     raw.tile_stages, raw.tile_min_entries, raw.no_dense_path, hybrid);
}

}  // namespace

bool parse_command_line(int argc, char** argv, Settings& settings, Request& request) {
  RawOptions raw;
  course::ArgParser parser(
      "sddmm_bench",
      "Times the step 5 SDDMM approaches against cuSPARSE's SDDMM (CSR) with fp16 and with fp32 "
      "A and B, and against a dense cuBLAS fp16 product sampled at the nonzeros, on sets of "
      "uniform shapes and of attention masks (files), an inner sweep and real Matrix Market "
      "matrices; verifies every result against cuSPARSE fp16 and every baseline against ours; "
      "reports each time as a multiple of its LIMIT. Prints Markdown; --csv and --markdown "
      "write the table.");
  add_input_options(parser, request, raw);
  add_run_options(parser, raw);
  add_approach_options(parser, raw);
  parser.add_text("--filter", &request.filter,
                  "run only the matrices whose name contains this text");
  parser.add_text("--cusparse-layout", &settings.cusparse_layout,
                  "auto (fastest of both), col or row");
  if (!parser.parse(argc, argv)) {
    return false;
  }
  const std::string& layout = settings.cusparse_layout;
  if (layout != "auto" && layout != "col" && layout != "row") {
    throw course::UsageError("--cusparse-layout must be auto, col or row, got '" + layout + "'");
  }
  apply_approach4_options(raw, parser.given("--panel-choice"), settings.hybrid);
  settings.approaches.assign(raw.approach_numbers.begin(), raw.approach_numbers.end());
  request.matrix_inners.assign(raw.matrix_inners.begin(), raw.matrix_inners.end());
  settings.repeats = static_cast<int>(raw.repeats);
  settings.other_repeats = static_cast<int>(raw.other_repeats);
  settings.max_nnz = raw.max_nnz;
  settings.seed = static_cast<std::uint64_t>(raw.seed);
  settings.fp32_baseline = !raw.no_fp32;
  settings.options.dense_limit_elements = std::size_t{1} << raw.dense_limit_log2;
  return true;
}

}  // namespace course::step5::bench
