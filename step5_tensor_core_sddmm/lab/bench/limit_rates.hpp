/// @file limit_rates.hpp
/// @brief The rates measured at start-up (DRAM copy bandwidth, L2 gather bandwidth with rows
/// of Bᵀ read at random, cuBLAS's dense fp16 rate, the launch floor) and a case's LIMIT: the
/// largest of its DRAM bytes over the DRAM rate, the L2 bytes its plan gathers over the
/// gather rate, its Tensor Core FLOPs over the dense rate, and the launch floor.
///
/// Step 5, the lab: the LIMIT column, the least time a case's plan can take on this GPU.
/// Read first: going_further/masked_tile_plan.hpp (MaskedPlanFigures: what the plan moves).
#pragma once

#include "step5_tensor_core_sddmm/going_further/masked_tile_plan.hpp"

#include <cublas_v2.h>

#include <cstdint>
#include <string>

namespace course::step5::bench {

/// @brief The rates the LIMIT column divides by, measured once per run.
struct LimitRates {
  double dram_bytes_per_second = 0.0;       ///< device-to-device copy: bytes read + written
  double l2_gather_bytes_per_second = 0.0;  ///< 512-byte rows at random from an L2-sized set
  double dense_flops_per_second = 0.0;      ///< cuBLAS fp16 GEMM (fp32 sums and output)
  double launch_seconds = 0.0;              ///< an empty kernel timed like a run
};

/// @brief Measures the four rates (about a second): the best of several 512 MiB copies, of
/// several gathers of 4 million rows of 512 bytes (4 lanes a row, 16-byte loads, rows drawn
/// by a hash from a set of half the L2 cache), of several 8192×8192×4096 GEMMs, and the
/// median of 50 empty launches.
/// @param cublas a cuBLAS handle
/// @return the rates
LimitRates measure_limit_rates(cublasHandle_t cublas);

/// @brief A case's LIMIT and which bound sets it.
struct CaseLimit {
  double dram_seconds = 0.0;    ///< DRAM bytes / DRAM rate
  double gather_seconds = 0.0;  ///< L2 bytes gathered / gather rate
  double tensor_seconds = 0.0;  ///< Tensor Core FLOPs / dense rate
  double launch_seconds = 0.0;  ///< the launch floor
  /// @brief The largest of the four.
  /// @return seconds
  double seconds() const;
  /// @brief "dram", "gather", "tensor" or "launch": the bound that sets it.
  /// @return the name
  std::string bound() const;
};

/// @brief The LIMIT of a case whose plan is @p figures: DRAM moves A and Bᵀ once in fp16,
/// S's row offsets and columns (and values unless a pattern), the outputs, and what the
/// dense path adds; L2 serves the rows the plan gathers; Tensor Cores do its FLOPs.
/// @param figures the plan's figures (plan_masked_tiles)
/// @param rows rows of S
/// @param cols columns of S
/// @param inner the inner size
/// @param nnz entries of S
/// @param with_values S's values are read (not a pattern)
/// @param rates the measured rates
/// @return the limit
CaseLimit case_limit(const MaskedPlanFigures& figures, int rows, int cols, int inner,
                     std::int64_t nnz, bool with_values, const LimitRates& rates);

}  // namespace course::step5::bench
