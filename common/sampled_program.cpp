/// @file sampled_program.cpp
/// @brief SampledProgram's body: S's options, the memory check, S, the operands and the DEBUG
/// check against the CPU reference.
#include "common/sampled_program.hpp"

#include "common/compare.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "common/matrix_market.hpp"
#include "common/sampled_reference.hpp"
#include "common/sparse_generators.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <iostream>

namespace course {
namespace {

/// Sizes from which the program says what it is doing before long host work: about a second
/// of drawing values or of preprocessing on one core.
constexpr std::uint64_t kLongHostWork = std::uint64_t{1} << 27;

/// Whether work on S or on the dense operands of these sizes takes long enough on the host
/// to say so first.
bool long_host_work(const ProductSizes& sizes, long long nnz) {
  const auto count = [](int value) { return static_cast<std::uint64_t>(value); };
  return count(sizes.rows) * count(sizes.inner) >= kLongHostWork ||
         count(sizes.cols) * count(sizes.inner) >= kLongHostWork ||
         count(sizes.rows) >= kLongHostWork || static_cast<std::uint64_t>(nnz) >= kLongHostWork / 8;
}

/// S as a uniform random mask of exactly @p nnz entries of a rows×cols matrix, from @p seed
/// (the sizes are checked before).
CooMatrix random_sampling(int rows, int cols, long long nnz, std::uint64_t seed,
                          const std::string& program) {
  if (nnz >= 20000000) {
    std::cerr << program << ": drawing " << nnz << " random positions...\n";
  }
  return allocate_on_host(
      "S drawn at random", mask_generation_bytes(static_cast<std::uint64_t>(nnz)),
      [&] { return random_uniform_mask(rows, cols, static_cast<std::size_t>(nnz), seed); });
}

/// A and Bᵀ, drawn on the host.
struct HostOperands {
  HostMatrix<__half> a;             ///< A, rows×inner
  HostMatrix<__half> b_transposed;  ///< Bᵀ, cols×inner
};

/// Draws A and Bᵀ from @p seed (saying so first when @p say).
HostOperands draw_operands(const ProductSizes& sizes, std::uint64_t seed, bool say,
                           const std::string& program) {
  if (say) {
    std::cerr << program << ": drawing A and B (" << sizes.text() << ", fp16) on the host...\n";
  }
  return {random_half_matrix(sizes.rows, sizes.inner, 0, seed),
          random_half_matrix(sizes.cols, sizes.inner, 0, seed + 1)};
}

}  // namespace

void SampledProgram::add_options(ArgParser& parser) {
  parser.add_integer("--rows", &rows_, 1, INT_MAX, "rows of A and C (and of the mask S)");
  parser.add_integer("--cols", &cols_, 1, INT_MAX, "columns of B and C (and of the mask S)");
  parser.add_integer("--inner", &inner_, 1, 1 << 16, "columns of A and rows of B");
  parser.add_integer("--nnz", &nnz_, 0, INT_MAX, "nonzeros of the random mask S");
  parser.add_input_file("--matrix", &matrix_path_, "read S from this .mtx/.mtx.gz instead");
}

void SampledProgram::check_sizes(const ProductSizes& sizes, long long nnz, SamplingSource source,
                                 const RunChoice& choice) const {
  const auto count = [](long long value) { return static_cast<std::uint64_t>(value); };
  MemoryEstimate estimate = sampled_product_estimate(sizes, count(nnz), source, choice.verify);
  // A and Bᵀ are drawn as floats, then rounded to halves (random_half_matrix), one at a time.
  estimate.host(
      "A or B drawn as floats before rounding",
      array_bytes(count(std::max(sizes.rows, sizes.cols)), count(sizes.inner), sizeof(float)));
  // HostSampling: S in CSR (4 B per entry, 4 per row) and the sorted copy coo_to_csr makes
  // on the way (12 B per entry).
  estimate.host("S in CSR for the upload, and its sorted copy (16 B per entry)",
                array_bytes(count(nnz), 1, 16));
  add_approach_needs(choice.approach, sizes, count(nnz), estimate);
  require_memory(estimate, "use a smaller --inner, a smaller S or another approach");
}

void SampledProgram::prepare(const ArgParser& parser, const RunChoice& choice) {
  parser.refuse_together("--matrix", {"--rows", "--cols", "--nnz"},
                         "the file gives S's sizes and entries");
  if (matrix_path_.empty()) {
    if (static_cast<double>(nnz_) > static_cast<double>(rows_) * static_cast<double>(cols_)) {
      throw UsageError("--nnz " + std::to_string(nnz_) +
                       " exceeds rows*cols = " + std::to_string(rows_ * cols_));
    }
    const ProductSizes sizes{static_cast<int>(rows_), static_cast<int>(inner_),
                             static_cast<int>(cols_)};
    check_sizes(sizes, nnz_, SamplingSource::random_mask, choice);
  }
  // Everything about the inputs is checked, and S made, before looking for a GPU.
  give_large_vectors_their_own_pages();  // before S is made, as the benchmark does
  sampling_ = make_sampling(choice, static_cast<std::uint64_t>(choice.seed));
}

CooMatrix SampledProgram::make_sampling(const RunChoice& choice, std::uint64_t seed) const {
  if (matrix_path_.empty()) {
    return random_sampling(static_cast<int>(rows_), static_cast<int>(cols_), nnz_, seed, name());
  }
  const MatrixMarketSize size = read_matrix_market_size(matrix_path_);
  // The size line's rows and cols are at most INT_MAX (read_matrix_market_size refuses more).
  const ProductSizes sizes{static_cast<int>(size.rows), static_cast<int>(inner_),
                           static_cast<int>(size.cols)};
  check_sizes(sizes, size.max_nonzeros(), SamplingSource::file, choice);
  if (size.max_nonzeros() >= 20000000) {
    std::cerr << name() << ": reading up to " << size.max_nonzeros() << " entries of "
              << matrix_path_ << "...\n";
  }
  return allocate_on_host("S read from " + matrix_path_,
                          array_bytes(static_cast<std::uint64_t>(size.max_nonzeros()), 2, 12),
                          [&] { return read_matrix_market(matrix_path_); });
}

CooMatrix SampledProgram::second_random_sampling(const RunChoice& choice) const {
  return make_sampling(choice, static_cast<std::uint64_t>(choice.seed) + 1);
}

MemoryEstimate SampledProgram::memory(const RunChoice& choice) const {
  static_cast<void>(choice);
  return {};
}

int SampledProgram::run(const RunChoice& choice, const GpuDescription& device, std::ostream& out) {
  const auto seed = static_cast<std::uint64_t>(choice.seed);
  const ProductSizes sizes{sampling_.rows, static_cast<int>(inner_), sampling_.cols};
  const bool say = long_host_work(sizes, static_cast<long long>(sampling_.nnz()));
  out << "GPU: " << device.name << "\n"
      << "approach " << choice.approach << " "
      << approach_names().at(static_cast<std::size_t>(choice.approach - 1))
      << ", rows=" << sizes.rows << " cols=" << sizes.cols << " inner=" << sizes.inner
      << " nnz=" << sampling_.nnz() << " seed=" << seed << "\n";

  const HostOperands host = draw_operands(sizes, seed, say, name());
  const DeviceMatrix<__half> device_a(host.a);
  const DeviceMatrix<__half> device_b(host.b_transposed);
  DeviceBuffer<float> output(sampling_.nnz(), "C");
  output.poison();
  // S as every program and the benchmark hold it: CSR, pinned, and a pattern when every value
  // is one.
  const HostSampling host_sampling(sampling_);
  run_approach(choice, {host_sampling, sizes, device_a.data(), device_b.data(), output.data(), say},
               out);
  if (!choice.verify) {
    return 0;
  }
  const SampledReference reference = sddmm_reference(host.a, host.b_transposed, sampling_);
  const CompareResult result =
      compare_sampled(output.to_vector(), reference, sampling_,
                      Tolerance::tensor_core_fp32_accumulation(sizes.inner));
  return report_verification(result, out) ? 0 : 1;
}

}  // namespace course
