// Step 5, the interface (lesson "Reading path"): what tests, grading and programs call.
// Read first: the README's reading path; then one approach at a time.
/// @file step5_launchers.hpp
/// @brief Step 5's stable host interface: the SDDMM approaches, their GPU preprocessing
/// (a "plan") and their launches.
///
/// SDDMM computes C = S ∘ (A·B) at the nonzeros of a sparse matrix S only:
/// C[e] = S.values[e] · Σ_k A(row_e, k) · B(k, col_e) for every stored entry e of S, in S's
/// order. A is rows×inner, B is inner×cols, both in half precision; C is float, accumulated in
/// float.
///
/// **Layout of B.** Every approach reads B as its transpose Bᵀ, a cols×inner row-major matrix: the
/// value needed for nonzero (i, j) is then the dot product of row i of A with row j of Bᵀ,
/// two contiguous runs of inner halves that vector loads read whole. (Seen from WMMA, Bᵀ
/// row-major is B column-major.) The cuSPARSE reference receives the same bytes as a
/// column-major inner×cols matrix.
///
/// Every function here checks its CUDA calls and launches (course::CudaError) and refuses bad
/// arguments with std::invalid_argument naming the problem.
///
/// **Where each part is implemented.** Approach names, operand checks and sddmm():
/// step5_launchers.cu. DevicePattern: pattern_upload_coo.cu and pattern_upload_csr.cu.
/// Plan and the dispatch of Plan::run: plan.cu, which calls each approach's launch in the
/// `*_launch.cu` file beside its kernel (approach_launches.hpp). Device memory:
/// course::DeviceBuffer from the stream-ordered pool (common/matrix.hpp). sampled_magnitude(),
/// fill_random_half(), convert_half_to_float() and transpose_float(): device_utilities.cu.
#pragma once

#include "common/sparse_matrix.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace course::step5 {

/// @brief The approaches of step 5, numbered as `APPROACH` / `--approach` select them.
enum class Approach {
  warp_per_nonzero = 1,  ///< CUDA cores: one warp per nonzero, shuffle reduction
  dense_wmma = 2,        ///< Tensor Cores on the whole dense product, then sampled
  tile_grouped = 3,      ///< Tensor Cores on the non-empty 16×16 tiles (the note's COO v2)
  hybrid = 4  ///< the fastest: CUDA-core lane groups, Tensor Core block tiles for dense panels
};

/// @brief Number of approaches.
constexpr int kApproachCount = 4;

/// @brief Short name of an approach, for tables ("warp/nnz", "dense WMMA", ...).
/// @param approach the approach
/// @return its name
std::string approach_name(Approach approach);

/// @brief Converts 1..4 to an Approach; throws std::invalid_argument otherwise.
/// @param number the approach number
/// @return the approach
Approach approach_from_number(long long number);

/// @brief The dense operands on the device.
struct DenseOperands {
  int rows = 0;                          ///< rows: rows of A (and of S)
  int cols = 0;                          ///< cols: columns of B (and of S)
  int inner = 0;                         ///< inner: columns of A, rows of B
  const __half* a = nullptr;             ///< A, rows×inner row-major, leading dimension lda
  int lda = 0;                           ///< leading dimension of A (>= inner)
  const __half* b_transposed = nullptr;  ///< Bᵀ, cols×inner row-major, leading dimension ldb
  int ldb = 0;                           ///< leading dimension of Bᵀ (>= inner)
};

/// @brief Checks shapes and leading dimensions; throws std::invalid_argument naming the
/// first problem (negative size, ld < inner, null pointer with a non-empty matrix).
/// @param operands the operands to check
void check_operands(const DenseOperands& operands);

/// @brief What DevicePattern's CSR constructor uploads as S's values.
enum class PatternValues {
  upload,   ///< the matrix's values vector is uploaded
  all_ones  ///< S is a pattern matrix: the values vector is ignored and the GPU writes ones
};

/// @brief The columns that the nonzeros of one 64-row panel of S span.
struct PanelSpan {
  int first_col = -1;  ///< smallest column of the panel's nonzeros (-1: no nonzero)
  int last_col = -1;   ///< largest column of the panel's nonzeros (-1: no nonzero)
};

