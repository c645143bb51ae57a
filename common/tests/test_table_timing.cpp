#include "common/testing/catch2.hpp"

#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

#include <cuda_runtime_api.h>

TEST_CASE("tables print as Markdown and CSV", "[common][table]") {
  course::ResultTable table({"approach", "ms"});
  table.add_row({"tiled, shared", "1.50"});
  table.add_row({"say \"hi\"", "-"});
  CHECK(table.markdown() ==
        "| approach | ms |\n|---|---:|\n| tiled, shared | 1.50 |\n| say \"hi\" | - |\n");
  CHECK(table.csv() == "approach,ms\n\"tiled, shared\",1.50\n\"say \"\"hi\"\"\",-\n");
  CHECK_THROWS_AS(table.add_row({"only one cell"}), std::invalid_argument);
}

TEST_CASE("numbers format with fixed digits and a dash when not measured", "[common][table]") {
  CHECK(course::format_fixed(3.14159, 2) == "3.14");
  CHECK(course::format_optional(std::nullopt, 2) == "-");
  CHECK(course::format_optional(2.0, 1) == "2.0");
  CHECK(course::today_iso().size() == 10u);
}

TEST_CASE("median and summaries of timings", "[common][timing]") {
  CHECK(course::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(course::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK_THROWS_AS(course::median({}), std::invalid_argument);
  const course::TimingStats stats = course::summarize({5.0, 1.0, 9.0});
  CHECK(stats.median_ms == 5.0);
  CHECK(stats.min_ms == 1.0);
  CHECK(stats.max_ms == 9.0);
  CHECK(stats.repeats == 3);
}

TEST_CASE("host timing measures the work it is given", "[common][timing]") {
  int calls = 0;
  const course::TimingStats stats = course::time_host([&calls] { ++calls; }, 2, 5);
  CHECK(calls == 7);
  CHECK(stats.repeats == 5);
  CHECK(stats.min_ms >= 0.0);
}

TEST_CASE("GPU timing measures device work with events", "[common][timing][gpu]") {
  course::DeviceBuffer<float> buffer(std::size_t{1} << 26, "timing test");
  int calls = 0;
  const course::TimingStats stats = course::time_gpu(
      [&] {
        ++calls;
        CUDA_CHECK(cudaMemset(buffer.data(), 0, buffer.bytes()));
      },
      1, 3);
  CHECK(calls == 4);
  CHECK(stats.median_ms > 0.0);
  CHECK(stats.min_ms <= stats.median_ms);
}

// Tagged [api-error]: the sanitizer scripts leave out tests that provoke CUDA errors on purpose.
TEST_CASE("a failing CUDA call names the call and the error",
          "[common][check][gpu][api-error]") {
  void* pointer = nullptr;
  CHECK_THROWS_WITH(CUDA_CHECK(cudaMalloc(&pointer, std::size_t{1} << 62)),
                    Catch::Contains("cudaMalloc") && Catch::Contains("cudaErrorMemoryAllocation"));
  cudaGetLastError();  // clear the error for the next test in this process
}
