/// @file panel_cost_fixtures.hpp
/// @brief Synthetic masks (banded stiffness-like, block-sparse, uniformly scattered) and
/// host_figures: each 64-row panel's span, full tiles and masked tiles counted on the host,
/// independently of the GPU searches that gather the same figures in the plan.
///
/// Step 5, going further, tests: the masks the tests of the panel choice by cost use, and the
/// figures of their 64-row panels counted on the host.
/// Read first: ../panel_cost_choice.hpp (PanelFigures).
#pragma once

#include "common/sparse_matrix.hpp"
#include "step5_tensor_core_sddmm/going_further/panel_cost_choice.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace course::step5::testing {

/// @brief A mask from a rule on (row, col), every value one (the host figures read no value).
/// @param rows rows of S
/// @param cols columns of S
/// @param keep whether (row, col) is an entry
/// @return S, sorted row-major
course::CooMatrix pattern_of(int rows, int cols, const std::function<bool(int, int)>& keep);

/// @brief A banded stiffness-like mask: the diagonal, and 6×6 node blocks within
/// @p half_width of it, a share @p percent of them kept (bcsstk16's panels hold 8–21 % of
/// their span).
/// @param size rows and columns
/// @param half_width the band's half width in columns
/// @param percent share of the node blocks kept, 0..100
/// @return S
course::CooMatrix banded_mask(int size, int half_width, unsigned percent);

/// @brief A block mask: @p block-square blocks, a share @p percent of them kept.
/// @param size rows and columns
/// @param block the blocks' edge
/// @param percent share of the blocks kept, 0..100
/// @return S
course::CooMatrix block_sparse_mask(int size, int block, unsigned percent);

/// @brief A uniformly scattered mask: each position an entry with probability
/// @p per_mille / 1000, drawn from @p seed (no structure for any tile to find).
/// @param rows rows of S
/// @param cols columns of S
/// @param per_mille entries per thousand positions, 0..1000
/// @param seed the draw
/// @return S
course::CooMatrix scattered_mask(int rows, int cols, unsigned per_mille, std::uint64_t seed);

/// @brief The figures of each 64-row panel of @p s as the plan gathers them, counted on the
/// host: spans in 64-column blocks, 64×64 tiles wholly in S, and the masked 16×16 tiles among
/// the other entries (at least @p min_entries entries and a row of at least @p min_run), their
/// steps counted per 64-row panel and tile column (super-panels of four 16-row panels).
/// @param s the mask
/// @param min_entries TileThreshold::min_entries
/// @param min_run TileThreshold::min_run
/// @return one per 64-row panel
std::vector<course::step5::PanelFigures> host_figures(const course::CooMatrix& s, int min_entries,
                                                      int min_run);

/// @brief The H100's choice for @p s at @p inner with the plan's defaults (tc_density,
/// tc_min_nnz, the masked tiles' threshold), from host_figures.
/// @param s the mask
/// @param inner the inner size
/// @return the plan
course::step5::PanelPlan h100_choice(const course::CooMatrix& s, int inner);

/// @brief Panels a plan sends to the dense-panel kernel.
/// @param plan the plan
/// @return the count
std::int64_t dense_count(const course::step5::PanelPlan& plan);

}  // namespace course::step5::testing
