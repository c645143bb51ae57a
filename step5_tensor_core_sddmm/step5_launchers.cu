/// @file step5_launchers.cu
/// @brief Host side of step 5: argument checks, preprocessing plans and launch configurations.
#include "step5_launchers.hpp"

#include "common/cuda_check.hpp"
#include "common/device.hpp"
#include "common/matrix.hpp"
#include "csr_pattern_upload.cuh"
#include "device_utilities.cuh"
#include "sddmm_dense_wmma.cuh"
#include "sddmm_dense_panels.cuh"
#include "sddmm_hybrid.cuh"
#include "tile_grouping.hpp"
#include "upload_resources.hpp"

// The kernels a student writes, named with their step folder so that COURSE_KERNELS can
// swap them (course_add_kernel_library in cmake/Course.cmake).
#include "step5_tensor_core_sddmm/sddmm_tile_grouped.cuh"
#include "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>
#include <vector>
#include <sstream>
#include <stdexcept>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace step5 {
namespace {

constexpr int kThreadsPerBlock = 256;
constexpr int kTileGroupedWarps = 4;  // 128 threads: many small blocks (the note's lesson)
constexpr int kPanelThreads = 256;    // dense_panel_kernel's 8 warps
constexpr int kMaxGridY = 65535;

unsigned blocks_for(std::int64_t threads, int per_block) {
  const std::int64_t blocks = (threads + per_block - 1) / per_block;
  if (blocks > INT_MAX) {
    throw std::invalid_argument("launch needs " + std::to_string(blocks) +
                                " blocks, more than the grid limit of " + std::to_string(INT_MAX));
  }
  return static_cast<unsigned>(blocks < 1 ? 1 : blocks);
}

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// Entries up to which DevicePattern checks S on the host: a pass over a few thousand
/// entries costs less than a kernel launch plus a read-back.
constexpr std::int64_t kHostCheckLimit = 4096;

std::size_t align_bytes(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}

}  // namespace

void keep_pool_memory() {
  static std::once_flag once;
  std::call_once(once, [] {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaMemPool_t pool = nullptr;
    CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = UINT64_MAX;
    CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  });
}

