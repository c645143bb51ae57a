/// @file host_sampling.hpp
/// @brief HostSampling: the sampling matrix S of a sampled product (step 5's SDDMM) in CSR,
/// page-locked while it lives, with the one answer to "is S a pattern?" (pattern_values_of)
/// that the programs, the benchmark and the tests share.
///
/// A pattern S (every value one: a Matrix Market `pattern` file, an attention mask) uploads
/// no values and step 5's approach 4 reads none; a valued S uploads them and every kernel
/// multiplies by them. Deciding this in one place is what makes the benchmark measure the path
/// a user's program takes.
#pragma once

#include "common/sparse_matrix.hpp"

#include <cstddef>
#include <vector>

namespace course {

/// @brief Whether S's values go to the device (step 5's DevicePattern takes it).
enum class PatternValues {
  upload,   ///< the matrix's values vector is uploaded
  all_ones  ///< S is a pattern matrix: the values vector is ignored and ones are written
};

/// @brief Whether S is a pattern: every value exactly one (a Matrix Market `pattern` file is
/// read as ones; a file whose duplicates were summed to 2 is not one). An empty S is a pattern.
/// @param values S's values
/// @return PatternValues::all_ones for a pattern, else PatternValues::upload
PatternValues pattern_values_of(const std::vector<float>& values);

/// @brief The name of @p values for a program's output: "pattern" or "values".
/// @param values what pattern_values_of said
/// @return the word
const char* pattern_values_name(PatternValues values);

/// @brief Makes every later host allocation of 64 KiB or more take its own pages (glibc's
/// mmap threshold), so that pinning one of S's vectors never overlaps another's pages (a
/// second cudaHostRegister of a shared page fails, and that upload would run from pageable
/// memory). The programs and the benchmark call it once, before making S.
void give_large_vectors_their_own_pages();

/// @brief S on the host as every program uploads it: CSR (4 bytes per entry and 4 per row on
/// the bus, where COO takes 12 per entry), its vectors page-locked (cudaHostRegister) so that
/// the upload runs at the bus's speed, and whether it is a pattern. Made once per S; each
/// upload() is a DevicePattern.
class HostSampling {
 public:
  /// @brief Converts @p matrix (valid, any order) to CSR, decides pattern or values, and pins
  /// the vectors of 1 MiB or more (smaller ones upload as fast from pageable memory); a note
  /// on stderr when pinning fails: uploads still work, more slowly.
  /// Throws std::invalid_argument for an invalid matrix or more than INT_MAX entries.
  /// @param matrix S
  explicit HostSampling(const CooMatrix& matrix);
  ~HostSampling();
  HostSampling(const HostSampling&) = delete;
  HostSampling& operator=(const HostSampling&) = delete;

  /// @brief S in CSR, sorted row-major (the order of C).
  const CsrMatrix& csr() const { return csr_; }
  /// @brief Pattern or values (pattern_values_of).
  PatternValues values() const { return values_; }
  /// @brief Whether S is a pattern.
  bool pattern() const { return values_ == PatternValues::all_ones; }

 private:
  CsrMatrix csr_;
  PatternValues values_ = PatternValues::upload;
  std::vector<void*> pinned_;  ///< the vectors' memory that cudaHostRegister pinned
  /// Pins @p bytes at @p data, or says why not.
  void pin(const void* data, std::size_t bytes);
};

}  // namespace course
