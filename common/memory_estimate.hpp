/// @file memory_estimate.hpp
/// @brief What a run will allocate, worked out from its sizes before anything is allocated,
/// and the refusal of a run that cannot fit in the host's or the device's memory.
///
/// A program lists its allocations (inputs, outputs, CSR/COO arrays, workspaces, the DEBUG
/// reference) in a MemoryEstimate, then calls require_host_fits() before it allocates or
/// generates anything (this works on a machine without a GPU) and require_device_fits()
/// once it has a device. A refusal names the largest items, the total, the limit and what
/// to change. Sizes come from the command line or a file's size line, so every product is
/// computed with saturating arithmetic: a request beyond 2^64 bytes reads "more than 16 EiB"
/// and is refused, never wrapped round to a small number.
#pragma once

#include "common/product_sizes.hpp"

#include <cstdint>
#include <istream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

/// @brief A byte count; kSaturatedBytes stands for "2^64 bytes or more".
using Bytes = std::uint64_t;

/// @brief The largest Bytes value, the result of any product or sum that overflows.
constexpr Bytes kSaturatedBytes = UINT64_MAX;

/// @brief @p a + @p b, or kSaturatedBytes when the sum does not fit 64 bits.
/// @param a first term
/// @param b second term
/// @return the saturated sum
Bytes saturating_add(Bytes a, Bytes b);

/// @brief @p a × @p b, or kSaturatedBytes when the product does not fit 64 bits.
/// @param a first factor
/// @param b second factor
/// @return the saturated product
Bytes saturating_multiply(Bytes a, Bytes b);

/// @brief Bytes of @p count1 × @p count2 elements of @p element_size bytes, saturated.
/// @param count1 first count (e.g. rows)
/// @param count2 second count (e.g. columns; 1 for a vector)
/// @param element_size bytes per element
/// @return the saturated byte count
Bytes array_bytes(std::uint64_t count1, std::uint64_t count2, std::uint64_t element_size);

/// @brief A byte count for people: format_bytes() ("512 B", "1.50 GiB", "238.42 TiB"), or
/// "more than 16 EiB" for a saturated count.
/// @param bytes the count
/// @return the text
std::string describe_bytes(Bytes bytes);

/// @brief Thrown when a run would not fit (or an allocation failed): "not enough host
/// memory for A (needs 244 TiB) ...". run_program turns it into exit status 1.
class OutOfMemoryError : public std::runtime_error {
 public:
  /// @brief Builds the error.
  /// @param message what does not fit, its size, the limit and what to change
  explicit OutOfMemoryError(const std::string& message) : std::runtime_error(message) {}
};

/// @brief Runs @p make, which allocates @p bytes of host memory for @p what; a
/// std::bad_alloc it throws (the estimate passed, but the system still refused, e.g. under a
/// memory limit) becomes OutOfMemoryError "not enough host memory for WHAT (needs N)".
/// @tparam Make a callable that returns the allocated object
/// @param what what is allocated, for the message
/// @param bytes how much, for the message
/// @param make the allocation
/// @return what @p make returns
template <typename Make>
auto allocate_on_host(const std::string& what, std::uint64_t bytes, Make&& make)
    -> decltype(make()) {
  try {
    return make();
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("not enough host memory for " + what + " (needs " +
                           describe_bytes(bytes) + "); use smaller sizes");
  }
}

/// @brief Where an allocation lives.
enum class MemorySide {
  host,   ///< host (CPU) memory
  device  ///< GPU memory
};

/// @brief The list of allocations a run will make, with their sizes.
class MemoryEstimate {
 public:
  /// @brief One allocation.
  struct Item {
    MemorySide side;   ///< host or device
    std::string what;  ///< its name in messages, e.g. "A (rows x inner halves)"
    Bytes bytes;       ///< its size (saturated)
  };

  /// @brief Adds a host allocation.
  /// @param what its name in messages
  /// @param bytes its size
  void host(const std::string& what, Bytes bytes);

  /// @brief Adds a device allocation.
  /// @param what its name in messages
  /// @param bytes its size
  void device(const std::string& what, Bytes bytes);