/// @brief The sparse matrix S on the device in COO form, sorted row-major (owns its memory).
class DevicePattern {
 public:
  /// @brief Uploads the three arrays of @p matrix into one stream-ordered device allocation,
  /// validates them (indices in range, sorted by row then column) and counts the nonzeros of
  /// each 64-row panel and the columns they span: on the host for a few thousand entries, on
  /// the GPU beyond (one kernel
  /// and one read-back). The upload is part of every approach's preprocessing time; it runs
  /// at full bus speed when the caller has pinned the vectors (cudaHostRegister).
  /// Throws std::invalid_argument naming the first bad entry.
  /// @param matrix the sampling matrix S
  explicit DevicePattern(const course::CooMatrix& matrix);
  /// @brief Uploads S from CSR: the row offsets and columns (and the values, unless @p values
  /// says they are all one), 4 bytes per nonzero plus 4 per row instead of COO's 12 per
  /// nonzero; one kernel rebuilds the row of each nonzero, writes the ones, validates S and
  /// finds the panel spans (csr_pattern_kernel), and the host counts the panels from the
  /// offsets. The result is the same device pattern as from COO.
  /// The values are copied on a second stream while the check and a plan run; values()
  /// orders the default stream after that copy. From pageable memory (a plain std::vector)
  /// the copy has read @p matrix when the constructor returns; from page-locked memory
  /// (cudaHostRegister) it may still be reading it, so keep @p matrix alive and unchanged
  /// until the device synchronises (a Plan's constructor and sddmm() do).
  /// Throws std::invalid_argument naming a bad row offset or the first bad entry.
  /// @param matrix the sampling matrix S (columns sorted within each row)
  /// @param values whether to upload the values or write ones
  explicit DevicePattern(const course::CsrMatrix& matrix,
                         PatternValues values = PatternValues::upload);
  ~DevicePattern();
  DevicePattern(const DevicePattern&) = delete;
  DevicePattern& operator=(const DevicePattern&) = delete;

  /// @brief Rows of S.
  int rows() const { return rows_; }
  /// @brief Columns of S.
  int cols() const { return cols_; }
  /// @brief Number of stored entries.
  std::int64_t nnz() const { return nnz_; }
  /// @brief Largest density (nonzeros / (rows · cols)) of any 64-row panel.
  double max_panel_density() const { return max_panel_density_; }
  /// @brief Nonzeros of each 64-row panel (host copy), from which approach 4 classifies.
  const std::vector<std::int64_t>& panel_nnz() const { return panel_nnz_; }
  /// @brief Columns spanned by each 64-row panel's nonzeros (host copy).
  const std::vector<PanelSpan>& panel_spans() const { return panel_spans_; }
  /// @brief Device array of the entries' rows.
  const int* row_indices() const;
  /// @brief Device array of the entries' columns.
  const int* col_indices() const;
  /// @brief Whether every value of S is known to be one: a pattern matrix uploaded from CSR
  /// with PatternValues::all_ones. Approach 4 then reads no values (S∘(A·B) is A·B at S's
  /// entries), as cuSPARSE's SDDMM, which samples at S's pattern, reads none either.
  bool unit_values() const { return unit_values_; }
  /// @brief Device array of the entries' values. The first call after a CSR upload makes
  /// the default stream wait for the values' copy, so that work queued next on it (an SDDMM)
  /// reads them complete; call it right before queuing such work.
  const float* values() const;

 private:
  struct Buffers;
  /// Checks and uploads a COO matrix (both constructors end here for small S).
  void upload_coo(const course::CooMatrix& matrix);
  /// Uploads a CSR matrix with valid sizes and checks it on the GPU (csr_pattern_kernel).
  void upload_csr_on_gpu(const course::CsrMatrix& matrix, bool ones);
  /// Sets max_panel_density_ from panel_nnz_.
  void compute_max_panel_density();
  /// Sets panel_spans_ from the two ints per panel that widen_panel_span wrote.
  void decode_panel_spans(const int* span_words);
  int rows_ = 0;
  int cols_ = 0;
  std::int64_t nnz_ = 0;
  double max_panel_density_ = 0.0;
  bool unit_values_ = false;
  std::vector<std::int64_t> panel_nnz_;
  std::vector<PanelSpan> panel_spans_;
  std::unique_ptr<Buffers> buffers_;
};

/// @brief Tuning knobs; the defaults are the tuned values.
struct Options {
  int dense_warps_x =
      4;  ///< approach 2: warps per block along the tile columns (4: the note's 128×4)
  int dense_warps_y =
      4;  ///< approach 2: warps per block along the tile rows (1×32 = the note's 32×32)
  int group_lanes = 0;  ///< approach 4: lanes per nonzero (4, 8, 16, 32; 0: 4 up to inner=256,
                        ///< doubling with inner)
  /// approach 4: a 64-row panel goes to Tensor Cores at this density, measured over the
  /// columns its nonzeros span
  double tc_density = 0.05;
  /// approach 4: Tensor Cores only when the dense panels hold at least this many nonzeros
  /// (below, one wave of lane groups finishes before a Tensor Core block's chain of loads)
  long long tc_min_nnz = 131072;
  /// approach 4: 64×64 tiles wholly in S run as plain dense Tensor Core tiles (full_tiles.hpp)
  bool full_tiles = true;
  /// approach 4: full tiles only when they hold at least this many nonzeros together (below,
  /// the lane groups compute them in the time of the search's and the tiles' launches)
  long long full_tile_min_nnz = 65536;
  int lane_iterations =
      0;  ///< approach 4: runs of nonzeros per lane-group block (0: automatic, 1..8 by size)
  bool tile_ranges =
      true;  ///< approach 3: false runs the note's COO version 1 (every warp scans all nnz)
  std::size_t dense_limit_elements = std::size_t{1} << 32;  ///< approach 2: largest dense product
};

