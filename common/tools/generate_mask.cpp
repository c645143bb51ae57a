/// @file generate_mask.cpp
/// @brief Writes a sparsity mask (the S of SDDMM) as a Matrix Market pattern file.
///
/// Uniform masks (--mask uniform, the default) place exactly --nnz distinct entries uniformly
/// at random; with --power-law EXP the row lengths follow a power law instead. The attention
/// masks of attention_masks.hpp come from --mask block-sparse (--block-size, --block-density),
/// sliding-window (--window, --global) and bigbird (those two and --random-per-row), each
/// with --causal. The default file name is the note's `matrix_<rows>_<cols>_<nnz>.mtx`, or
/// the attention mask's name (e.g. `block_16384_b128_d0.05.mtx`); a path ending in `.gz` is
/// compressed.
/// Before drawing anything the tool checks that the file stays under --max-output-mb and
/// that the work fits in the host's available memory; either refusal gives the figures.
#include "common/attention_masks.hpp"
#include "common/cli.hpp"
#include "common/matrix_market.hpp"
#include "common/memory_estimate.hpp"
#include "common/sparse_generators.hpp"

#include <climits>
#include <iostream>
#include <string>

namespace {

/// Masks with more entries than this print a line before each long stage.
constexpr long long kProgressEntries = 20000000;

/// Bytes of the text of a pattern file: the header and size line, then "row col\n" per entry
/// with each index at its longest (the .gz file is smaller; this bounds what it holds).
std::uint64_t pattern_file_bytes(long long rows, long long cols, long long nnz) {
  const std::uint64_t line = std::to_string(rows).size() + std::to_string(cols).size() + 2;
  return course::saturating_add(128, course::array_bytes(static_cast<std::uint64_t>(nnz), 1, line));
}

/// Refuses a file above the output limit, and work above the available host memory (a
/// power-law mask also needs memory for every row, however few its entries).
void check_limits(long long rows, long long cols, long long nnz, long long max_output_mb,
                  bool power_law) {
  if (static_cast<unsigned long long>(nnz) >
      static_cast<unsigned long long>(rows) * static_cast<unsigned long long>(cols)) {
    throw course::UsageError("--nnz " + std::to_string(nnz) +
                             " exceeds rows * cols = " + std::to_string(rows * cols));
  }
  const std::uint64_t file_bytes = pattern_file_bytes(rows, cols, nnz);
  if (file_bytes > (static_cast<std::uint64_t>(max_output_mb) << 20)) {
    throw course::UsageError(
        "the mask file would hold up to " + course::describe_bytes(file_bytes) + " of text (" +
        std::to_string(nnz) + " entries), more than --max-output-mb " +
        std::to_string(max_output_mb) + ": use a smaller --nnz or raise --max-output-mb");
  }
  course::MemoryEstimate estimate;
  estimate.host("the mask being drawn (" + std::to_string(nnz) + " entries)",
                course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)));
  if (power_law) {
    estimate.host("the power law's row lengths (" + std::to_string(rows) + " rows)",
                  course::power_law_row_bytes(static_cast<std::uint64_t>(rows)));
  }
  course::require_host_fits(estimate,
                            power_law ? "use a smaller --nnz or --rows" : "use a smaller --nnz");
}

/// Draws the mask the options ask for.
course::CooMatrix draw_mask(long long rows, long long cols, long long nnz, double exponent,
                            bool power_law, long long seed) {
  if (nnz >= kProgressEntries) {
    std::cerr << "generate_mask: drawing " << nnz << " distinct positions...\n";
  } else if (power_law && rows >= kProgressEntries) {
    std::cerr << "generate_mask: sharing " << nnz << " entries among " << rows
              << " rows by the power law (its time grows with the rows)...\n";
  }
  const auto count = static_cast<std::size_t>(nnz);
  const auto random_seed = static_cast<std::uint64_t>(seed);
  const std::uint64_t bytes = course::saturating_add(
      course::mask_generation_bytes(static_cast<std::uint64_t>(nnz)),
      power_law ? course::power_law_row_bytes(static_cast<std::uint64_t>(rows)) : 0);
  return course::allocate_on_host("the mask", bytes, [&] {
    return power_law ? course::random_power_law_mask(static_cast<int>(rows), static_cast<int>(cols),
                                                     count, exponent, random_seed)
                     : course::random_uniform_mask(static_cast<int>(rows), static_cast<int>(cols),
                                                   count, random_seed);
  });
}

