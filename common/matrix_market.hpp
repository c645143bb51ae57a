/// @file matrix_market.hpp
/// @brief Reading and writing sparse matrices in the Matrix Market coordinate format.
///
/// Accepted header: `%%MatrixMarket matrix coordinate <field> <symmetry>` where field is
/// `real`, `double` (read as real), `integer` or `pattern`, and symmetry is `general` or
/// `symmetric` (keywords are case-insensitive). `complex`, `hermitian`, `skew-symmetric`
/// and the dense `array` format are refused with a message saying so.
///
/// Rules of this reader (each violation is a MatrixMarketError naming the file, the line
/// and the problem; it never crashes, whatever the bytes):
/// - only a regular file is read: a FIFO, a device, a socket or a folder is refused at once,
///   by name (see file_checks.hpp), never waited on;
/// - a line may hold at most kMaxLineBytes bytes (a longer one is refused as soon as the
///   limit is reached, so the memory used never depends on the file); a UTF-8 byte-order
///   mark before the header is accepted and ignored;
/// - lines whose first non-blank character is `%` after the header are comments; blank lines
///   (only spaces/tabs) are skipped anywhere after the header; there may be at most
///   kMaxCommentLines of them, holding at most kMaxCommentBytes;
/// - the entry lines may hold kMaxEntryLineBytes each on average (and one line may reach
///   kMaxLineBytes): so the text read is bounded by what the size line declares, and a small
///   `.gz` that expands to gigabytes of anything else is refused after a few megabytes;
/// - the size line is `rows cols entries`, all whole numbers; rows and cols must be in
///   [0, INT_MAX], entries in [0, rows * cols] (for symmetric matrices the lower triangle
///   rows * (rows + 1) / 2, and rows must equal cols);
/// - each entry line is `row col` (pattern) or `row col value`, with 1-based indices in
///   [1, rows] and [1, cols]; they are stored 0-based;
/// - extra tokens after the expected fields of a line are an error (they usually mean a
///   wrong field in the header, e.g. complex data under a `real` header);
/// - the file must hold exactly `entries` entry lines: fewer or more is an error (a missing
///   size line or missing entries are reported at the line after the last one, where the
///   next line was expected; an extra entry at its own line);
/// - in a symmetric file only the lower triangle (row >= col) may be stored; an entry above
///   the diagonal is an error; each off-diagonal (i, j) is also stored as (j, i);
/// - duplicate positions are summed by default (DuplicatePolicy::Sum, as most readers do,
///   e.g. SciPy's and MATLAB's sparse construction), or refused (DuplicatePolicy::Error);
/// - values must be finite numbers that fit a float (an integer field accepts whole numbers
///   only); `nan`/`inf` are refused.
/// Reading or writing a large file prints progress lines to stderr (see progress.hpp).
/// The result is sorted row-major. Memory reserved in advance is capped, so a size line that
/// lies about the entry count cannot make the reader allocate huge vectors.
#pragma once

#include "common/bounded_line_reader.hpp"
#include "common/sparse_matrix.hpp"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>

namespace course {

/// @brief The longest line the reader accepts, in bytes (without its newline): 1 MiB, far
/// above any entry line and any sensible comment.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

/// @brief Most comment and blank lines a file may hold (real files hold a few dozen).
constexpr std::uint64_t kMaxCommentLines = 1000000;

/// @brief Most bytes the comment and blank lines may hold: 16 MiB.
constexpr std::uint64_t kMaxCommentBytes = std::uint64_t{16} << 20;

/// @brief Bytes an entry line may hold on average: `row col value` with both indices at
/// their longest and a 17-digit value, even padded to fixed-width columns, needs under 80;
/// the course's real matrices average 5 to 33.
constexpr std::uint64_t kMaxEntryLineBytes = 256;

/// @brief A malformed or unsupported Matrix Market file.
///
/// what() reads `<file>:<line>: <problem>`; line 0 means the whole file (e.g. it cannot be
/// opened). A TextInputError, so that a program can catch every refused text input at once.
class MatrixMarketError : public TextInputError {
 public:
  /// @brief Builds the error.
  /// @param path file name (or the name given to parse_matrix_market)
  /// @param line 1-based line number of the problem, 0 when it concerns no single line
  /// @param problem what is wrong, with the offending value and the limit where there is one
  MatrixMarketError(const std::string& path, long line, const std::string& problem)
      : TextInputError(path, line, problem) {}
};

/// @brief What to do with two entries at the same position.
enum class DuplicatePolicy {
  Sum,   ///< add the values into one entry (the default, as in most readers)
  Error  ///< refuse the file, naming the line of the second occurrence
};

/// @brief Reads a `.mtx` file, or a gzip-compressed `.mtx.gz` (any file that zlib's gzread
///        accepts: an uncompressed file is read as is).
/// @param path file to read
/// @param duplicates how to merge entries at the same position (default: sum them)
/// @return the matrix, 0-based, symmetric files expanded, sorted row-major, duplicates merged
/// @throws MatrixMarketError when the file cannot be read or is malformed
CooMatrix read_matrix_market(const std::string& path,
                             DuplicatePolicy duplicates = DuplicatePolicy::Sum);

/// @brief What a file's header and size line declare.
struct MatrixMarketSize {
  long long rows = 0;      ///< rows of the matrix
  long long cols = 0;      ///< columns of the matrix
  long long entries = 0;   ///< entry lines the file declares
  bool symmetric = false;  ///< only the lower triangle is stored

  /// @brief Most nonzeros the matrix can have once read: a symmetric file's off-diagonal
  /// entries are stored twice.
  /// @return the bound
  long long max_nonzeros() const { return symmetric ? 2 * entries : entries; }
};

/// @brief Reads only the header and the size line of a `.mtx` or `.mtx.gz` file, with the
/// same checks as read_matrix_market(): cheap, so a program can estimate the memory of a
/// run, or skip a file, before reading its entries.
/// @param path file to read
/// @return the declared sizes
/// @throws MatrixMarketError when the file cannot be read or its first lines are malformed
MatrixMarketSize read_matrix_market_size(const std::string& path);

/// @brief Parses Matrix Market text from a stream (the bytes of a file).
/// @param in the stream
/// @param name_for_errors name used in error messages, e.g. the file name
/// @param duplicates how to merge entries at the same position (default: sum them)
/// @return the matrix, 0-based, symmetric files expanded, sorted row-major, duplicates merged
/// @throws MatrixMarketError when the text is malformed or unsupported
CooMatrix parse_matrix_market(std::istream& in, const std::string& name_for_errors,
                              DuplicatePolicy duplicates = DuplicatePolicy::Sum);

/// @brief Writes `coordinate real general` (or `coordinate pattern general`), 1-based.
///
/// Values are written with enough digits (9 significant) to read back the same floats.
/// A path ending in `.gz` is written gzip-compressed.
/// @param path file to write
/// @param matrix a valid matrix (see validate())
/// @param pattern write positions only, no values
/// @throws std::invalid_argument when @p matrix is not valid
/// @throws std::runtime_error when the file cannot be written
void write_matrix_market(const std::string& path, const CooMatrix& matrix, bool pattern = false);

}  // namespace course
