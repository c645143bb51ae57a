/// @file square_benchmark.cpp
/// @brief Measurement and table of the square-size benchmark (steps 2 and 3).

#include "common/square_benchmark.hpp"

#include "common/compare.hpp"
#include "common/cpu_reference.hpp"
#include "common/cublas_gemm.hpp"
#include "common/cuda_check.hpp"
#include "common/matrix.hpp"
#include "common/product_sizes.hpp"
#include "common/random_fill.hpp"
#include "common/timing.hpp"

#include <algorithm>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace course {
namespace {

// Exact comparison: with small-integer inputs every correct product is bit-identical.
CompareResult exact_differences(const HostMatrix<float>& got, const HostMatrix<float>& expected) {
  CompareResult result;
  for (int row = 0; row < got.rows(); ++row) {
    for (int col = 0; col < got.cols(); ++col) {
      ++result.checked;
      if (!(got(row, col) == expected(row, col))) {  // NaN from a poisoned element differs
        if (result.first.size() < 5) {
          result.first.push_back({row, col, got(row, col), expected(row, col)});
        }
        ++result.mismatches;
      }
    }
  }
  return result;
}

void require_match(const std::string& name, int size, const HostMatrix<float>& got,
                   const HostMatrix<float>& expected, std::ostream& progress) {
  const CompareResult result = exact_differences(got, expected);
  if (result.ok()) {
    return;
  }
  progress << "wrong answer\n" << name << " at size " << size << ": " << result.summary() << "\n";
  throw std::runtime_error(name + " gave a wrong answer at size " + std::to_string(size) +
                           " (it differs from cuBLAS on small-integer inputs)");
}

// Timing of one GPU method at one size, followed by the check of its result.
void measure_gpu_method(const BenchMethod& method, int size, int repeats,
                        const DeviceMatrix<float>& a, const DeviceMatrix<float>& b,
                        DeviceMatrix<float>& c, const HostMatrix<float>& expected,
                        std::ostream& progress, BenchRow& row) {
  const int runs = runs_for(size, repeats, method.slow);
  // Slow methods skip the warm-up at large sizes; the kernel was loaded at the smaller ones.
  const int warmup = method.slow && size >= 2048 ? 0 : 1;
  progress << "  " << method.name << ": " << runs << " run(s)" << std::flush;
  c.poison();
  const TimingStats timing =
      time_gpu([&] { method.multiply(a.data(), b.data(), c.data(), size); }, warmup, runs);
  progress << ", median " << timing.median_ms << " ms\n";
  require_match(method.name, size, c.to_host(), expected, progress);
  row.median_ms.push_back(timing.median_ms);
  row.runs.push_back(runs);
}

void measure_serial(int size, const BenchSettings& settings, const HostMatrix<float>& a,
                    const HostMatrix<float>& b, const HostMatrix<float>& expected,
                    std::ostream& progress, BenchRow& serial) {
  if (size > settings.serial_max) {
    serial.median_ms.emplace_back();
    serial.runs.push_back(0);
    return;
  }
  const int runs = runs_for(size, settings.repeats, true);
  progress << "  serial CPU: " << runs << " run(s)" << std::flush;
  HostMatrix<float> product(size, size);
  const TimingStats timing = time_host([&] { matmul_serial(a, b, product); }, 0, runs);
  progress << ", median " << timing.median_ms << " ms\n";
  require_match("serial CPU", size, product, expected, progress);
  serial.median_ms.push_back(timing.median_ms);
  serial.runs.push_back(runs);
}

std::string runs_cell(const BenchRow& row) {
  std::string cell;
  for (std::size_t index = 0; index < row.runs.size(); ++index) {
    cell += (index == 0 ? "" : "/") +
            (row.runs[index] == 0 ? std::string("-") : std::to_string(row.runs[index]));
  }
  return cell;
}

std::optional<double> ratio(const std::optional<double>& numerator,
                            const std::optional<double>& denominator) {
  if (!numerator || !denominator || *denominator <= 0.0) {
    return std::nullopt;
  }
  return *numerator / *denominator;
}

std::vector<std::string> table_row(const BenchRow& row, const std::vector<int>& sizes,
                                   const BenchRow& serial, const BenchRow& cublas, bool is_serial) {
  std::vector<std::string> cells{row.name};
  for (const auto& time : row.median_ms) {
    cells.push_back(format_optional(time, 3));
  }
  cells.push_back(is_serial ? "-" : format_optional(speedup_over_serial(serial, row), 2));
  const std::optional<double> largest = row.median_ms.back();
  std::optional<double> tflops;
  if (largest) {
    tflops =
        ProductSizes{sizes.back(), sizes.back(), sizes.back()}.flops() / (*largest * 1e-3) / 1e12;
  }
  cells.push_back(format_optional(tflops, 3));
  const std::optional<double> of_cublas = ratio(cublas.median_ms.back(), largest);
  cells.push_back(
      format_optional(of_cublas ? std::optional<double>(*of_cublas * 100.0) : std::nullopt, 2));
  cells.push_back(runs_cell(row));
  return cells;
}

}  // namespace