/// @brief Device bytes from the default stream-ordered pool (cudaMallocAsync on the default
/// stream), freed back to the pool when destroyed: repeated plans allocate no new memory.
class PooledBytes {
 public:
  /// @brief Nothing allocated.
  PooledBytes() = default;
  /// @brief Allocates @p bytes; throws course::DeviceMemoryError naming @p what.
  /// @param bytes size
  /// @param what what the memory is for
  PooledBytes(std::size_t bytes, const std::string& what) : bytes_(bytes) {
    if (bytes == 0) {
      return;
    }
    keep_pool_memory();
    const cudaError_t status = cudaMallocAsync(&data_, bytes, nullptr);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the error so later calls work
      data_ = nullptr;
      throw course::DeviceMemoryError("cannot allocate " + course::format_bytes(bytes) + " for " +
                                      what + ": " + cudaGetErrorString(status));
    }
  }
  /// @brief Frees the memory into the pool (stream-ordered).
  ~PooledBytes() {
    if (data_ != nullptr) {
      cudaFreeAsync(data_, nullptr);  // no check: destructors must not throw
    }
  }
  PooledBytes(const PooledBytes&) = delete;
  PooledBytes& operator=(const PooledBytes&) = delete;
  /// @brief Takes over @p other's memory.
  /// @param other the source, left empty
  PooledBytes(PooledBytes&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  /// @brief Swaps with @p other (its old memory is freed with it).
  /// @param other the source
  /// @return this
  PooledBytes& operator=(PooledBytes&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
    return *this;
  }
  /// @brief The memory at @p byte_offset, as @p T.
  /// @tparam T element type
  /// @param byte_offset offset in bytes
  /// @return device pointer
  template <typename T>
  T* at(std::size_t byte_offset) const {
    return reinterpret_cast<T*>(static_cast<unsigned char*>(data_) + byte_offset);
  }
  /// @brief Bytes held.
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

namespace {

// ---- approach 1 ---------------------------------------------------------------------
void launch_warp_per_nonzero(const DenseOperands& operands, const DevicePattern& pattern,
                             float* output) {
  constexpr int kWarpsPerBlock = kThreadsPerBlock / 32;
  const unsigned blocks = blocks_for(pattern.nnz(), kWarpsPerBlock);
  sddmm_warp_per_nonzero_kernel<<<blocks, kThreadsPerBlock>>>(
      operands, pattern.nnz(), pattern.row_indices(), pattern.col_indices(), pattern.values(),
      output);
  CUDA_CHECK_LAUNCH(sddmm_warp_per_nonzero_kernel);
}

// ---- approach 2 ---------------------------------------------------------------------
template <int kWarpsX, int kWarpsY>
void launch_dense_shape(const DenseOperands& operands, float* dense, int ld_dense) {
  const int tile_cols = (operands.cols + kTile - 1) / kTile;
  const int tile_rows = (operands.rows + kTile - 1) / kTile;
  const dim3 block(32 * kWarpsX, kWarpsY);
  const dim3 grid((tile_cols + kWarpsX - 1) / kWarpsX, (tile_rows + kWarpsY - 1) / kWarpsY);
  if (grid.y > static_cast<unsigned>(kMaxGridY)) {
    throw std::invalid_argument("approach 2 needs " + std::to_string(grid.y) +
                                " blocks along the rows, more than the limit " +
                                std::to_string(kMaxGridY));
  }
  dense_wmma_kernel<kWarpsX, kWarpsY>
      <<<grid, block>>>(operands, dense, ld_dense, allows_vector_loads(operands.a, operands.lda),
                        allows_vector_loads(operands.b_transposed, operands.ldb));
  CUDA_CHECK_LAUNCH(dense_wmma_kernel);
}

void launch_dense(const Options& options, const DenseOperands& operands, float* dense,
                  int ld_dense) {
  const int x = options.dense_warps_x;
  const int y = options.dense_warps_y;
  if (x == 4 && y == 4) {
    launch_dense_shape<4, 4>(operands, dense, ld_dense);
  } else if (x == 1 && y == 32) {
    launch_dense_shape<1, 32>(operands, dense, ld_dense);
  } else if (x == 2 && y == 8) {
    launch_dense_shape<2, 8>(operands, dense, ld_dense);
  } else if (x == 8 && y == 2) {
    launch_dense_shape<8, 2>(operands, dense, ld_dense);
  } else if (x == 4 && y == 1) {
    launch_dense_shape<4, 1>(operands, dense, ld_dense);
  } else {
    throw std::invalid_argument("approach 2 block of " + std::to_string(x) + "x" +
                                std::to_string(y) +
                                " warps is not built; choose 4x4 (128x4 threads), 1x32 "
                                "(32x32), 2x8, 8x2 or 4x1");
  }
}

// ---- approach 4 ---------------------------------------------------------------------
/// Runs of nonzeros per block of the lane-group kernel when the options leave it open: as
/// many as keep at least kMinWaves full waves of blocks (counted as 8 blocks of 256 threads
/// per SM, the most an SM holds; the K = 256 kernel's 40 registers let 6 in),
/// so that the last, partly filled wave stays a small part of the time; at most 8.
int automatic_lane_iterations(std::int64_t blocks_for_one_run) {
  constexpr int kResidentBlocks = 8;
  constexpr int kMinWaves = 4;
  constexpr int kMostIterations = 8;
  static const int sm_count = [] {
    int device = 0;
    int count = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const std::int64_t iterations =
      blocks_for_one_run / (static_cast<std::int64_t>(sm_count) * kResidentBlocks * kMinWaves);
  return static_cast<int>(std::clamp<std::int64_t>(iterations, 1, kMostIterations));
}

/// S's values as approach 4's kernels take them: nullptr when they are all one, and then
/// the kernels read none.
const float* approach4_values(const DevicePattern& pattern) {
  return pattern.unit_values() ? nullptr : pattern.values();
}

/// The arguments of one lane-group launch (approach 4's CUDA-core part).
struct LaneLaunch {
  unsigned blocks;
  const DenseOperands& operands;
  const DevicePattern& pattern;
  const int* panel_is_dense;
  int iterations;
  float* output;

  /// Launches one instantiation of lane_group_kernel with these arguments.
  template <typename Kernel>
  void operator()(Kernel kernel) const {
    kernel<<<blocks, kThreadsPerBlock>>>(operands, pattern.nnz(), pattern.row_indices(),
                                         pattern.col_indices(), approach4_values(pattern),
                                         panel_is_dense, iterations, output);
  }
};

/// Launches lane_group_kernel<kGroupLanes, true, skip, kFixedChunks> when K = 8·kFixedChunks
/// and the rows allow 16-byte loads, and says whether it did.
template <int kGroupLanes, int kFixedChunks>
bool launch_fixed_inner(const LaneLaunch& launch, bool vector) {
  if (!vector || launch.operands.inner != 8 * kFixedChunks) {
    return false;
  }
  if (launch.panel_is_dense != nullptr) {
    launch(lane_group_kernel<kGroupLanes, true, true, kFixedChunks>);
  } else {
    launch(lane_group_kernel<kGroupLanes, true, false, kFixedChunks>);
  }
  return true;
}

/// Launches the lane-group kernel for any K: a compiled-in K (kFixedChunks... = K / 8) when
/// one matches, else the runtime-K kernel.
template <int kGroupLanes, int... kFixedChunks>
void launch_lane_groups_with(const DenseOperands& operands, const DevicePattern& pattern,
                             const int* panel_is_dense, int iterations, float* output) {
  const bool vector = allows_vector_loads(operands.a, operands.lda) &&
                      allows_vector_loads(operands.b_transposed, operands.ldb);
  const bool skip = panel_is_dense != nullptr;
  const std::int64_t blocks_for_one_run = blocks_for(pattern.nnz() * kGroupLanes, kThreadsPerBlock);
  if (iterations == 0) {
    iterations = automatic_lane_iterations(blocks_for_one_run);
  }
  const LaneLaunch launch{blocks_for(blocks_for_one_run, iterations),
                          operands,
                          pattern,
                          panel_is_dense,
                          iterations,
                          output};
  if ((launch_fixed_inner<kGroupLanes, kFixedChunks>(launch, vector) || ...)) {
    // launched with a compiled-in K
  } else if (vector && skip) {
    launch(lane_group_kernel<kGroupLanes, true, true>);
  } else if (vector) {
    launch(lane_group_kernel<kGroupLanes, true, false>);
  } else if (skip) {
    launch(lane_group_kernel<kGroupLanes, false, true>);
  } else {
    launch(lane_group_kernel<kGroupLanes, false, false>);
  }
  CUDA_CHECK_LAUNCH(lane_group_kernel);
}

/// Lanes per nonzero when the options leave it open: 4 up to K = 256 (each lane reads up to
/// 8 chunks of 8 halves of each row), doubling with K, within the built sizes 4..32.
int automatic_group_lanes(int inner) {
  int lanes = 4;
  while (lanes < 32 && lanes * 64 < inner) {
    lanes *= 2;
  }
  return lanes;
}

void launch_lane_groups(int group_lanes, int iterations, const DenseOperands& operands,
                        const DevicePattern& pattern, const int* panel_is_dense, float* output) {
  // Compiled-in K (as K / 8): the K of the automatic lane count (32..256 with 4 lanes, 512
  // with 8, 1024 with 16) and K = 256 for every lane count (the benchmark's lane experiment).
  switch (group_lanes == 0 ? automatic_group_lanes(operands.inner) : group_lanes) {
    case 4:
      launch_lane_groups_with<4, 4, 8, 16, 32>(operands, pattern, panel_is_dense, iterations,
                                               output);
      break;
    case 8:
      launch_lane_groups_with<8, 32, 64>(operands, pattern, panel_is_dense, iterations, output);
      break;
    case 16:
      launch_lane_groups_with<16, 32, 128>(operands, pattern, panel_is_dense, iterations, output);
      break;
    case 32:
      launch_lane_groups_with<32, 32>(operands, pattern, panel_is_dense, iterations, output);
      break;
    default:
      throw std::invalid_argument("approach 4 groups of " + std::to_string(group_lanes) +
                                  " lanes are not built; choose 4, 8, 16 or 32");
  }
}

void check_options(const Options& options) {
  if (options.lane_iterations < 0 || options.lane_iterations > 64) {
    throw std::invalid_argument("lane_iterations must be in [0, 64] (0: automatic), got " +
                                std::to_string(options.lane_iterations));
  }
  if (options.tc_min_nnz < 0) {
    throw std::invalid_argument("tc_min_nnz must not be negative, got " +
                                std::to_string(options.tc_min_nnz));
  }
  if (!(options.tc_density > 0.0) || options.tc_density > 1.0) {
    throw std::invalid_argument("tc_density must be in (0, 1], got " +
                                std::to_string(options.tc_density));
  }
}

}  // namespace

std::string approach_name(Approach approach) {
  switch (approach) {
    case Approach::warp_per_nonzero:
      return "1 warp/nonzero";
    case Approach::dense_wmma:
      return "2 dense WMMA";
    case Approach::tile_grouped:
      return "3 tile-grouped WMMA";
    case Approach::hybrid:
      return "4 hybrid";
  }
  return "?";
}

Approach approach_from_number(long long number) {
  if (number < 1 || number > kApproachCount) {
    throw std::invalid_argument("approach " + std::to_string(number) +
                                " does not exist; step 5 has approaches 1 to " +
                                std::to_string(kApproachCount));
  }
  return static_cast<Approach>(number);
}

namespace {

/// Throws std::invalid_argument "SDDMM operands: " followed by @p parts. The message is
/// built only here: run() checks the operands on every launch, and an std::ostringstream
/// built up front cost about a microsecond of every launch.
template <typename... Parts>
[[noreturn]] void throw_operand_problem(const Parts&... parts) {
  std::ostringstream problem;
  (problem << ... << parts);
  throw std::invalid_argument("SDDMM operands: " + problem.str());
}

}  // namespace

void check_operands(const DenseOperands& operands) {
  if (operands.rows < 0 || operands.cols < 0 || operands.inner < 0) {
    throw_operand_problem("sizes must not be negative (M=", operands.rows, ", N=", operands.cols,
                          ", K=", operands.inner, ")");
  }
  if (operands.lda < operands.inner || operands.lda < 1) {
    throw_operand_problem("lda=", operands.lda, " must be at least K=", operands.inner, " and 1");
  }
  if (operands.ldb < operands.inner || operands.ldb < 1) {
    throw_operand_problem("ldb=", operands.ldb, " must be at least K=", operands.inner, " and 1");
  }
  if ((operands.a == nullptr && operands.rows > 0 && operands.inner > 0) ||
      (operands.b_transposed == nullptr && operands.cols > 0 && operands.inner > 0)) {
    throw_operand_problem("A or Bᵀ is a null pointer for a non-empty matrix");
  }
}

// ---- DevicePattern ------------------------------------------------------------------
/// @brief Device storage of S: rows, columns and values in one allocation.
struct DevicePattern::Buffers {
  PooledBytes storage;            ///< rows, columns and values of S in one allocation
  std::size_t cols_offset = 0;    ///< byte offset of the column indices in storage
  std::size_t values_offset = 0;  ///< byte offset of the values in storage
  /// Recorded on the side stream after the values' copy (CSR upload); null when none.
  cudaEvent_t values_copied = nullptr;
  /// Whether the default stream is already ordered after values_copied.
  bool values_ordered = true;

  Buffers() = default;
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  /// Orders the default stream after the values' copy before storage goes back to the pool
  /// (the members are destroyed after this body). No checks: destructors must not throw.
  ~Buffers() {
    if (values_copied != nullptr) {
      if (!values_ordered) {
        cudaStreamWaitEvent(nullptr, values_copied, 0);
      }
      cudaEventDestroy(values_copied);
    }
  }
};

namespace {

/// Throws the error that describes entry @p entry of @p matrix: an index out of range, or an
/// entry before its predecessor.
[[noreturn]] void throw_bad_entry(const course::CooMatrix& matrix, std::size_t entry) {
  const int row = matrix.row_indices[entry];
  const int col = matrix.col_indices[entry];
  if (row < 0 || row >= matrix.rows || col < 0 || col >= matrix.cols) {
    throw std::invalid_argument("S entry " + std::to_string(entry) + " (" + std::to_string(row) +
                                ", " + std::to_string(col) + ") is out of range for a " +
                                std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                                " matrix");
  }
  throw std::invalid_argument("S must be sorted row-major (course::sort_row_major); entry " +
                              std::to_string(entry) + " comes before entry " +
                              std::to_string(entry - 1));
}

}  // namespace

DevicePattern::DevicePattern(const course::CooMatrix& matrix)
    : rows_(matrix.rows), cols_(matrix.cols), buffers_(std::make_unique<Buffers>()) {
  upload_coo(matrix);
}

void DevicePattern::upload_coo(const course::CooMatrix& matrix) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("S has negative size " + std::to_string(matrix.rows) + " x " +
                                std::to_string(matrix.cols));
  }
  const std::size_t nnz = matrix.row_indices.size();
  if (matrix.col_indices.size() != nnz || matrix.values.size() != nnz) {
    throw std::invalid_argument("S has " + std::to_string(nnz) + " row indices but " +
                                std::to_string(matrix.col_indices.size()) + " column indices and " +
                                std::to_string(matrix.values.size()) + " values");
  }
  nnz_ = static_cast<std::int64_t>(nnz);
  const int panel_count = (rows_ + kPanelRows - 1) / kPanelRows;
  panel_nnz_.assign(static_cast<std::size_t>(panel_count), 0);
  panel_spans_.assign(static_cast<std::size_t>(panel_count), PanelSpan{});
  if (nnz > 0) {
    const bool check_on_host = nnz_ <= kHostCheckLimit;
    if (check_on_host) {
      // Small S: check and count on the host before anything touches the device.
      for (std::size_t entry = 0; entry < nnz; ++entry) {
        const int row = matrix.row_indices[entry];
        const int col = matrix.col_indices[entry];
        const bool in_range = row >= 0 && row < rows_ && col >= 0 && col < cols_;
        // Entry 0 has no predecessor to be compared with.
        const bool in_order =
            entry == 0 || row > matrix.row_indices[entry - 1] ||
            (row == matrix.row_indices[entry - 1] && col >= matrix.col_indices[entry - 1]);
        if (!in_range || !in_order) {
          throw_bad_entry(matrix, entry);
        }
        const auto panel = static_cast<std::size_t>(row / kPanelRows);
        ++panel_nnz_[panel];
        PanelSpan& span = panel_spans_[panel];
        span.first_col = span.first_col < 0 ? col : std::min(span.first_col, col);
        span.last_col = std::max(span.last_col, col);
      }
    }
    const std::size_t index_bytes = align_bytes(nnz * sizeof(int));
    buffers_->cols_offset = index_bytes;
    buffers_->values_offset = 2 * index_bytes;
    buffers_->storage = PooledBytes(3 * index_bytes, "S (rows, columns, values)");
    int* device_rows = buffers_->storage.at<int>(0);
    int* device_cols = buffers_->storage.at<int>(buffers_->cols_offset);
    float* device_values = buffers_->storage.at<float>(buffers_->values_offset);
    if (check_on_host) {
      // One copy of the three arrays, packed as they lie on the device.
      std::vector<unsigned char> staging(buffers_->storage.bytes());
      std::memcpy(staging.data(), matrix.row_indices.data(), nnz * sizeof(int));
      std::memcpy(staging.data() + buffers_->cols_offset, matrix.col_indices.data(),
                  nnz * sizeof(int));
      std::memcpy(staging.data() + buffers_->values_offset, matrix.values.data(),
                  nnz * sizeof(float));
      CUDA_CHECK(cudaMemcpyAsync(device_rows, staging.data(), staging.size(),
                                 cudaMemcpyHostToDevice, nullptr));
    } else {
      // Large S: upload (fast when the caller registered its arrays with cudaHostRegister),
      // then check and count on the GPU and read the verdict back in one copy.
      CUDA_CHECK(cudaMemcpyAsync(device_rows, matrix.row_indices.data(), nnz * sizeof(int),
                                 cudaMemcpyHostToDevice, nullptr));
      CUDA_CHECK(cudaMemcpyAsync(device_cols, matrix.col_indices.data(), nnz * sizeof(int),
                                 cudaMemcpyHostToDevice, nullptr));
      CUDA_CHECK(cudaMemcpyAsync(device_values, matrix.values.data(), nnz * sizeof(float),
                                 cudaMemcpyHostToDevice, nullptr));
      // The check word, the panel counts, then two ints of span per panel (one word).
      const std::size_t check_words = 1 + 2 * static_cast<std::size_t>(panel_count);
      const std::size_t spans_at =
          (1 + static_cast<std::size_t>(panel_count)) * sizeof(std::uint64_t);
      const PooledBytes check(check_words * sizeof(std::uint64_t), "the check of S");
      CUDA_CHECK(cudaMemsetAsync(check.at<void>(0), 0xFF, sizeof(PatternCheck), nullptr));
      CUDA_CHECK(cudaMemsetAsync(check.at<void>(spans_at), 0,
                                 static_cast<std::size_t>(panel_count) * sizeof(std::uint64_t),
                                 nullptr));
      const std::int64_t threads = std::max<std::int64_t>(nnz_, panel_count);
      validate_pattern_kernel<<<blocks_for(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
          rows_, cols_, device_rows, device_cols, nnz_, panel_count, check.at<PatternCheck>(0),
          check.at<std::int64_t>(sizeof(std::uint64_t)), check.at<int>(spans_at));
      CUDA_CHECK_LAUNCH(validate_pattern_kernel);
      std::vector<std::int64_t> verdict(check_words);
      CUDA_CHECK(cudaMemcpy(verdict.data(), check.at<void>(0), check_words * sizeof(std::int64_t),
                            cudaMemcpyDeviceToHost));
      const auto first_bad = static_cast<std::uint64_t>(verdict[0]);
      if (first_bad != ~std::uint64_t{0}) {
        throw_bad_entry(matrix, static_cast<std::size_t>(first_bad));
      }
      std::copy(verdict.begin() + 1, verdict.begin() + 1 + panel_count, panel_nnz_.begin());
      decode_panel_spans(reinterpret_cast<const int*>(verdict.data() + 1 + panel_count));
    }
  }
  compute_max_panel_density();
}

