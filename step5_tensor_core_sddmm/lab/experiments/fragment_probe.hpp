/// @file fragment_probe.hpp
/// @brief The fragment-layout experiment: ask the running GPU which tile element each lane
/// holds in a WMMA float accumulator fragment.
///
/// Step 5, experiment "which lane holds which element" (the lesson): the probe.
/// Read first: ../fragment_map.cuh (the maps the probe compares with the hardware).
#pragma once

#include "step5_tensor_core_sddmm/fragment_map.cuh"

#include <string>
#include <vector>

namespace course::step5 {

/// @brief Rows and columns of a WMMA shape's accumulator tile.
/// @param shape the shape
/// @param rows receives rows
/// @param cols receives cols
void accumulator_tile_size(WmmaShape shape, int& rows, int& cols);

/// @brief Name of a shape, e.g. "16x16x16".
/// @param shape the shape
/// @return its name
std::string shape_name(WmmaShape shape);

/// @brief Measures the layout on the current GPU.
///
/// A float matrix whose element (r, c) holds r·cols + c is loaded with wmma::load_matrix_sync
/// into an accumulator fragment; every lane writes its frag.x[i] out, and each value names
/// the element it came from.
/// @param shape the WMMA shape
/// @return 32 × 8 entries: element [lane * 8 + index] is held by lane in frag.x[index]
std::vector<FragmentElement> measure_accumulator_layout(WmmaShape shape);

/// @brief The layout as a Markdown table in the note's format (lane × index -> [row,col]).
/// @param layout result of measure_accumulator_layout
/// @return the table
std::string layout_table(const std::vector<FragmentElement>& layout);

}  // namespace course::step5
