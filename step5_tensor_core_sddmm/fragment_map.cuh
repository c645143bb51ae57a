/// @file fragment_map.cuh
/// @brief Which element of the output tile each lane holds in a WMMA float accumulator.
///
/// CUDA documents the accumulator fragment as opaque: `frag.x[index]` of lane `lane` is
/// *some* element of the tile. The mapping below is what Ampere and Hopper (sm_80 and
/// newer) use; it is the register layout of the `mma.sync.m16n8k16` instruction that WMMA
/// is built on there. `fragment_layout` measures it on the running GPU and the test
/// `fragment map equals the hardware layout` compares it with these functions, so a GPU
/// with another layout (Volta and Turing differ) is caught rather than silently assumed.
#pragma once

#include <cuda_runtime_api.h>  // __host__ __device__ also in host-only translation units

namespace course::step5 {

/// @brief A position inside a fragment's tile.
struct FragmentElement {
  int row;  ///< row inside the tile
  int col;  ///< column inside the tile
};

/// @brief A lane and a register index of an accumulator fragment.
struct FragmentSlot {
  int lane;   ///< lane of the warp, 0..31
  int index;  ///< index into frag.x, 0..7
};

/// @brief The WMMA shapes with fp16 inputs and a float accumulator.
enum class WmmaShape {
  m16n16k16,  ///< 16×16 output tile
  m32n8k16,   ///< 32 rows × 8 columns
  m8n32k16    ///< 8 rows × 32 columns
};

/// @brief Number of accumulator elements each lane holds (256 outputs / 32 lanes).
constexpr int kAccumulatorElementsPerLane = 8;

/// @brief Element of the 16×16 tile held by @p lane in frag.x[@p index] (sm_80+).
///
/// Lanes form 8 groups of 4 (group = lane / 4). A group owns rows `group` and `group + 8`;
/// inside it, lane % 4 picks a pair of adjacent columns. Index bit 0 picks the column of the
/// pair, bit 1 the upper or lower half of the tile, bit 2 the left or right 8 columns.
/// @param lane lane of the warp, 0..31
/// @param index register of the fragment, 0..7
/// @return the row and column inside the tile
__host__ __device__ constexpr FragmentElement accumulator_element_16x16(int lane, int index) {
  return {(lane >> 2) + 8 * ((index >> 1) & 1), 2 * (lane & 3) + (index & 1) + 8 * (index >> 2)};
}

/// @brief Inverse of accumulator_element_16x16: who holds element (@p row, @p col).
/// @param row row inside the 16×16 tile
/// @param col column inside the 16×16 tile
/// @return the lane and the index into frag.x
__host__ __device__ constexpr FragmentSlot accumulator_slot_16x16(int row, int col) {
  return {(row & 7) * 4 + ((col & 7) >> 1), (col & 1) + 2 * (row >> 3) + 4 * (col >> 3)};
}

/// @brief Element of the 32×8 tile held by @p lane in frag.x[@p index] (sm_80+): two
/// 16×8 halves stacked; index bit 2 picks the lower half.
/// @param lane lane of the warp, 0..31
/// @param index register of the fragment, 0..7
/// @return the row and column inside the tile
__host__ __device__ constexpr FragmentElement accumulator_element_32x8(int lane, int index) {
  return {(lane >> 2) + 8 * ((index >> 1) & 1) + 16 * (index >> 2), 2 * (lane & 3) + (index & 1)};
}

/// @brief Element of the 8×32 tile held by @p lane in frag.x[@p index] (sm_80+, measured
/// by fragment_layout on an H200): the transpose of the 32×8 layout. Lane group lane / 4
/// picks the column inside each 8-column block, lane % 4 a pair of rows, index bit 0 the row
/// of the pair and index / 2 the 8-column block.
/// @param lane lane of the warp, 0..31
/// @param index register of the fragment, 0..7
/// @return the row and column inside the tile
__host__ __device__ constexpr FragmentElement accumulator_element_8x32(int lane, int index) {
  return {2 * (lane & 3) + (index & 1), (lane >> 2) + 8 * (index >> 1)};
}

/// @brief The map for any of the three shapes.
/// @param shape the WMMA shape
/// @param lane lane of the warp, 0..31
/// @param index register of the fragment, 0..7
/// @return the row and column inside the tile
__host__ __device__ constexpr FragmentElement accumulator_element(WmmaShape shape, int lane,
                                                                  int index) {
  return shape == WmmaShape::m16n16k16  ? accumulator_element_16x16(lane, index)
         : shape == WmmaShape::m32n8k16 ? accumulator_element_32x8(lane, index)
                                        : accumulator_element_8x32(lane, index);
}

}  // namespace course::step5
