#include "common/testing/catch2.hpp"

#include "common/memory_estimate.hpp"

#include <cstdint>
#include <sstream>
#include <new>
#include <string>
#include <vector>

TEST_CASE("saturating arithmetic stops at 2^64 - 1 instead of wrapping", "[common][memory]") {
  CHECK(course::saturating_add(2, 3) == 5u);
  CHECK(course::saturating_add(course::kSaturatedBytes - 1, 1) == course::kSaturatedBytes);
  CHECK(course::saturating_add(course::kSaturatedBytes, 5) == course::kSaturatedBytes);
  CHECK(course::saturating_multiply(1ull << 32, (1ull << 32) - 1) == 0xFFFFFFFF00000000ull);
  CHECK(course::saturating_multiply(1ull << 32, 1ull << 32) == course::kSaturatedBytes);
  CHECK(course::saturating_multiply(0, course::kSaturatedBytes) == 0u);
  // 2e9 x 2e9 halves: 8e18 bytes still fit; 2e9 x 2e9 doubles (3.2e19) do not.
  CHECK(course::array_bytes(2000000000, 2000000000, 2) == 8000000000000000000ull);
  CHECK(course::array_bytes(2000000000, 2000000000, 8) == course::kSaturatedBytes);
}

TEST_CASE("byte counts read as people write them", "[common][memory]") {
  CHECK(course::describe_bytes(512) == "512 B");
  CHECK(course::describe_bytes(1536) == "1.50 KiB");
  CHECK(course::describe_bytes(3ull << 30) == "3.00 GiB");
  CHECK(course::describe_bytes(244ull << 40) == "244.00 TiB");
  CHECK(course::describe_bytes(course::kSaturatedBytes) == "more than 16 EiB");
}

TEST_CASE("the dense product estimate gives known bytes for known sizes", "[common][memory]") {
  const course::MemoryEstimate plain = course::dense_product_estimate({100, 200, 300}, false);
  CHECK(plain.total(course::MemorySide::host) == (100u * 200 + 200u * 300) * 4);
  CHECK(plain.total(course::MemorySide::device) == (100u * 200 + 200u * 300 + 100u * 300) * 4);
  const course::MemoryEstimate checked = course::dense_product_estimate({100, 200, 300}, true);
  // The check adds C copied back and the serial product (floats) and value + magnitude
  // of the double reference.
  CHECK(checked.total(course::MemorySide::host) ==
        (100u * 200 + 200u * 300) * 4 + 100u * 300 * (4 + 4 + 16));
  CHECK(checked.largest(course::MemorySide::host, 2) ==
        "double-precision reference 468.75 KiB, B 234.38 KiB");
}

TEST_CASE("a run that does not fit is refused with its largest items and total and limit",
          "[common][memory]") {
  course::MemoryEstimate estimate;
  estimate.host("A (rows x inner halves)", course::array_bytes(2000000000, 65536, 2));
  estimate.host("S values", 4);
  estimate.device("A", 1 << 20);
  CHECK_NOTHROW(estimate.require_fits(course::MemorySide::device, 1 << 20, "free", "x"));
  try {
    estimate.require_fits(course::MemorySide::host, 16ull << 30, "available host memory",
                          "use a smaller --k or --m");
    FAIL("an oversized run was accepted");
  } catch (const course::OutOfMemoryError& error) {
    const std::string message = error.what();
    CHECK(message.find("not enough host memory") != std::string::npos);
    CHECK(message.find("needs 238.42 TiB") != std::string::npos);
    CHECK(message.find("A (rows x inner halves) 238.42 TiB, S values 4 B") != std::string::npos);
    CHECK(message.find("available host memory is 16.00 GiB") != std::string::npos);
    CHECK(message.find("use a smaller --k or --m") != std::string::npos);
  }
  estimate.host("everything else", course::kSaturatedBytes);
  CHECK_THROWS_WITH(
      estimate.require_fits(course::MemorySide::host, course::kSaturatedBytes - 1, "limit", "x"),
      Catch::Contains("more than 16 EiB"));
}

TEST_CASE("a refused host allocation is named with its size", "[common][memory]") {
  CHECK(course::allocate_on_host("a vector", 8, [] { return std::vector<int>{1, 2}; }).size() == 2);
  CHECK_THROWS_WITH(course::allocate_on_host("S drawn at random", 56ull << 30,
                                             []() -> int { throw std::bad_alloc(); }),
                    Catch::Equals("not enough host memory for S drawn at random (needs 56.00 GiB); "
                                  "use smaller sizes"));
}

TEST_CASE("MemAvailable is read from /proc/meminfo's text", "[common][memory]") {
  std::istringstream meminfo(
      "MemTotal:       24000000 kB\nMemFree:  100 kB\n"
      "MemAvailable:   20000000 kB\nBuffers: 1 kB\n");
  CHECK(course::parse_mem_available(meminfo) == 20000000ull * 1024);
  std::istringstream missing("MemTotal: 5 kB\n");
  CHECK(course::parse_mem_available(missing) == 0u);
  CHECK(course::available_host_memory() > 0u);
}

TEST_CASE("an oversized run is refused on the real device by name before any allocation",
          "[common][memory][gpu]") {
  // The case: A of rows x inner halves with rows = 2e9 and inner = 65536.
  course::MemoryEstimate estimate;
  estimate.device("A (rows x inner halves)", course::array_bytes(2000000000, 65536, 2));
  estimate.device("P", 4);
  CHECK_THROWS_WITH(course::require_device_fits(estimate, "use a smaller --k or --m"),
                    Catch::Contains("not enough device memory") &&
                        Catch::Contains("A (rows x inner halves) 238.42 TiB") &&
                        Catch::Contains("free memory of this GPU"));
  // require_memory runs both checks on a machine with a GPU.
  CHECK_THROWS_AS(course::require_memory(estimate, "x"), course::OutOfMemoryError);
  // A small run fits.
  CHECK_NOTHROW(course::require_memory(course::dense_product_estimate({64, 64, 64}, true), "x"));
}

TEST_CASE("the SDDMM estimate gives known bytes and names A for the issue's sizes",
          "[common][memory]") {
  const course::MemoryEstimate small = course::sampled_product_estimate(
      {1000, 64, 2000}, 5000, course::SamplingSource::random_mask, true);
  // A and B in halves, the mask's 28 B per nonzero, P copied back and two doubles per nonzero.
  CHECK(small.total(course::MemorySide::host) ==
        1000u * 64 * 2 + 2000u * 64 * 2 + 5000u * 28 + 5000u * 4 + 5000u * 16);
  CHECK(small.total(course::MemorySide::device) ==
        1000u * 64 * 2 + 2000u * 64 * 2 + 5000u * 12 + 5000u * 4);
  // --rows 2000000000 --cols 2 --inner 65536: A alone is 2e9 x 65536 halves, 238 TiB.
  const course::MemoryEstimate huge = course::sampled_product_estimate(
      {2000000000, 65536, 2}, 1, course::SamplingSource::random_mask, false);
  CHECK(huge.largest(course::MemorySide::host, 1) == "A (rows x inner halves) 238.42 TiB");
  const course::MemoryEstimate file =
      course::sampled_product_estimate({10, 8, 10}, 100, course::SamplingSource::file, false);
  CHECK(file.largest(course::MemorySide::host, 1) ==
        "S read from the file (entries and their sorted COO) 2.34 KiB");
}
