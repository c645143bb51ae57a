/// @file memory_estimate.cpp
/// @brief Saturating byte counts, the list of a run's allocations and the memory checks.

#include "common/memory_estimate.hpp"

#include "common/device.hpp"
#include "common/sparse_generators.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace course {

Bytes saturating_add(Bytes a, Bytes b) {
  Bytes sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? kSaturatedBytes : sum;
}

Bytes saturating_multiply(Bytes a, Bytes b) {
  Bytes product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kSaturatedBytes : product;
}

Bytes array_bytes(std::uint64_t count1, std::uint64_t count2, std::uint64_t element_size) {
  return saturating_multiply(saturating_multiply(count1, count2), element_size);
}

std::string describe_bytes(Bytes bytes) {
  return bytes == kSaturatedBytes ? "more than 16 EiB" : format_bytes(bytes);
}

void MemoryEstimate::host(const std::string& what, Bytes bytes) {
  items_.push_back({MemorySide::host, what, bytes});
}

void MemoryEstimate::device(const std::string& what, Bytes bytes) {
  items_.push_back({MemorySide::device, what, bytes});
}

Bytes MemoryEstimate::total(MemorySide side) const {
  Bytes sum = 0;
  for (const Item& item : items_) {
    if (item.side == side) {
      sum = saturating_add(sum, item.bytes);
    }
  }
  return sum;
}

std::string MemoryEstimate::largest(MemorySide side, std::size_t count) const {
  std::vector<const Item*> chosen;
  for (const Item& item : items_) {
    if (item.side == side) {
      chosen.push_back(&item);
    }
  }
  std::stable_sort(chosen.begin(), chosen.end(),
                   [](const Item* left, const Item* right) { return left->bytes > right->bytes; });
  std::string text;
  for (std::size_t index = 0; index < chosen.size() && index < count; ++index) {
    text +=
        (index == 0 ? "" : ", ") + chosen[index]->what + " " + describe_bytes(chosen[index]->bytes);
  }
  return text;
}

void MemoryEstimate::require_fits(MemorySide side, Bytes available, const std::string& limit_name,
                                  const std::string& advice) const {
  const Bytes needed = total(side);
  if (needed <= available) {
    return;
  }
  const char* memory = side == MemorySide::host ? "host" : "device";
  std::ostringstream message;
  message << "not enough " << memory << " memory: this run needs " << describe_bytes(needed)
          << " (largest: " << largest(side, 3) << ") but the " << limit_name << " is "
          << describe_bytes(available) << "; " << advice;
  throw OutOfMemoryError(message.str());
}

Bytes parse_mem_available(std::istream& meminfo) {
  std::string line;
  while (std::getline(meminfo, line)) {
    unsigned long long kilobytes = 0;
    if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kilobytes) == 1) {
      return saturating_multiply(kilobytes, 1024);
    }
  }
  return 0;
}

Bytes available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  const Bytes from_meminfo = meminfo ? parse_mem_available(meminfo) : 0;
  if (from_meminfo > 0) {
    return from_meminfo;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? saturating_multiply(static_cast<Bytes>(pages),
                                                          static_cast<Bytes>(page_size))
                                    : kSaturatedBytes;  // unknown: let the allocations decide
}

void require_host_fits(const MemoryEstimate& estimate, const std::string& advice) {
  estimate.require_fits(MemorySide::host, available_host_memory(),
                        "available host memory (MemAvailable)", advice);
}

void require_device_fits(const MemoryEstimate& estimate, const std::string& advice) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  device_memory(free_bytes, total_bytes);
  estimate.require_fits(MemorySide::device, free_bytes, "free memory of this GPU", advice);
}

void require_memory(const MemoryEstimate& estimate, const std::string& advice) {
  require_host_fits(estimate, advice);
  if (has_cuda_device()) {
    require_device_fits(estimate, advice);
  }
}

namespace {

/// A size of @p sizes as the byte counts take it (negative sizes are refused before).
std::uint64_t size_of(int size) {
  return size < 0 ? 0 : static_cast<std::uint64_t>(size);
}

}  // namespace

MemoryEstimate dense_product_estimate(const ProductSizes& sizes, bool verify) {
  const std::uint64_t rows = size_of(sizes.rows);
  const std::uint64_t inner = size_of(sizes.inner);
  const std::uint64_t cols = size_of(sizes.cols);
  MemoryEstimate estimate;
  const Bytes a = array_bytes(rows, inner, sizeof(float));
  const Bytes b = array_bytes(inner, cols, sizeof(float));
  const Bytes c = array_bytes(rows, cols, sizeof(float));
  estimate.host("A", a);
  estimate.host("B", b);
  estimate.device("A", a);
  estimate.device("B", b);
  estimate.device("C", c);
  if (verify) {
    estimate.host("C copied back", c);
    estimate.host("serial CPU product", c);
    estimate.host("double-precision reference", array_bytes(rows, cols, 2 * sizeof(double)));
  }
  return estimate;
}

MemoryEstimate sampled_product_estimate(const ProductSizes& sizes, std::uint64_t nnz,
                                        SamplingSource source, bool verify) {
  const std::uint64_t rows = size_of(sizes.rows);
  const std::uint64_t inner = size_of(sizes.inner);
  const std::uint64_t cols = size_of(sizes.cols);
  MemoryEstimate estimate;
  constexpr std::uint64_t kHalf = 2;
  const Bytes a = array_bytes(rows, inner, kHalf);
  const Bytes b = array_bytes(cols, inner, kHalf);
  estimate.host("A (rows x inner halves)", a);
  estimate.host("B (cols x inner halves)", b);
  if (source == SamplingSource::random_mask) {
    estimate.host("S drawn at random (positions, sort scratch, COO)", mask_generation_bytes(nnz));
  } else {
    estimate.host("S read from the file (entries and their sorted COO)", array_bytes(nnz, 2, 12));
  }
  estimate.device("A (rows x inner halves)", a);
  estimate.device("B (cols x inner halves)", b);
  estimate.device("S on the device (COO)", array_bytes(nnz, 1, 12));
  estimate.device("P (a float per nonzero)", array_bytes(nnz, 1, sizeof(float)));
  if (verify) {
    estimate.host("P copied back", array_bytes(nnz, 1, sizeof(float)));
    estimate.host("double-precision reference", array_bytes(nnz, 2, sizeof(double)));
  }
  return estimate;
}

}  // namespace course