void DevicePattern::decode_panel_spans(const int* span_words) {
  for (std::size_t panel = 0; panel < panel_spans_.size(); ++panel) {
    const int first_key = span_words[2 * panel];     // N - first column, 0 when none
    const int last_key = span_words[2 * panel + 1];  // last column + 1, 0 when none
    panel_spans_[panel] = first_key == 0 ? PanelSpan{} : PanelSpan{cols_ - first_key, last_key - 1};
  }
}

void DevicePattern::compute_max_panel_density() {
  max_panel_density_ = 0.0;
  const int panel_count = static_cast<int>(panel_nnz_.size());
  for (int panel = 0; panel < panel_count; ++panel) {
    const int panel_rows = std::min(kPanelRows, rows_ - panel * kPanelRows);
    const double density = static_cast<double>(panel_nnz_[static_cast<std::size_t>(panel)]) /
                           (static_cast<double>(panel_rows) * static_cast<double>(cols_));
    max_panel_density_ = std::max(max_panel_density_, density);
  }
}

namespace {

/// Throws when the row offsets of @p matrix are not those of a CSR matrix with
/// matrix.col_indices.size() entries: offset 0 must be 0, the last nnz, none above the next.
/// @p first_bad is the first failing offset (found by the caller, on the host or the GPU).
[[noreturn]] void throw_bad_offset(const course::CsrMatrix& matrix, std::size_t first_bad) {
  throw std::invalid_argument(
      "S's CSR row offset " + std::to_string(first_bad) + " (" +
      std::to_string(matrix.row_offsets[first_bad]) +
      ") is invalid: offsets must start at 0, never decrease and end at nnz = " +
      std::to_string(matrix.col_indices.size()));
}

/// First offset of @p matrix that fails the CSR checks of throw_bad_offset, or its size.
std::size_t first_bad_offset_on_host(const course::CsrMatrix& matrix) {
  const std::vector<int>& offsets = matrix.row_offsets;
  const auto nnz = static_cast<long long>(matrix.col_indices.size());
  for (std::size_t index = 0; index < offsets.size(); ++index) {
    const bool bad = offsets[index] < 0 || offsets[index] > nnz ||
                     (index == 0 && offsets[index] != 0) ||
                     (index + 1 == offsets.size() && offsets[index] != nnz) ||
                     (index + 1 < offsets.size() && offsets[index] > offsets[index + 1]);
    if (bad) {
      return index;
    }
  }
  return offsets.size();
}

/// First entry of @p matrix (valid row offsets) whose column is out of range or below its
/// predecessor's in the same row, or nnz: the error path of the GPU check, which only says
/// that some entry failed.
std::size_t first_bad_csr_entry_on_host(const course::CsrMatrix& matrix) {
  for (int row = 0; row < matrix.rows; ++row) {
    const auto begin = static_cast<std::size_t>(matrix.row_offsets[row]);
    const auto end = static_cast<std::size_t>(matrix.row_offsets[row + 1]);
    for (std::size_t entry = begin; entry < end; ++entry) {
      const int col = matrix.col_indices[entry];
      // The first entry of a row has no predecessor in its row to be compared with.
      const bool bad =
          col < 0 || col >= matrix.cols || (entry > begin && col < matrix.col_indices[entry - 1]);
      if (bad) {
        return entry;
      }
    }
  }
  return matrix.col_indices.size();
}

/// Nonzeros of each 64-row panel of @p matrix (valid row offsets): two offsets per panel.
std::vector<std::int64_t> count_panels(const course::CsrMatrix& matrix) {
  const int panel_count = (matrix.rows + kPanelRows - 1) / kPanelRows;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(panel_count));
  for (int panel = 0; panel < panel_count; ++panel) {
    const int end_row = std::min(matrix.rows, (panel + 1) * kPanelRows);
    counts[static_cast<std::size_t>(panel)] =
        matrix.row_offsets[end_row] - matrix.row_offsets[panel * kPanelRows];
  }
  return counts;
}