/// What the command line asks for (the defaults are the note's 5000 x 5000 mask).
struct MaskRequest {
  std::string mask = "uniform";
  long long rows = 5000;
  long long cols = 5000;
  long long nnz = 250000;
  long long seed = 1;
  long long max_output_mb = 512;
  double exponent = 0.0;
  long long block_size = 64;
  double block_density = 0.1;
  long long window = 128;
  long long global = 0;
  long long random_per_row = 0;
  bool causal = false;
  std::string out;
};

/// The attention mask of @p request (--mask other than uniform); UsageError for a bad
/// parameter, with the generator's message naming the limit.
course::AttentionMaskSpec attention_spec(const MaskRequest& request) {
  course::AttentionMaskSpec spec;
  try {
    spec.kind = course::attention_kind_from_name(request.mask);
  } catch (const std::invalid_argument&) {
    throw course::UsageError(
        "--mask must be uniform, block-sparse, sliding-window or bigbird, "
        "got '" +
        request.mask + "'");
  }
  spec.rows = static_cast<int>(request.rows);
  spec.cols = static_cast<int>(request.cols);
  spec.block_size = static_cast<int>(request.block_size);
  spec.block_density = request.block_density;
  spec.half_width = static_cast<int>(request.window);
  spec.global = static_cast<int>(request.global);
  spec.random_per_row = static_cast<int>(request.random_per_row);
  spec.causal = request.causal;
  spec.seed = static_cast<std::uint64_t>(request.seed);
  try {
    course::check_attention_mask(spec);
  } catch (const std::invalid_argument& error) {
    throw course::UsageError(std::string("--mask ") + request.mask + ": " + error.what());
  }
  return spec;
}

/// Says how many blocks a block-sparse mask kept, and when --block-density asked for fewer
/// than one (the mask keeps one all the same), which density would keep one.
void report_kept_blocks(const course::AttentionMaskSpec& spec) {
  course::AttentionMaskSpec every_block = spec;
  every_block.block_density = 1.0;
  const std::uint64_t eligible = course::attention_block_count(every_block);
  const std::uint64_t kept = course::attention_block_count(spec);
  std::cout << "kept " << kept << " of " << eligible << " blocks (--block-density "
            << spec.block_density << ")\n";
  if (spec.block_density * static_cast<double>(eligible) < 0.5) {
    std::cerr << "generate_mask: warning: --block-density " << spec.block_density << " of "
              << eligible << " blocks rounds to none; one block was kept (a density of "
              << 1.0 / static_cast<double>(eligible) << " keeps one)\n";
  }
}

/// Writes the attention mask of @p request, after the output and memory limits.
int write_attention_mask(const MaskRequest& request) {
  const course::AttentionMaskSpec spec = attention_spec(request);
  const auto bound = static_cast<long long>(course::attention_mask_max_nnz(spec));
  check_limits(request.rows, request.cols, bound, request.max_output_mb, false);
  const std::string out =
      request.out.empty() ? course::attention_mask_name(spec) + ".mtx" : request.out;
  const course::CooMatrix mask = course::allocate_on_host(
      "the mask", course::mask_generation_bytes(static_cast<std::uint64_t>(bound)),
      [&] { return course::attention_mask(spec); });
  course::write_matrix_market(out, mask, /*pattern=*/true);
  std::cout << "wrote " << out << ": " << request.rows << " x " << request.cols << ", "
            << mask.nnz() << " entries, seed " << request.seed << "\n";
  if (spec.kind == course::AttentionKind::block_sparse) {
    report_kept_blocks(spec);
  }
  return 0;
}