int runs_for(int size, int repeats, bool slow) {
  if (!slow) {
    return repeats;
  }
  if (size >= 4096) {
    return 1;
  }
  return std::min(repeats, size >= 2048 ? 2 : 3);
}

std::optional<double> speedup_over_serial(const BenchRow& serial, const BenchRow& method) {
  const std::size_t count = std::min(serial.median_ms.size(), method.median_ms.size());
  if (count < 2) {
    return std::nullopt;
  }
  double sum = 0.0;
  for (std::size_t index = count - 2; index < count; ++index) {
    const std::optional<double> speedup = ratio(serial.median_ms[index], method.median_ms[index]);
    if (!speedup) {
      return std::nullopt;
    }
    sum += *speedup;
  }
  return sum / 2.0;
}

std::string size_label(int size) {
  for (int exponent = 0; exponent < 31; ++exponent) {
    if (size == (1 << exponent)) {
      return "2^" + std::to_string(exponent) + " (ms)";
    }
  }
  return std::to_string(size) + " (ms)";
}

ResultTable make_table(const std::vector<int>& sizes, const BenchRow& serial,
                       const std::vector<BenchRow>& gpu_rows) {
  if (sizes.empty() || gpu_rows.empty()) {
    throw std::invalid_argument("a benchmark table needs at least one size and one GPU row");
  }
  std::vector<std::string> headers{"method"};
  for (int size : sizes) {
    headers.push_back(size_label(size));
  }
  const std::string largest = size_label(sizes.back());
  const std::string largest_size = largest.substr(0, largest.find(' '));
  headers.push_back("speedup vs serial");
  headers.push_back("TFLOP/s at " + largest_size);
  headers.push_back("% of cuBLAS at " + largest_size);
  headers.push_back("runs");
  ResultTable table(headers);
  const BenchRow& cublas = gpu_rows.back();
  table.add_row(table_row(serial, sizes, serial, cublas, true));
  for (const BenchRow& row : gpu_rows) {
    table.add_row(table_row(row, sizes, serial, cublas, false));
  }
  return table;
}

std::vector<BenchRow> measure(const std::vector<BenchMethod>& methods,
                              const BenchSettings& settings, std::ostream& progress,
                              BenchRow& serial) {
  serial = BenchRow{"serial CPU", {}, {}};
  std::vector<BenchRow> rows;
  for (const BenchMethod& method : methods) {
    rows.push_back({method.name, {}, {}});
  }
  rows.push_back({"cuBLAS SGEMM (fp32)", {}, {}});
  CublasSgemm cublas;
  for (int size : settings.sizes) {
    progress << "size " << size << "x" << size << ":\n";
    HostMatrix<float> a(size, size);
    HostMatrix<float> b(size, size);
    // Small integers make every partial sum exact (|sum| <= 16 * size < 2^24), so all
    // methods must agree with cuBLAS bit for bit, whatever their summation order.
    fill_small_integers(a, settings.seed);
    fill_small_integers(b, settings.seed + 1);
    const DeviceMatrix<float> device_a(a);
    const DeviceMatrix<float> device_b(b);
    DeviceMatrix<float> device_c(size, size, 0, "C");

    progress << "  cuBLAS: " << settings.repeats << " run(s)" << std::flush;
    device_c.poison();
    const TimingStats cublas_timing = time_gpu(
        [&] {
          cublas.multiply(device_a.data(), device_b.data(), device_c.data(), size, size, size);
        },
        2, settings.repeats);
    progress << ", median " << cublas_timing.median_ms << " ms\n";
    const HostMatrix<float> expected = device_c.to_host();
    rows.back().median_ms.push_back(cublas_timing.median_ms);
    rows.back().runs.push_back(settings.repeats);

    for (std::size_t index = 0; index < methods.size(); ++index) {
      measure_gpu_method(methods[index], size, settings.repeats, device_a, device_b, device_c,
                         expected, progress, rows[index]);
    }
    measure_serial(size, settings, a, b, expected, progress, serial);
  }
  return rows;
}

int run_square_benchmark(const std::string& title, const std::vector<BenchMethod>& methods,
                         const BenchSettings& settings, const std::string& csv_path,
                         std::ostream& out, std::ostream& progress) {
  BenchRow serial;
  const std::vector<BenchRow> rows = measure(methods, settings, progress, serial);
  const ResultTable table = make_table(settings.sizes, serial, rows);
  out << benchmark_header() << "\n\n" << title << "\n\n" << table.markdown() << "\n";
  out << "Times are medians in milliseconds over the runs given per size in `runs`; \"-\" "
         "is not measured. Speedup vs serial: mean of serial time / time at the two largest "
         "sizes, as in the note (needs the serial product at both; see --serial-max). Every "
         "result was checked against cuBLAS on small-integer inputs (bit-exact), drawn with seed "
      << settings.seed << " (--seed " << settings.seed << " draws them again).\n";
  if (!csv_path.empty()) {
    table.write_csv(csv_path);
    out << "CSV written to " << csv_path << "\n";
  }
  return 0;
}

}  // namespace course
