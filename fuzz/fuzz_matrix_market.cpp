/// @file fuzz_matrix_market.cpp
/// @brief libFuzzer target for the Matrix Market parser (issue "Reliability").
///
/// Feeds arbitrary bytes to course::parse_matrix_market under both duplicate policies. The
/// parser's contract is: return a valid matrix or throw MatrixMarketError. So a finding is
/// any crash, sanitizer report, hang or excessive memory (libFuzzer's -timeout and
/// -rss_limit_mb), any other exception (even a std::exception: the contract names only
/// MatrixMarketError), and any accepted matrix that breaks the promised invariants (indices
/// in range, strictly row-major order, no repeated position, finite values).
/// Build and run it with fuzz/run_fuzz.sh.
#include "common/matrix_market.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>

namespace {

// Reports a broken promise and stops: libFuzzer saves the input as a crash artifact.
[[noreturn]] void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "FINDING: %s: %s\n", what, detail.c_str());
  std::abort();
}

void check_invariants(const course::CooMatrix& matrix) {
  try {
    course::validate(matrix);
  } catch (const std::exception& error) {
    finding("accepted matrix is not valid", error.what());
  }
  for (std::size_t entry = 0; entry < matrix.nnz(); ++entry) {
    if (!std::isfinite(matrix.values[entry])) {
      finding("accepted matrix holds a non-finite value", std::to_string(entry));
    }
    if (entry > 0) {
      const bool increasing = matrix.row_indices[entry - 1] < matrix.row_indices[entry] ||
                              (matrix.row_indices[entry - 1] == matrix.row_indices[entry] &&
                               matrix.col_indices[entry - 1] < matrix.col_indices[entry]);
      if (!increasing) {
        finding("accepted matrix is not strictly row-major", std::to_string(entry));
      }
    }
  }
}

void parse_once(const std::string& text, course::DuplicatePolicy policy) {
  std::istringstream in(text);
  try {
    check_invariants(course::parse_matrix_market(in, "fuzz-input", policy));
  } catch (const course::MatrixMarketError& error) {
    // The documented outcome for bad input; its line is never negative.
    if (error.line() < 0) {
      finding("negative line number", error.what());
    }
  } catch (const std::exception& error) {
    finding("exception other than MatrixMarketError", error.what());
  }
}

}  // namespace

/// @brief libFuzzer entry point: parses one input under both duplicate policies.
/// @param data the input bytes
/// @param size number of bytes
/// @return 0 (libFuzzer's convention for "input processed")
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  parse_once(text, course::DuplicatePolicy::Sum);
  parse_once(text, course::DuplicatePolicy::Error);
  return 0;
}