/// @brief Bytes approach 2 needs for its dense product of rows×cols (padded to 16), without
/// allocating: the figure its refusal names.
/// @param rows rows of S
/// @param cols columns of S
/// @return bytes of the padded float product
std::size_t dense_product_bytes(int rows, int cols);

struct DensePanelChoice;

/// @brief An approach's preprocessing of S, done once, reused by every run.
///
/// Construction does the work that depends only on S (for approach 3 the grouping of the
/// nonzeros by 16×16 tile on the GPU, for approach 4 the classification of 64-row panels from
/// the pattern's counts and its upload, for approach 2 the dense buffer) and waits for it, so
/// its wall time is the preprocessing time. Approach 2 throws course::DeviceMemoryError when its
/// dense product does not fit, or std::length_error when it passes Options::dense_limit_elements.
class Plan {
 public:
  /// @brief Preprocesses @p pattern for @p approach.
  /// @param approach which approach
  /// @param pattern S on the device (must outlive the plan)
  /// @param inner inner (approach 2 sizes nothing by it; kept for the checks)
  /// @param options tuning
  Plan(Approach approach, const DevicePattern& pattern, int inner, const Options& options = {});
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  /// @brief Runs the SDDMM: writes pattern.nnz() floats to @p output (device memory), in S's
  /// order. Asynchronous on the default stream (time it with course::time_gpu).
  /// @param operands A and Bᵀ; their rows, cols must equal S's shape and inner the plan's
  /// @param output device array of pattern.nnz() floats
  void run(const DenseOperands& operands, float* output) const;

  /// @brief The approach.
  Approach approach() const { return approach_; }
  /// @brief Non-empty 16×16 tiles (approach 3) or Tensor Core 64-row panels (approach 4;
  /// each covers the column blocks its nonzeros span).
  std::int64_t tensor_core_units() const { return tensor_core_units_; }
  /// @brief Approach 4: the 64×64 tiles wholly in S that run as plain dense Tensor Core
  /// tiles (full_tiles.hpp; those inside dense panels included, which stay idle).
  std::int64_t full_tiles() const { return full_tiles_; }
  /// @brief Device bytes the plan holds beyond S.
  std::size_t workspace_bytes() const;

 private:
  struct State;
  Approach approach_;
  const DevicePattern* pattern_;
  int inner_;
  Options options_;
  std::int64_t tensor_core_units_ = 0;
  std::int64_t full_tiles_ = 0;
  std::unique_ptr<State> state_;
  /// Approach 4's preprocessing: the full tiles, the dense panels among the rest, and the
  /// list of the entries left to the lane groups.
  void prepare_hybrid();
};

/// @brief Convenience: preprocess and run once (tests, the step program).
/// @param approach which approach
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @param output device array of pattern.nnz() floats
/// @param options tuning
void sddmm(Approach approach, const DevicePattern& pattern, const DenseOperands& operands,
           float* output, const Options& options = {});

/// @brief Σ_k |A(row_e,k)|·|B(k,col_e)|·|S_e| for every nonzero (CUDA cores, float): the
/// scale of each sampled value's rounding, used by the benchmark's tolerance.
/// @param pattern S on the device
/// @param operands A and Bᵀ
/// @param output device array of pattern.nnz() floats
void sampled_magnitude(const DevicePattern& pattern, const DenseOperands& operands, float* output);

/// @brief Fills a device rows×cols half matrix (leading dimension ld) with values uniform in
/// [-1, 1) derived from a hash of (seed, index): big inputs without host-side generation.
/// @param matrix device pointer
/// @param rows number of rows
/// @param cols number of columns
/// @param ld leading dimension (>= cols); the padding is set to zero
/// @param seed seed
void fill_random_half(__half* matrix, int rows, int cols, int ld, std::uint64_t seed);

/// @brief Converts @p count halves to floats on the device (inputs of the fp32 cuSPARSE run).
/// @param input device halves
/// @param output device floats
/// @param count number of elements
void convert_half_to_float(const __half* input, float* output, std::size_t count);

/// @brief Transposes a rows×cols float matrix (row-major, contiguous) on the device.
/// @param input device rows×cols
/// @param output device cols×rows
/// @param rows rows of @p input
/// @param cols columns of @p input
void transpose_float(const float* input, float* output, int rows, int cols);

}  // namespace course::step5
