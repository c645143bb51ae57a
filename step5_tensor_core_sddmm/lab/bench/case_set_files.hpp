/// @file case_set_files.hpp
/// @brief `--masks FILE` and `--shapes FILE` of sddmm_bench: one attention mask, or one
/// uniform random shape, per line, each with the inner sizes to run it at.
///
/// Step 5, the lab: the benchmark's sets of masks and shapes, read from files.
/// Read first: common/attention_masks.hpp (the masks a line describes).
///
/// A mask line is a kind followed by `key=value` words and flags, `#` starting a comment:
///
///     block-sparse   rows=16384 block=16 density=0.03 seed=11 inner=64,128,256
///     block-sparse   rows=4096 cols=8192 block=64 density=0.25 causal inner=64
///     sliding-window rows=16384 window=128 global=16 inner=64,128,256
///     bigbird        rows=16384 window=64 global=32 random=64 inner=256
///     causal         rows=4096 inner=64,128,256
///     causal         rows=4096 values=random inner=64,256
///
/// `cols` defaults to `rows`; `window` is the half-width; `causal` alone (the kind) is every
/// (row, col) with col <= row, a sliding window as wide as the matrix with the causal flag;
/// `seed` (default: drawn from the mask's name) makes the random choice of blocks or
/// columns; `values` gives S's values: `ones` (the default, a pattern), a number (every
/// value that number), or `random` (uniform in [-1, 1), drawn from the mask's seed), or a
/// list of them (`values=ones,random`: the line's mask once per word), so that the same
/// structure is measured as a pattern and with values. A shape line is four whole numbers,
/// `rows inner cols nnz`: the product's sizes in the course's order (ProductSizes, and step
/// 4's shapes files), then S's entries.
#pragma once

#include "common/attention_masks.hpp"
#include "common/sparse_matrix.hpp"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace course::step5::bench {

/// @brief What a mask line gives S as values (`values=`).
struct MaskValues {
  /// the three forms of `values=`
  enum class Kind {
    ones,      ///< every value one: a pattern matrix (the default)
    constant,  ///< every value `constant`
    random     ///< uniform in [-1, 1), drawn from the mask's seed
  };
  Kind kind = Kind::ones;  ///< which form
  double constant = 1.0;   ///< Kind::constant: the value
};

/// @brief One line of a mask set.
struct MaskSetEntry {
  course::AttentionMaskSpec spec;  ///< the mask
  bool seeded = false;             ///< the line gave `seed` (else the name's seed is used)
  std::vector<int> inners;         ///< the inner sizes to run it at
  MaskValues values;               ///< S's values (`values=`; ones by default)
  /// attention_mask_name, with `_s<seed>` when seeded: the structure, the same with any values
  std::string structure;
  /// the structure's name, with `_v<value>` or `_vrand` when valued
  std::string name;
};

/// @brief Gives @p mask the values @p values asks for (ones leave it as it is).
/// @param mask S, as attention_mask made it
/// @param values the line's values
/// @param seed the mask's seed (Kind::random draws from it)
void apply_mask_values(course::CooMatrix& mask, const MaskValues& values, std::uint64_t seed);

/// @brief One line of a shape set: a uniform random mask of exactly nnz entries.
struct ShapeSetEntry {
  int rows = 0;          ///< rows of S
  int inner = 0;         ///< the inner size
  int cols = 0;          ///< columns of S
  std::int64_t nnz = 0;  ///< entries of S
};

/// @brief Lines longer than this are refused (no line of a set needs more).
constexpr std::size_t kMaxSetLineBytes = 4096;
/// @brief Lines beyond this are refused (a set is a few dozen lines).
constexpr int kMaxSetLines = 10000;

/// @brief Parses a mask set. Throws std::runtime_error naming @p source, the line number and
/// the problem: an unknown kind or key, a value that is not a number, a mask that
/// check_attention_mask refuses, an inner outside 1..65536, a line or a file over the limits
/// above, or no mask at all.
/// @param input the text
/// @param source its name, for messages
/// @return the masks in file order
std::vector<MaskSetEntry> parse_mask_set(std::istream& input, const std::string& source);

/// @brief parse_mask_set on the file at @p path.
/// @param path the file (checked by the command line as a regular, readable file)
/// @return the masks
std::vector<MaskSetEntry> read_mask_set(const std::string& path);

/// @brief Parses a shape set (`rows inner cols nnz` a line); the same errors and limits, and
/// nnz must lie in 0..rows·cols and below 2^31.
/// @param input the text
/// @param source its name, for messages
/// @return the shapes in file order
std::vector<ShapeSetEntry> parse_shape_set(std::istream& input, const std::string& source);

/// @brief parse_shape_set on the file at @p path.
/// @param path the file
/// @return the shapes
std::vector<ShapeSetEntry> read_shape_set(const std::string& path);

}  // namespace course::step5::bench