/// Throws the error that describes entry @p entry of the CSR matrix @p matrix (valid row
/// offsets): a column out of range, or a column before its predecessor in the same row.
[[noreturn]] void throw_bad_csr_entry(const course::CsrMatrix& matrix, std::size_t entry) {
  const auto row_end = std::upper_bound(matrix.row_offsets.begin(), matrix.row_offsets.end(),
                                        static_cast<long long>(entry));
  const auto row = static_cast<int>(row_end - matrix.row_offsets.begin()) - 1;
  const int col = matrix.col_indices[entry];
  if (col < 0 || col >= matrix.cols) {
    throw std::invalid_argument("S entry " + std::to_string(entry) + " (" + std::to_string(row) +
                                ", " + std::to_string(col) + ") is out of range for a " +
                                std::to_string(matrix.rows) + " x " + std::to_string(matrix.cols) +
                                " matrix");
  }
  throw std::invalid_argument(
      "S must be sorted row-major (columns increasing within a row); "
      "entry " +
      std::to_string(entry) + " comes before entry " + std::to_string(entry - 1));
}

}  // namespace

DevicePattern::DevicePattern(const course::CsrMatrix& matrix, PatternValues values)
    : rows_(matrix.rows), cols_(matrix.cols), buffers_(std::make_unique<Buffers>()) {
  if (matrix.rows < 0 || matrix.cols < 0) {
    throw std::invalid_argument("S has negative size " + std::to_string(matrix.rows) + " x " +
                                std::to_string(matrix.cols));
  }
  const std::size_t nnz = matrix.col_indices.size();
  if (matrix.row_offsets.size() != static_cast<std::size_t>(matrix.rows) + 1) {
    throw std::invalid_argument("S has " + std::to_string(matrix.row_offsets.size()) +
                                " CSR row offsets for " + std::to_string(matrix.rows) +
                                " rows; it needs rows + 1");
  }
  const bool ones = values == PatternValues::all_ones;
  unit_values_ = ones;
  if (!ones && matrix.values.size() != nnz) {
    throw std::invalid_argument("S has " + std::to_string(nnz) + " column indices but " +
                                std::to_string(matrix.values.size()) + " values");
  }
  if (nnz > static_cast<std::size_t>(INT_MAX)) {
    throw std::invalid_argument("S in CSR with int offsets holds at most " +
                                std::to_string(INT_MAX) + " entries, got " + std::to_string(nnz));
  }
  if (static_cast<std::int64_t>(nnz) <= kHostCheckLimit || matrix.rows == 0) {
    // Small S: check the offsets, expand to COO on the host and take the COO path.
    const std::size_t bad = first_bad_offset_on_host(matrix);
    if (bad < matrix.row_offsets.size()) {
      throw_bad_offset(matrix, bad);
    }
    course::CooMatrix coo;
    coo.rows = matrix.rows;
    coo.cols = matrix.cols;
    coo.col_indices = matrix.col_indices;
    coo.values = ones ? std::vector<float>(nnz, 1.0f) : matrix.values;
    coo.row_indices.resize(nnz);
    for (int row = 0; row < matrix.rows; ++row) {
      for (int entry = matrix.row_offsets[row]; entry < matrix.row_offsets[row + 1]; ++entry) {
        coo.row_indices[static_cast<std::size_t>(entry)] = row;
      }
    }
    upload_coo(coo);  // its errors name the same entries as the CSR ones
    return;
  }
  upload_csr_on_gpu(matrix, ones);
}

