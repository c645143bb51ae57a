#include "common/testing/catch2.hpp"

#include "common/matrix.hpp"
#include "common/random_fill.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

TEST_CASE("host matrices are row-major with a leading dimension", "[common][buffers]") {
  course::HostMatrix<float> matrix(3, 4, 6);
  CHECK(matrix.rows() == 3);
  CHECK(matrix.cols() == 4);
  CHECK(matrix.ld() == 6);
  CHECK(matrix.size() == 18u);
  matrix(2, 3) = 5.0f;
  CHECK(matrix.data()[2 * 6 + 3] == 5.0f);
  CHECK(course::HostMatrix<float>(3, 4).ld() == 4);
}

TEST_CASE("bad matrix shapes are refused with the shape in the message", "[common][buffers]") {
  CHECK_THROWS_WITH(course::HostMatrix<float>(-1, 4), Catch::Contains("rows=-1"));
  CHECK_THROWS_WITH(course::HostMatrix<float>(2, 4, 3), Catch::Contains("ld >= cols"));
}

TEST_CASE("an empty device buffer allocates nothing", "[common][buffers]") {
  course::DeviceBuffer<float> empty;
  CHECK(empty.data() == nullptr);
  CHECK(empty.size() == 0u);
  course::DeviceBuffer<float> zero(0);
  CHECK(zero.data() == nullptr);
}

TEST_CASE("device buffers round-trip data and poison to NaN", "[common][buffers][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::HostMatrix<float> host(37, 19);
  course::fill_uniform(host, seed);
  course::DeviceMatrix<float> device(host);
  const course::HostMatrix<float> back = device.to_host();
  REQUIRE(back.size() == host.size());
  CHECK(std::memcmp(back.data(), host.data(), host.size() * sizeof(float)) == 0);

  device.poison();
  const course::HostMatrix<float> poisoned = device.to_host();
  for (std::size_t index = 0; index < poisoned.size(); ++index) {
    REQUIRE(std::isnan(poisoned.data()[index]));
  }
}

TEST_CASE("device buffers move ownership and refuse oversized copies", "[common][buffers][gpu]") {
  course::DeviceBuffer<int> first(16, "test buffer");
  int* const pointer = first.data();
  course::DeviceBuffer<int> second(std::move(first));
  CHECK(second.data() == pointer);
  CHECK(first.data() == nullptr);
  std::vector<int> too_many(17, 1);
  CHECK_THROWS_AS(second.upload(too_many), std::out_of_range);
}

TEST_CASE("an allocation larger than the GPU is refused with needed and free bytes",
          "[common][buffers][gpu]") {
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 8;
  try {
    course::DeviceBuffer<float> buffer(huge, "an impossible matrix");
    FAIL("allocation did not throw");
  } catch (const course::DeviceMemoryError& error) {
    const std::string message = error.what();
    CHECK(message.find("an impossible matrix") != std::string::npos);
    CHECK(message.find("are free") != std::string::npos);
  }
}

TEST_CASE("pooled device buffers round-trip data and move with their source",
          "[common][buffers][gpu]") {
  const std::uint64_t seed = course::fresh_seed();
  INFO("seed " << seed);
  course::HostMatrix<float> host(29, 7);
  course::fill_uniform(host, seed);
  std::vector<float> values(host.data(), host.data() + host.size());
  course::DeviceBuffer<float> pooled(values.size(), "pooled test buffer",
                                     course::DeviceMemorySource::stream_pool);
  CHECK(pooled.source() == course::DeviceMemorySource::stream_pool);
  pooled.upload(values);
  course::DeviceBuffer<float> moved;
  moved = std::move(pooled);
  CHECK(pooled.data() == nullptr);
  CHECK(moved.source() == course::DeviceMemorySource::stream_pool);
  CHECK(moved.to_vector() == values);
  CHECK(moved.at<float>(2 * sizeof(float)) == moved.data() + 2);
}

TEST_CASE("a pooled allocation larger than the GPU names what it was for",
          "[common][buffers][gpu]") {
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 8;
  CHECK_THROWS_WITH(
      course::DeviceBuffer<float>(huge, "an impossible pooled matrix",
                                  course::DeviceMemorySource::stream_pool),
      Catch::Contains("an impossible pooled matrix") && Catch::Contains("stream-ordered pool"));
  course::DeviceBuffer<float> after(4, "a buffer after the refusal");  // later calls still work
  CHECK(after.data() != nullptr);
}

TEST_CASE("device query reports the GPU or explains that there is none", "[common][device]") {
  if (course::has_cuda_device()) {
    const course::GpuDescription info = course::require_cuda_device();
    CHECK_FALSE(info.name.empty());
    CHECK(info.major >= 1);
    CHECK_THROWS_WITH(course::require_cuda_device(99, 0, "a future feature"),
                      Catch::Contains("needs 99.0 or newer"));
  } else {
    CHECK_THROWS_WITH(course::require_cuda_device(), Catch::Contains("no CUDA-capable GPU"));
    CHECK(course::gpu_name() == "no GPU");
  }
}