int run(int argc, char** argv) {
  MaskRequest request;
  course::ArgParser parser("generate_mask",
                           "Writes a sparsity mask as a Matrix Market 'coordinate pattern "
                           "general' file: uniform random with exactly --nnz distinct entries, "
                           "or an attention mask (block-sparse, sliding-window, bigbird).");
  parser.add_text("--mask", &request.mask,
                  "uniform (default), block-sparse, sliding-window or bigbird");
  parser.add_integer("--rows", &request.rows, 1, INT_MAX,
                     "rows of A and C (here: of the mask S, rows x cols like C)");
  parser.add_integer("--cols", &request.cols, 1, INT_MAX,
                     "columns of B and C (here: of the mask S, rows x cols like C)");
  parser.add_integer("--nnz", &request.nnz, 0, INT_MAX, "number of entries (at most rows * cols)");
  parser.add_seed(&request.seed,
                  "seed of the random inputs (here the mask S: the same seed, the same mask)");
  parser.add_real("--power-law", &request.exponent, {0.0, 10.0},
                  "exponent: row lengths follow a power law (default: uniform rows)");
  parser.add_output_file("--out", &request.out,
                         "output path (default: matrix_<rows>_<cols>_<nnz>.mtx)");
  parser.add_integer("--max-output-mb", &request.max_output_mb, 1, 1 << 20,
                     "refuse a mask whose file would hold more than this many MiB of text");
  parser.add_integer("--block-size", &request.block_size, 1, INT_MAX,
                     "block-sparse: side of a block (default 64)");
  parser.add_real("--block-density", &request.block_density, {0.0, 1.0, true},
                  "block-sparse: share of the blocks kept (default 0.1)");
  parser.add_integer("--window", &request.window, 0, INT_MAX,
                     "sliding-window, bigbird: half-width, entries with |row - col| <= this "
                     "(default 128)");
  parser.add_integer("--global", &request.global, 0, INT_MAX,
                     "sliding-window, bigbird: the first rows and columns kept whole (default 0)");
  parser.add_integer("--random-per-row", &request.random_per_row, 0, INT_MAX,
                     "bigbird: random columns added to each non-global row (default 0)");
  parser.add_flag("--causal", &request.causal,
                  "attention masks: nothing above the diagonal (col <= row)");
  if (!parser.parse(argc, argv)) {
    return 0;  // --help
  }
  const bool uniform = request.mask == "uniform";
  parser.refuse_unless({"--nnz", "--power-law"}, uniform, "--mask uniform");
  parser.refuse_unless({"--block-size", "--block-density"}, request.mask == "block-sparse",
                       "--mask block-sparse");
  parser.refuse_unless({"--window", "--global"},
                       request.mask == "sliding-window" || request.mask == "bigbird",
                       "--mask sliding-window or bigbird");
  parser.refuse_unless({"--random-per-row"}, request.mask == "bigbird", "--mask bigbird");
  parser.refuse_unless({"--causal"}, !uniform, "an attention --mask");
  if (!uniform) {
    return write_attention_mask(request);
  }
  check_limits(request.rows, request.cols, request.nnz, request.max_output_mb,
               parser.given("--power-law"));
  const std::string out = request.out.empty()
                              ? course::uniform_mask_name(static_cast<int>(request.rows),
                                                          static_cast<int>(request.cols),
                                                          static_cast<std::size_t>(request.nnz)) +
                                    ".mtx"
                              : request.out;
  const course::CooMatrix mask =
      draw_mask(request.rows, request.cols, request.nnz, request.exponent,
                parser.given("--power-law"), request.seed);
  if (request.nnz >= kProgressEntries) {
    std::cerr << "generate_mask: writing " << out << "...\n";
  }
  course::write_matrix_market(out, mask, /*pattern=*/true);
  std::cout << "wrote " << out << ": " << request.rows << " x " << request.cols << ", "
            << mask.nnz() << " entries, seed " << request.seed << "\n";
  return 0;
}

}  // namespace

/// @brief Parses the options, checks the limits, draws the mask and writes it.
/// @param argc argument count
/// @param argv arguments (see --help)
/// @return 0 on success, 2 for a bad command line, 1 for any other error
int main(int argc, char** argv) {
  return course::run_program("generate_mask", [&] { return run(argc, argv); });
}