void DevicePattern::upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones) {
  const std::size_t nnz = matrix.col_indices.size();
  nnz_ = static_cast<std::int64_t>(nnz);
  const int panel_count = (rows_ + kPanelRows - 1) / kPanelRows;
  const std::size_t index_bytes = align_bytes(nnz * sizeof(int));
  buffers_->cols_offset = index_bytes;
  buffers_->values_offset = 2 * index_bytes;
  buffers_->storage = PooledBytes(3 * index_bytes, "S (rows, columns, values)");
  int* device_rows = buffers_->storage.at<int>(0);
  int* device_cols = buffers_->storage.at<int>(buffers_->cols_offset);
  float* device_values = buffers_->storage.at<float>(buffers_->values_offset);
  const std::size_t offsets_bytes = matrix.row_offsets.size() * sizeof(int);
  const PooledBytes device_offsets(offsets_bytes, "the CSR offsets of S");
  CUDA_CHECK(cudaMemcpyAsync(device_offsets.at<int>(0), matrix.row_offsets.data(), offsets_bytes,
                             cudaMemcpyHostToDevice, nullptr));
  CUDA_CHECK(cudaMemcpyAsync(device_cols, matrix.col_indices.data(), nnz * sizeof(int),
                             cudaMemcpyHostToDevice, nullptr));
  if (!ones) {
    // Nothing before the SDDMM itself reads the values: they travel on a second stream,
    // after the allocation and the index copies above (ordered on the default stream),
    // while the check and the plan run. values() orders the default stream after them.
    side_stream_waits_for_default();
    CUDA_CHECK(cudaMemcpyAsync(device_values, matrix.values.data(), nnz * sizeof(float),
                               cudaMemcpyHostToDevice, side_copy_stream()));
    CUDA_CHECK(cudaEventCreateWithFlags(&buffers_->values_copied, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventRecord(buffers_->values_copied, side_copy_stream()));
    buffers_->values_ordered = false;
  }
  // The verdict and the spans come back through mapped host memory: no memset, no copy.
  auto* verdict = static_cast<CsrVerdict*>(
      pinned_scratch(PinnedUse::verdict,
                     sizeof(CsrVerdict) + 2 * sizeof(int) * static_cast<std::size_t>(panel_count)));
  verdict->bad_offset = 0;
  verdict->bad_entry = 0;
  int* spans = reinterpret_cast<int*>(verdict + 1);
  const std::int64_t threads = std::max<std::int64_t>(nnz_, std::int64_t{rows_} + 1);
  csr_pattern_kernel<kThreadsPerBlock><<<blocks_for(threads, kThreadsPerBlock), kThreadsPerBlock>>>(
      device_offsets.at<int>(0), device_cols, rows_, cols_, nnz_, ones, device_rows, device_values,
      verdict, spans);
  CUDA_CHECK_LAUNCH(csr_pattern_kernel);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
  if (!ones && (verdict->bad_offset != 0 || verdict->bad_entry != 0)) {
    // The caller may free the matrix once the error is thrown: let the copy finish first.
    CUDA_CHECK(cudaEventSynchronize(buffers_->values_copied));
  }
  if (verdict->bad_offset != 0) {
    throw_bad_offset(matrix, first_bad_offset_on_host(matrix));
  }
  if (verdict->bad_entry != 0) {
    throw_bad_csr_entry(matrix, first_bad_csr_entry_on_host(matrix));
  }
  panel_nnz_ = count_panels(matrix);
  panel_spans_.resize(static_cast<std::size_t>(panel_count));
  for (std::size_t panel = 0; panel < panel_spans_.size(); ++panel) {
    panel_spans_[panel] = PanelSpan{spans[2 * panel], spans[2 * panel + 1]};
  }
  compute_max_panel_density();
}

DevicePattern::~DevicePattern() = default;
const int* DevicePattern::row_indices() const {
  return buffers_->storage.at<int>(0);
}
const int* DevicePattern::col_indices() const {
  return buffers_->storage.at<int>(buffers_->cols_offset);
}
const float* DevicePattern::values() const {
  if (!buffers_->values_ordered) {
    // First use: whatever the caller queues next on the default stream waits for the copy.
    CUDA_CHECK(cudaStreamWaitEvent(nullptr, buffers_->values_copied, 0));
    buffers_->values_ordered = true;
  }
  return buffers_->storage.at<float>(buffers_->values_offset);
}

// ---- Plan ---------------------------------------------------------------------------
/// @brief What each approach prepares before its kernel runs.
struct Plan::State {
  course::DeviceBuffer<float> dense;  ///< approach 2: the dense M×N product
  int ld_dense = 0;                   ///< approach 2: leading dimension of dense
  TileGroups groups;                  ///< approach 3: nonzeros grouped by 16×16 tile
  PooledBytes panels;  ///< approach 4: 1 + slot per panel, the slots, the tiles, tile starts
  std::size_t slots_offset = 0;        ///< approach 4: byte offset of the dense slots
  std::size_t tiles_offset = 0;        ///< approach 4: byte offset of the dense tiles
  std::size_t tile_starts_offset = 0;  ///< approach 4: byte offset of the tile starts
  std::int64_t tile_count = 0;         ///< approach 4: block tiles for Tensor Cores
  bool sparse_rows = true;             ///< approach 4: some nonzeros are left to lane groups
};

/// @brief Approach 4's choice of Tensor Core panels, made on the host from the pattern's counts.
struct DensePanelChoice {
  std::vector<int> panel_slot;    ///< 1 + slot of each panel, 0 for a sparse one
  std::vector<DenseSlot> slots;   ///< the dense panels
  std::vector<DenseTile> tiles;   ///< their block tiles, one per column block of each span
  std::int64_t starts_total = 0;  ///< size of the tile-start table
  std::int64_t dense_nnz = 0;     ///< nonzeros in the dense panels
};

namespace {

/// Picks the panels whose density over the columns they span reaches Options::tc_density.
/// No panel is picked when they hold fewer than Options::tc_min_nnz nonzeros together, or
/// when their entries or their table could not be indexed with int (more than 2³¹ - 1):
/// the lane groups then compute every nonzero, which is slower but always possible.
DensePanelChoice choose_dense_panels(const DevicePattern& pattern, const Options& options) {
  const std::vector<std::int64_t>& counts = pattern.panel_nnz();
  const std::vector<PanelSpan>& spans = pattern.panel_spans();
  DensePanelChoice choice;
  if (pattern.nnz() > INT_MAX) {
    return choice;  // the tile starts hold entries as int: lane groups only
  }
  choice.panel_slot.assign(counts.size(), 0);
  for (std::size_t panel = 0; panel < counts.size(); ++panel) {
    if (counts[panel] == 0) {
      continue;  // nothing to compute in this panel
    }
    const int first_block = spans[panel].first_col / kPanelTileCols;
    const int blocks = spans[panel].last_col / kPanelTileCols - first_block + 1;
    const int span_cols = std::min((first_block + blocks) * kPanelTileCols, pattern.cols()) -
                          first_block * kPanelTileCols;
    const int panel_rows =
        std::min(kPanelRows, pattern.rows() - static_cast<int>(panel) * kPanelRows);
    const double density = static_cast<double>(counts[panel]) /
                           (static_cast<double>(panel_rows) * static_cast<double>(span_cols));
    if (density < options.tc_density) {
      continue;  // sparse even within its span: lane groups
    }
    const auto starts_offset = static_cast<int>(choice.starts_total);
    choice.panel_slot[panel] = static_cast<int>(choice.slots.size()) + 1;
    choice.slots.push_back({first_block, blocks + 1, starts_offset, static_cast<int>(panel)});
    for (int block = 0; block < blocks; ++block) {
      choice.tiles.push_back({static_cast<int>(panel) * kPanelRows,
                              (first_block + block) * kPanelTileCols, starts_offset + block,
                              blocks + 1});
    }
    choice.starts_total += static_cast<std::int64_t>(kPanelRows) * (blocks + 1);
    choice.dense_nnz += counts[panel];
    if (choice.starts_total > INT_MAX) {
      return {};  // the table would outgrow int indices: no Tensor Cores
    }
  }
  if (choice.dense_nnz < options.tc_min_nnz) {
    return {};  // too little dense work: one wave of lane groups is quicker
  }
  return choice;
}

}  // namespace

std::size_t dense_product_bytes(int rows, int cols) {
  return static_cast<std::size_t>(round_up(rows, kTile)) *
         static_cast<std::size_t>(round_up(cols, kTile)) * sizeof(float);
}

Plan::Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options)
    : approach_(approach),
      pattern_(&pattern),
      inner_(inner),
      options_(options),
      state_(std::make_unique<State>()) {
  approach_from_number(static_cast<int>(approach));
  check_options(options);
  if (inner < 0) {
    throw std::invalid_argument("K must not be negative, got " + std::to_string(inner));
  }
  switch (approach) {
    case Approach::warp_per_nonzero:
      break;  // nothing to prepare
    case Approach::dense_wmma: {
      const std::size_t elements =
          dense_product_bytes(pattern.rows(), pattern.cols()) / sizeof(float);
      if (elements > options.dense_limit_elements) {
        std::ostringstream message;
        message << "approach 2 stores the dense product: " << round_up(pattern.rows(), kTile)
                << " x " << round_up(pattern.cols(), kTile)
                << " floats = " << course::format_bytes(elements * sizeof(float))
                << ", more than its limit of " << options.dense_limit_elements << " elements ("
                << course::format_bytes(options.dense_limit_elements * sizeof(float))
                << "); approaches 3 and 4 need no dense storage";
        throw std::length_error(message.str());
      }
      state_->ld_dense = static_cast<int>(round_up(pattern.cols(), kTile));
      state_->dense = course::DeviceBuffer<float>(elements, "approach 2's dense M x N product");
      break;
    }
    case Approach::tile_grouped:
      state_->groups = group_by_tile(pattern);
      tensor_core_units_ = state_->groups.tile_count;
      break;
    case Approach::hybrid:
      prepare_dense_panels(choose_dense_panels(pattern, options));
      break;
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void Plan::prepare_dense_panels(const DensePanelChoice& choice) {
  tensor_core_units_ = static_cast<std::int64_t>(choice.slots.size());
  state_->tile_count = static_cast<std::int64_t>(choice.tiles.size());
  state_->sparse_rows = choice.dense_nnz < pattern_->nnz();
  if (choice.slots.empty()) {
    return;  // every nonzero goes to the lane groups
  }
  // One allocation: 1 + slot per panel, the slots, the tiles; then the table of tile starts,
  // cleared by panel_tables_kernel and filled by tile_starts_kernel.
  const std::size_t slot_bytes = align_bytes(choice.panel_slot.size() * sizeof(int));
  const std::size_t slots_bytes = align_bytes(choice.slots.size() * sizeof(DenseSlot));
  const std::size_t tiles_bytes = align_bytes(choice.tiles.size() * sizeof(DenseTile));
  const std::size_t table_bytes = static_cast<std::size_t>(choice.starts_total) * sizeof(int);
  state_->slots_offset = slot_bytes;
  state_->tiles_offset = slot_bytes + slots_bytes;
  state_->tile_starts_offset = state_->tiles_offset + tiles_bytes;
  state_->panels =
      PooledBytes(state_->tile_starts_offset + table_bytes, "approach 4's dense panel tables");
  // The tables go through mapped page-locked memory, which panel_tables_kernel reads.
  auto* staging =
      static_cast<unsigned char*>(pinned_scratch(PinnedUse::staging, state_->tile_starts_offset));
  std::memcpy(staging, choice.panel_slot.data(), choice.panel_slot.size() * sizeof(int));
  std::memcpy(staging + state_->slots_offset, choice.slots.data(),
              choice.slots.size() * sizeof(DenseSlot));
  std::memcpy(staging + state_->tiles_offset, choice.tiles.data(),
              choice.tiles.size() * sizeof(DenseTile));
  int* tile_starts = state_->panels.at<int>(state_->tile_starts_offset);
  const auto copy_words = static_cast<std::int64_t>(state_->tile_starts_offset / sizeof(int));
  const std::int64_t words = copy_words + choice.starts_total;
  const unsigned table_blocks = std::min<unsigned>(blocks_for(words, kThreadsPerBlock), 1024);
  panel_tables_kernel<<<table_blocks, kThreadsPerBlock>>>(reinterpret_cast<const int*>(staging),
                                                          state_->panels.at<int>(0), copy_words,
                                                          choice.starts_total);
  CUDA_CHECK_LAUNCH(panel_tables_kernel);
  tile_starts_kernel<<<blocks_for(pattern_->nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      pattern_->row_indices(), pattern_->col_indices(), pattern_->nnz(), state_->panels.at<int>(0),
      state_->panels.at<DenseSlot>(state_->slots_offset), tile_starts);
  CUDA_CHECK_LAUNCH(tile_starts_kernel);
  // The constructor's synchronisation ends the reads of staging before it is written again.
}

Plan::~Plan() = default;

std::size_t Plan::workspace_bytes() const {
  return state_->dense.bytes() + state_->groups.bytes() + state_->panels.bytes();
}

void Plan::run(const DenseOperands& operands, float* output) const {
  check_operands(operands);
  if (operands.rows != pattern_->rows() || operands.cols != pattern_->cols() ||
      operands.inner != inner_) {
    std::ostringstream message;
    message << "operands are " << operands.rows << "x" << operands.inner << " and "
            << operands.inner << "x" << operands.cols << " but S is " << pattern_->rows() << "x"
            << pattern_->cols() << " and the plan was made for K=" << inner_;
    throw std::invalid_argument(message.str());
  }
  if (pattern_->nnz() == 0) {
    return;  // nothing to sample
  }
  if (output == nullptr) {
    throw std::invalid_argument("SDDMM output is a null pointer for " +
                                std::to_string(pattern_->nnz()) + " nonzeros");
  }
  const bool vector_a = allows_vector_loads(operands.a, operands.lda);
  const bool vector_b = allows_vector_loads(operands.b_transposed, operands.ldb);
  switch (approach_) {
    case Approach::warp_per_nonzero:
      launch_warp_per_nonzero(operands, *pattern_, output);
      break;
    case Approach::dense_wmma: {
      launch_dense(options_, operands, state_->dense.data(), state_->ld_dense);
      sample_dense_kernel<<<blocks_for(pattern_->nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
          state_->dense.data(), state_->ld_dense, pattern_->nnz(), pattern_->row_indices(),
          pattern_->col_indices(), pattern_->values(), output);
      CUDA_CHECK_LAUNCH(sample_dense_kernel);
      break;
    }
    case Approach::tile_grouped: {
      const TileGroups& groups = state_->groups;
      const unsigned blocks = blocks_for(groups.tile_count, kTileGroupedWarps);
      const auto launch = [&](auto kernel) {
        kernel<<<blocks, 32 * kTileGroupedWarps>>>(
            operands, groups.tile_count, groups.tile_cols, groups.tile_keys.data(),
            groups.tile_offsets.data(), static_cast<int>(pattern_->nnz()),
            groups.sorted_rows.data(), groups.sorted_cols.data(), groups.sorted_values.data(),
            groups.permutation.data(), vector_a, vector_b, output);
      };
      if (options_.tile_ranges) {
        launch(tile_grouped_kernel<kTileGroupedWarps, true>);
      } else {
        launch(tile_grouped_kernel<kTileGroupedWarps, false>);
      }
      CUDA_CHECK_LAUNCH(tile_grouped_kernel);
      break;
    }
    case Approach::hybrid: {
      const int* panel_slots = tensor_core_units_ > 0 ? state_->panels.at<int>(0) : nullptr;
      if (state_->tile_count > 0) {
        dense_panel_kernel<<<blocks_for(state_->tile_count, 1), kPanelThreads>>>(
            operands, state_->panels.at<DenseTile>(state_->tiles_offset),
            state_->panels.at<int>(state_->tile_starts_offset), pattern_->col_indices(),
            approach4_values(*pattern_), vector_a, vector_b, output);
        CUDA_CHECK_LAUNCH(dense_panel_kernel);
      }
      if (state_->sparse_rows) {
        launch_lane_groups(options_.group_lanes, options_.lane_iterations, operands, *pattern_,
                           panel_slots, output);
      }
      break;
    }
  }
}

void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options) {
  const Plan plan(approach, pattern, operands.inner, options);
  plan.run(operands, output);
  CUDA_CHECK(cudaDeviceSynchronize());
}

void sampled_magnitude(const DevicePattern& pattern, const DenseOperands& operands, float* output) {
  check_operands(operands);
  if (pattern.nnz() == 0) {
    return;
  }
  magnitude_kernel<<<blocks_for(pattern.nnz(), kThreadsPerBlock), kThreadsPerBlock>>>(
      operands.a, operands.lda, operands.b_transposed, operands.ldb, operands.inner, pattern.nnz(),
      pattern.row_indices(), pattern.col_indices(), pattern.values(), output);
  CUDA_CHECK_LAUNCH(magnitude_kernel);
}

void fill_random_half(__half* matrix, int rows, int cols, int ld, std::uint64_t seed) {
  course::check_matrix_shape(rows, cols, ld);
  const std::int64_t count = static_cast<std::int64_t>(rows) * ld;
  if (count == 0) {
    return;
  }
  fill_random_half_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(
      matrix, rows, cols, ld, seed);
  CUDA_CHECK_LAUNCH(fill_random_half_kernel);
}

void convert_half_to_float(const __half* input, float* output, std::size_t count) {
  if (count == 0) {
    return;
  }
  half_to_float_kernel<<<blocks_for(static_cast<std::int64_t>(count), kThreadsPerBlock),
                         kThreadsPerBlock>>>(input, output, static_cast<std::int64_t>(count));
  CUDA_CHECK_LAUNCH(half_to_float_kernel);
}

void transpose_float(const float* input, float* output, int rows, int cols) {
  const std::int64_t count = static_cast<std::int64_t>(rows) * cols;
  if (count == 0) {
    return;
  }
  transpose_float_kernel<<<blocks_for(count, kThreadsPerBlock), kThreadsPerBlock>>>(input, output,
                                                                                    rows, cols);
  CUDA_CHECK_LAUNCH(transpose_float_kernel);
}

}  // namespace step5
