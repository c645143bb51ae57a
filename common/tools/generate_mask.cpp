/// @file generate_mask.cpp
/// @brief Writes a random sparsity mask (the S of SDDMM) as a Matrix Market pattern file.
///
/// Uniform masks place exactly --nnz distinct entries uniformly at random; with
/// --power-law EXP the row lengths follow a power law instead. The default file name is
/// the note's `matrix_<rows>_<cols>_<nnz>.mtx`; a path ending in `.gz` is compressed.
#include "common/cli.hpp"
#include "common/matrix_market.hpp"
#include "common/sparse_generators.hpp"

#include <climits>
#include <iostream>
#include <string>

/// @brief Parses the options, draws the mask and writes it.
/// @param argc argument count
/// @param argv arguments (see --help)
/// @return 0 on success, 2 for a bad command line, 1 for any other error
int main(int argc, char** argv) {
  return course::run_program("generate_mask", [&] {
    long long rows = 5000;
    long long cols = 5000;
    long long nnz = 250000;
    long long seed = 1;
    std::string power_law;
    std::string out;
    course::ArgParser parser("generate_mask",
                             "Writes a random sparsity mask with exactly --nnz distinct entries "
                             "as a Matrix Market 'coordinate pattern general' file.");
    parser.add_integer("--rows", &rows, 1, INT_MAX, "number of rows");
    parser.add_integer("--cols", &cols, 1, INT_MAX, "number of columns");
    parser.add_integer("--nnz", &nnz, 0, INT_MAX, "number of entries (at most rows * cols)");
    parser.add_integer("--seed", &seed, 0, LLONG_MAX, "random seed (same seed, same mask)");
    parser.add_text("--power-law", &power_law,
                    "exponent in [0, 10]: row lengths follow a power law (default: uniform)");
    parser.add_text("--out", &out, "output path (default: matrix_<rows>_<cols>_<nnz>.mtx)");
    if (!parser.parse(argc, argv)) {
      return 0;  // --help
    }
    const auto nnz_count = static_cast<std::size_t>(nnz);
    if (static_cast<unsigned long long>(nnz) >
        static_cast<unsigned long long>(rows) * static_cast<unsigned long long>(cols)) {
      throw course::UsageError("--nnz " + std::to_string(nnz) +
                               " exceeds rows * cols = " + std::to_string(rows * cols));
    }
    if (out.empty()) {
      out = course::uniform_mask_name(static_cast<int>(rows), static_cast<int>(cols), nnz_count) +
            ".mtx";
    }
    course::CooMatrix mask;
    if (power_law.empty()) {
      mask = course::random_uniform_mask(static_cast<int>(rows), static_cast<int>(cols), nnz_count,
                                         static_cast<std::uint64_t>(seed));
    } else {
      double exponent = 0.0;
      std::size_t used = 0;
      try {
        exponent = std::stod(power_law, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != power_law.size() || !(exponent >= 0.0 && exponent <= 10.0)) {
        throw course::UsageError("--power-law '" + power_law + "' is not a number in [0, 10]");
      }
      mask = course::random_power_law_mask(static_cast<int>(rows), static_cast<int>(cols),
                                           nnz_count, exponent, static_cast<std::uint64_t>(seed));
    }
    course::write_matrix_market(out, mask, /*pattern=*/true);
    std::cout << "wrote " << out << ": " << rows << " x " << cols << ", " << mask.nnz()
              << " entries\n";
    return 0;
  });
}
