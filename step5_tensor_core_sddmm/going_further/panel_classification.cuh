/// @file panel_classification.cuh
/// @brief The 64-row panels of S from which approach 4 decides where Tensor Cores pay off.
///
/// Step 5, approach 4 (going further): why S is cut into 64-row panels.
/// Read first: the lesson's approach 3 (its tiles), then sddmm_hybrid_panel_choice.cu.
///
/// A block tile of 64×64 outputs computed with WMMA reads 64 rows of A and 64 rows of Bᵀ
/// once, about 16 bytes per output position at inner = 256, whereas the CUDA-core path reads a
/// row of Bᵀ (512 bytes) per nonzero. Tensor Cores therefore pay off from a density of a few
/// percent; approach 4 sends a panel to them from HybridOptions::tc_density (default 0.05).
/// A panel's density is measured over the columns its nonzeros span, not over all cols: a
/// banded matrix (bcsstk16: 60 nonzeros per row near the diagonal) has 1 % density over cols but
/// 20–40 % within its band, and only the band's block tiles go to Tensor Cores.
///
/// The counts and spans come with the upload of S (PanelPattern::panels, panel_pattern.hpp):
/// from CSR by csr_pattern_kernel (csr_pattern_upload.cuh) and the row offsets, or on the host
/// for a small S; panel_statistics() measures those of a pattern uploaded otherwise.
///
/// The panel height, kPanelRows = 64 (the height of a block tile of the dense-panel kernel),
/// is defined with the statistics, in panel_statistics.hpp.
#pragma once

#include "step5_tensor_core_sddmm/going_further/panel_statistics.hpp"