  /// @brief The sum of one side's items, saturated.
  /// @param side host or device
  /// @return the total
  Bytes total(MemorySide side) const;

  /// @brief The @p count largest items of one side, largest first: "A 244 TiB, C 16 GiB".
  /// @param side host or device
  /// @param count how many to name
  /// @return the list, empty when the side has no item
  std::string largest(MemorySide side, std::size_t count) const;

  /// @brief Every item, in the order they were added.
  /// @return the items
  const std::vector<Item>& items() const { return items_; }

  /// @brief Throws OutOfMemoryError when one side's total exceeds @p available.
  /// @param side host or device
  /// @param available bytes the machine can give
  /// @param limit_name what @p available is, e.g. "available host memory (MemAvailable)"
  /// @param advice what to change, e.g. "use a smaller --k or --m"
  void require_fits(MemorySide side, Bytes available, const std::string& limit_name,
                    const std::string& advice) const;

 private:
  std::vector<Item> items_;
};

/// @brief Reads MemAvailable (in kB) from the text of /proc/meminfo.
/// @param meminfo the file's text
/// @return bytes available, or 0 when the line is missing
Bytes parse_mem_available(std::istream& meminfo);

/// @brief The physical host memory available now: /proc/meminfo's MemAvailable, or the free
/// pages that sysconf reports where that file does not exist.
/// @return bytes
Bytes available_host_memory();

/// @brief Refuses the run (OutOfMemoryError) when its host items exceed available_host_memory().
/// Call it before allocating or generating anything; it needs no GPU.
/// @param estimate the run's allocations
/// @param advice what to change
void require_host_fits(const MemoryEstimate& estimate, const std::string& advice);

/// @brief Refuses the run when its device items exceed the current device's free memory
/// (cudaMemGetInfo). Call it after the device check, before the first device allocation.
/// @param estimate the run's allocations
/// @param advice what to change
void require_device_fits(const MemoryEstimate& estimate, const std::string& advice);

/// @brief require_host_fits(), then require_device_fits() when there is a GPU: a program calls
/// it after parsing, before it looks for a GPU, so the host check also runs without one.
/// @param estimate the run's allocations
/// @param advice what to change
void require_memory(const MemoryEstimate& estimate, const std::string& advice);

/// @brief The allocations of a dense product C = A·B of floats as the step programs make it:
/// A and B on the host and on the device, C on the device, and (with @p verify) the DEBUG
/// check's copy of C, its serial product and the double-precision reference.
/// @param sizes rows, inner and cols of the product (a ProductSizes, so that the sizes cannot
/// be passed in another order)
/// @param verify whether the DEBUG check runs
/// @return the estimate
MemoryEstimate dense_product_estimate(const ProductSizes& sizes, bool verify);

/// @brief Where the sparse matrix S of an SDDMM comes from, for its host memory.
enum class SamplingSource {
  random_mask,  ///< drawn by random_uniform_mask (positions, radix-sort scratch, the COO)
  file          ///< read from a Matrix Market file (the entries and their sorted copy)
};

/// @brief The allocations of an SDDMM C = S ∘ (A·B) as step 5 makes it: A (rows×inner) and
/// Bᵀ (cols×inner) in half precision on the host and the device, S on the host (as @p source
/// makes it) and on the device (COO, 12 B per nonzero), C on the device (a float per nonzero)
/// and, with @p verify, C copied back and the double-precision reference (value and magnitude).
/// An approach's own workspace is added by the caller.
/// @param sizes rows (of S and A), inner (columns of A and Bᵀ) and cols (of S, rows of Bᵀ), as
/// a ProductSizes like every dense product's
/// @param nnz nonzeros of S (for a symmetric file: the bound after expansion)
/// @param source where S comes from
/// @param verify whether the DEBUG check runs
/// @return the estimate
MemoryEstimate sampled_product_estimate(const ProductSizes& sizes, std::uint64_t nnz,
                                        SamplingSource source, bool verify);

}  // namespace course
