"""The planted bugs of the mutation check (grading/mutation_check.py): data only.

Each mutation replaces an exact text (which must occur exactly once) of a reference file.
`checks` says what is expected to catch it (documentation, shown by --list); the mutation
check grades the mutated step as grade.py does and requires it to lose points. The "memory"
family gives right values but breaks a memory or synchronization rule: only the
compute-sanitizer runs of the grade (or the warp-mask check of step 5) can catch it.
"""
import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class Check:
    """What is expected to catch a mutation: a case of the judge, plain or under a sanitizer
    (documentation: the mutation check grades the whole step)."""
    tests: str  # a case of the judge (grading/judge/cases.cpp), or a course test
    tool: str = ""  # "", or a compute-sanitizer tool: memcheck, racecheck, synccheck, ...

    def label(self):
        where = f"`{self.tests}`"
        return f"{self.tool} {where}" if self.tool else where


@dataclasses.dataclass(frozen=True)
class Mutation:
    """A known bug: replace `original` (which must occur once in `file`) by `replacement`,
    and each (file, original, replacement) of `more` the same way (a bug that spans files)."""
    name: str
    step: str  # step folder
    file: str  # relative to the repository root
    original: str
    replacement: str
    checks: tuple  # Check objects: what is expected to catch it (documentation)
    family: str = "results"  # "memory": right values, broken memory or synchronization rules
    more: tuple = ()  # further edits: (file, original, replacement) triples
    expect: str = "loses"  # "loses": fewer points; "zero": its step scores 0 (the cheat set)

    def edits(self):
        """Every edit: (file, original, replacement), the main one first."""
        return ((self.file, self.original, self.replacement),) + tuple(self.more)


def barrier_removed(name, step, file, barrier, tests):
    """A missing __syncthreads(): in `barrier` (the barrier's line, with what precedes it when
    the line alone is not unique) the call and the rest of its line become a comment. The
    race it opens may still give right values, so racecheck is what catches it."""
    removed = re.sub(r"__syncthreads\(\);.*$", "// (mutation: __syncthreads() removed)", barrier)
    return Mutation(name, step, file, barrier, removed, (Check(tests, "racecheck"),), "memory")


# ---- Step 1 to 3 (reference kernels) --------------------------------------------------
S1 = "step1_naive"
S1_FILE = "step1_naive/naive_single_block.cuh"
S1_TESTS = "step1 small integers on sides from 1 to 32"
S2 = "step2_three_approaches"
S2_A1 = "step2_three_approaches/single_block_loop.cuh"
S2_A2 = "step2_three_approaches/one_thread_per_element.cuh"
S2_A3 = "step2_three_approaches/output_tiles_no_shared.cuh"
S2_T1 = "step2 approach 1 on ragged shapes"
S2_T2 = "step2 approach 2 on ragged shapes"
S2_T3 = "step2 approach 3 on ragged shapes"
S3 = "step3_shared_tiling"
S3_FILE = "step3_shared_tiling/tiled_shared.cuh"
S3_TESTS = "step3 small integers on multiples of 32"

MUTATIONS = [
    Mutation("step1: row and column swapped in the thread map", S1, S1_FILE,
             "  const int row = threadIdx.y;  // one block: the thread's position is the "
             "element's position\n  const int col = threadIdx.x;",
             "  const int row = threadIdx.x;\n  const int col = threadIdx.y;",
             (Check(S1_TESTS),)),
    Mutation("step1: inner loop stops one short", S1, S1_FILE,
             "k < inner; ++k", "k < inner - 1; ++k",
             (Check(S1_TESTS),)),
    Mutation("step1: A indexed with the wrong row length", S1, S1_FILE,
             "a[row * inner + k]", "a[row * cols + k]",
             (Check(S1_TESTS),)),
    Mutation("step1: launcher's block dimensions swapped", S1, "step1_naive/step1_launchers.cu",
             "const dim3 block(sizes.cols, sizes.rows);",
             "const dim3 block(sizes.rows, sizes.cols);",
             (Check(S1_TESTS),)),
    Mutation("step2 A1: last row of C skipped (wrong loop bound)", S2, S2_A1,
             "row < rows; row += kBlockSide", "row < rows - 1; row += kBlockSide",
             (Check(S2_T1),)),
    Mutation("step2 A1: column taken from threadIdx.y (wrong thread map)", S2, S2_A1,
             "for (int col = threadIdx.x; col < cols;", "for (int col = threadIdx.y; col < cols;",
             (Check(S2_T1),)),
    Mutation("step2 A2: boundary check on the column dropped", S2, S2_A2,
             "  if (col >= cols) {\n    return;\n  }\n", "",
             (Check(S2_T2, "memcheck"),), "memory"),
    Mutation("step2 A2: B indexed with the wrong row length", S2, S2_A2,
             "b[k * cols + col]", "b[k * inner + col]",
             (Check(S2_T2),)),
    Mutation("step2 A3: boundary check on the row dropped", S2, S2_A3,
             "if (row >= rows || col >= cols) {", "if (col >= cols) {",
             (Check(S2_T3, "memcheck"),), "memory"),
    Mutation("step2 A3: boundary check on the column dropped", S2, S2_A3,
             "if (row >= rows || col >= cols) {", "if (row >= rows) {",
             (Check(S2_T3, "memcheck"),), "memory"),
    Mutation("step2 A3: row tile index off by one", S2, S2_A3,
             "const int row = blockIdx.y * kTileWidth + threadIdx.y;",
             "const int row = (blockIdx.y + 1) * kTileWidth + threadIdx.y;",
             (Check(S2_T3),)),
    Mutation("step2 A3: blockIdx.x and blockIdx.y swapped (row and column of the tile)", S2,
             S2_A3,
             "  const int row = blockIdx.y * kTileWidth + threadIdx.y;\n"
             "  const int col = blockIdx.x * kTileWidth + threadIdx.x;",
             "  const int row = blockIdx.x * kTileWidth + threadIdx.y;\n"
             "  const int col = blockIdx.y * kTileWidth + threadIdx.x;",
             (Check(S2_T3),)),
    barrier_removed("step3: __syncthreads after loading the tiles missing", S3, S3_FILE,
                    "elements loaded by others.\n    __syncthreads();", S3_TESTS),
    barrier_removed("step3: __syncthreads before the next phase missing", S3, S3_FILE,
                    "    // overwrites them.\n    __syncthreads();", S3_TESTS),
    Mutation("step3: column tile index off by one", S3, S3_FILE,
             "const int col = blockIdx.x * kTileWidth + tile_col;",
             "const int col = (blockIdx.x + 1) * kTileWidth + tile_col;",
             (Check(S3_TESTS),)),
    Mutation("step3: last phase skipped (wrong loop bound)", S3, S3_FILE,
             "phase_start < inner; phase_start += kTileWidth",
             "phase_start < inner - kTileWidth; phase_start += kTileWidth",
             (Check(S3_TESTS),)),
    Mutation("step3: row and column of the B tile swapped in the inner product", S3, S3_FILE,
             "tile_a[tile_row][tile_k] * tile_b[tile_k][tile_col]",
             "tile_a[tile_row][tile_k] * tile_b[tile_col][tile_k]",
             (Check(S3_TESTS),)),
    Mutation("step3: A tile loaded one column off", S3, S3_FILE,
             "a[row * inner + phase_start + tile_col]",
             "a[row * inner + phase_start + tile_col + 1]",
             (Check(S3_TESTS),)),
]

# ---- Step 4 (reference kernels) -------------------------------------------------------
S4 = "step4_boundary_checks"
S4_CHECKED = "step4_boundary_checks/tiled_checked.cuh"
S4_FAST = "step4_boundary_checks/going_further/fast_gemm.cuh"
S4_CURSOR = "step4_boundary_checks/going_further/tile_cursor.cuh"
S4_EDGES = "step4 checked tiles at each tile edge"
S4_RAGGED = "step4 checked tiles on large ragged shapes"
S4_SPLIT = "split-K is right when the split does not divide the inner tiles"
S4_PADDED = "step4_boundary_checks/padded.cu"
S4_RECT = "step4_boundary_checks/rect_tiles.cuh"
MUTATIONS += [
    # Out-of-range A (B) entries meet zeros of the B (A) tile, so dropping check 1 or 2
    # changes no result: only memcheck sees the reads past the arrays.
    Mutation("step4 checked: M-tile check (1) dropped", S4, S4_CHECKED,
             "(row < rows && a_col < inner) ? a[row * inner + a_col] : 0.0f",
             "a[row * inner + a_col]",
             (Check(S4_EDGES, "memcheck"),), "memory"),
    Mutation("step4 checked: N-tile check (2) dropped", S4, S4_CHECKED,
             "(b_row < inner && col < cols) ? b[b_row * cols + col] : 0.0f",
             "b[b_row * cols + col]",
             (Check(S4_EDGES, "memcheck"),), "memory"),
    Mutation("step4 checked: P store check (3) dropped", S4, S4_CHECKED,
             "  if (row < rows && col < cols) {\n    c[row * cols + col] = sum;\n  }",
             "  c[row * cols + col] = sum;",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
    # The fast kernel's loads (tile_cursor.cuh) clamp A's rows and B's columns into the matrix
    # once and check only the inner dimension, in the last tile. Without the clamp, the rows of A
    # past the last row are read past the end of A: they feed only rows of C that are never
    # stored, so only memcheck sees it.
    Mutation("step4 fast: A's row clamp dropped (edge rows)", S4, S4_CURSOR,
             "row = min(row, matrix_rows - 1);", "row = row + 0;",
             (Check(S4_EDGES, "memcheck"),), "memory"),
    Mutation("step4 fast: scalar P store check dropped (edge path)", S4, S4_FAST,
             "if (c_row < rows && c_col + part < cols) {", "if (true) {",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
    # The scalar edge path (inner % 4 != 0): one column of each group of four taken from the
    # wrong place, a visible wrong result.
    Mutation("step4 fast: scalar tile load takes the wrong column (edge path)", S4, S4_CURSOR,
             "loaded.z = FULL || first + 2 < inner ? start[2] : 0.0f;",
             "loaded.z = FULL || first + 2 < inner ? start[1] : 0.0f;",
             (Check(S4_EDGES),)),
    # B's scalar columns past the last one are read past the end of B's rows: they feed only
    # columns of C that are never stored, so only memcheck sees it.
    Mutation("step4 fast: scalar tile column clamp dropped (edge path)", S4, S4_CURSOR,
             "loaded.w = start[min(3, last_part)];", "loaded.w = start[3];",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck")), "memory"),
    # The inner check of the float4 path gone: a ragged last tile (130x204x132: inner a multiple
    # of 4, not of 8) reads past the inner dimension (the next row of A), a wrong result.
    Mutation("step4 fast: float4 inner check dropped (last tile)", S4, S4_CURSOR,
             "        if (FULL || first < inner) {", "        if (true) {",
             (Check(S4_SPLIT),)),
    # The ragged last tile counted among the full ones: loaded with no check at all, it reads
    # past the inner dimension once the loop of two tiles a pass reaches it (inner 2049).
    Mutation("step4 fast: the ragged last tile loaded as a full one", S4, S4_FAST,
             "const int full_tiles = inner / kBK;",
             "const int full_tiles = (inner + kBK - 1) / kBK;",
             (Check(S4_RAGGED),)),
    # Padding one short of a multiple of the tile: the unchecked kernel's grid then misses
    # the last tile column and its rows have the wrong length.
    Mutation("step4 padded: padded row length one short of a tile multiple", S4, S4_PADDED,
             "                          round_up(sizes.cols, kTileWidth));",
             "                          round_up(sizes.cols, kTileWidth) - 1);",
             (Check(S4_EDGES),)),
    # RectTiling's static_asserts (TILE_COLS % BLOCK_COLS == 0) make the stride kBlockCols
    # cover the tile exactly; a thread that strides by its own output count instead writes
    # its sums into the wrong (overlapping) columns.
    Mutation("step4 rect tiles: output columns strided by kColsPerThread, not kBlockCols", S4,
             S4_RECT,
             "const int c_col = block_col0 + threadIdx.x + j * Tiling::kBlockCols;",
             "const int c_col = block_col0 + threadIdx.x + j * Tiling::kColsPerThread;",
             (Check(S4_EDGES),)),
    Mutation("step4 rect tiles: M-tile check (1) dropped", S4, S4_RECT,
             "(a_row < rows && a_col < inner) ? a[a_row * inner + a_col] : 0.0f",
             "a[a_row * inner + a_col]",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
]

# ---- Step 5 (reference kernels) -------------------------------------------------------
S5 = "step5_tensor_core_sddmm"
S5_WARP = "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"
S5_TILES = "step5_tensor_core_sddmm/sddmm_tile_grouped.cuh"
S5_SHAPES = "step5 approach 1 with sides not multiples of 16"
MUTATIONS += [
    # The element-to-slot map that approach 3's write-back reads its results through (the
    # lane-to-element map beside it serves the fragment_layout lab and the course tests only:
    # transposing that one changes nothing a case of the judge runs).
    Mutation("step5: element-to-slot map of the 16x16 accumulator transposed", S5,
             "step5_tensor_core_sddmm/fragment_map.cuh",
             "  return {(row & 7) * 4 + ((col & 7) >> 1), (col & 1) + 2 * (row >> 3) + "
             "4 * (col >> 3)};",
             "  return {(col & 7) * 4 + ((row & 7) >> 1), (row & 1) + 2 * (col >> 3) + "
             "4 * (row >> 3)};",
             (Check("step5 approach 3 with sides not multiples of 16"),)),
    # A mask that leaves out calling lanes is undefined behaviour that gave the right sums on
    # an H200 with synccheck silent; the shuffles check their masks (warp_shuffle_check.cuh,
    # STEP5_CHECK_WARP_MASKS), so the kernel traps and the test fails with a CUDA error.
    Mutation("step5: warp kernel's shuffle mask names only half the lanes", S5, S5_WARP,
             "constexpr unsigned kAllLanes = 0xFFFFFFFFu;",
             "constexpr unsigned kAllLanes = 0x0000FFFFu;",
             (Check(S5_SHAPES),), "memory"),
    Mutation("step5: warp kernel's butterfly skips the offset-16 step", S5, S5_WARP,
             "for (int offset = 16; offset > 0; offset >>= 1) {",
             "for (int offset = 8; offset > 0; offset >>= 1) {",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouped: write-back uses the transposed lane-to-element map", S5,
             S5_TILES,
             "const FragmentSlot slot = accumulator_slot_16x16(row_in_tile, col_in_tile);",
             "const FragmentSlot slot = accumulator_slot_16x16(col_in_tile, row_in_tile);",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouped: a tile's segment ends one nonzero early", S5, S5_TILES,
             "const int end = kTileRanges ? tile_offsets[tile + 1] : nnz;",
             "const int end = kTileRanges ? tile_offsets[tile + 1] - 1 : nnz;",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouping: segment offsets shifted by one tile", S5,
             "step5_tensor_core_sddmm/tile_grouping.cu",
             "groups.tile_offsets.data() + 1, tile_count)",
             "groups.tile_offsets.data(), tile_count)",
             (Check(S5_SHAPES),)),
]

# ---- PENDING ---------------------------------------------------------------------------
# Mutations written against files still being changed go here: they run only with
# --include-pending (or --only-pending) and are not part of the pass/fail verdict until
# they are moved into MUTATIONS (check the texts and test names first: a stale text is
# reported, never skipped silently). Empty: every step's list is final.
PENDING_MUTATIONS = []

# ---- Memory-safety family: right values (mostly), broken memory or synchronization rules --
S4_LAUNCHERS = "step4_boundary_checks/step4_launchers.cu"
S4_K1 = "step4 checked tiles with inner 1 and single rows and columns"
# The barriers of step 4's tiled kernels (their lines, comments included, occur once each).
S4_CHECKED_LOAD_BARRIER = ("    __syncthreads();  // the whole tile must be loaded before anyone "
                           "reads it")
S4_RECT_LOAD_BARRIER = ("    __syncthreads();  // both tiles must be complete before anyone "
                        "reads them")
S4_NEXT_PHASE_BARRIER = ("    __syncthreads();  // everyone must be done reading before the next "
                         "phase overwrites")
MUTATIONS += [
    # Load guards one past the end: the extra element meets a zero of the other tile, so
    # every value stays right; only the read past the array's end shows (memcheck).
    Mutation("step4 rect tiles: N-tile load guard off by one (n_col <= cols)", S4, S4_RECT,
             "(b_row < inner && b_col < cols) ? b[b_row * cols + b_col] : 0.0f",
             "(b_row < inner && b_col <= cols) ? b[b_row * cols + b_col] : 0.0f",
             (Check(S4_K1, "memcheck"),), "memory"),
    Mutation("step4 checked: M-tile load guard off by one (m_col <= inner)", S4, S4_CHECKED,
             "(row < rows && a_col < inner) ? a[row * inner + a_col] : 0.0f",
             "(row < rows && a_col <= inner) ? a[row * inner + a_col] : 0.0f",
             (Check(S4_K1, "memcheck"),), "memory"),
    # Missing barriers in step 4 (step 3's two are above): races that may give right values.
    *(barrier_removed(f"step4 {kernel}: barrier {when} missing", S4, file, barrier, S4_EDGES)
      for kernel, file, when, barrier in (
          ("checked", S4_CHECKED, "after loading the tiles", S4_CHECKED_LOAD_BARRIER),
          ("checked", S4_CHECKED, "before the next phase", S4_NEXT_PHASE_BARRIER),
          ("rect tiles", S4_RECT, "after loading the tiles", S4_RECT_LOAD_BARRIER),
          ("rect tiles", S4_RECT, "before the next phase", S4_NEXT_PHASE_BARRIER))),
    # A barrier only some threads reach (divergent): synccheck.
    Mutation("step4 checked: barrier after loading only for threads inside C", S4, S4_CHECKED,
             S4_CHECKED_LOAD_BARRIER,
             "    if (row < rows) {\n      __syncthreads();\n    }",
             (Check(S4_EDGES, "synccheck"),), "memory"),
    # Shared memory read before it is written: the B element is stored after the barrier,
    # so other threads may read the tile before it holds this phase's values.
    Mutation("step3: B tile element stored after the barrier (shared read before write)", S3,
             S3_FILE,
             "    tile_b[tile_row][tile_col] = b[(phase_start + tile_row) * cols + col];\n"
             "    // Wait until the whole tile is loaded: each thread next reads elements loaded "
             "by others.\n    __syncthreads();",
             "    __syncthreads();\n"
             "    tile_b[tile_row][tile_col] = b[(phase_start + tile_row) * cols + col];",
             (Check(S3_TESTS, "racecheck"),), "memory"),
    # A shuffle mask without lane 0, which is still in the loop (undefined behaviour that an
    # H200 runs with right sums); caught by the warp-mask check (STEP5_CHECK_WARP_MASKS).
    Mutation("step5: warp kernel's shuffle mask leaves out lane 0", S5, S5_WARP,
             "constexpr unsigned kAllLanes = 0xFFFFFFFFu;",
             "constexpr unsigned kAllLanes = 0xFFFFFFFEu;",
             (Check(S5_SHAPES),), "memory"),
    # Grids one block short on ragged shapes (plain division instead of ceil-division).
    Mutation("step4 launcher: checked kernel's grid one block short on ragged shapes", S4,
             S4_LAUNCHERS,
             "  const dim3 grid(ceil_div(sizes.cols, TILE), ceil_div(sizes.rows, TILE));\n"
             "  tiled_checked_kernel<TILE>",
             "  const dim3 grid(sizes.cols / TILE, sizes.rows / TILE);\n"
             "  tiled_checked_kernel<TILE>",
             (Check(S4_EDGES),), "memory"),
    Mutation("step2 launcher: approach 3's grid one block short on ragged shapes", S2,
             "step2_three_approaches/step2_launchers.cu",
             "const dim3 grid(static_cast<unsigned>(ceil_div<long long>(sizes.cols, "
             "kOutputTileWidth)),\n"
             "                  static_cast<unsigned>(ceil_div<long long>(sizes.rows, "
             "kOutputTileWidth)));",
             "const dim3 grid(sizes.cols / kOutputTileWidth, sizes.rows / kOutputTileWidth);",
             (Check(S2_T3),), "memory"),
    # A read of global memory nobody wrote, with right values: the student's launcher stages
    # C in a scratch buffer it never zeroes, and the kernel stores only values that differ
    # from what is there (so whatever the scratch held, the result is right). Only initcheck
    # sees it.
    Mutation("step1: kernel reads a scratch C nobody wrote (store only if changed)", S1, S1_FILE,
             "  c[row * cols + col] = sum;",
             "  if (c[row * cols + col] != sum) {  // (mutation: reads C before anyone wrote it)\n"
             "    c[row * cols + col] = sum;\n  }",
             (Check(S1_TESTS, "initcheck"),), "memory",
             more=(("step1_naive/step1_launchers.cu", "(a, b, c, sizes.inner, sizes.cols);",
                    "(a, b, staged, sizes.inner, sizes.cols);\n"
                    "  CUDA_CHECK(cudaMemcpyAsync(c, staged, sizeof(float) * sizes.rows * sizes.cols,\n"
                    "                             cudaMemcpyDeviceToDevice, stream));\n"
                    "  CUDA_CHECK(cudaStreamSynchronize(stream));\n"
                    "  CUDA_CHECK(cudaFree(staged));"),
                   ("step1_naive/step1_launchers.cu", "  const dim3 grid(1, 1);\n",
                    "  const dim3 grid(1, 1);\n"
                    "  float* staged = nullptr;  // (mutation: a scratch C, never zeroed)\n"
                    "  CUDA_CHECK(cudaMalloc(&staged, sizeof(float) * sizes.rows * sizes.cols));\n"))),
]

# ---- Issue 37 part B: the bugs the steps teach that only the runner's checks show ----------
# (launch_checks.hpp: shared memory poisoned with NaN before each product of steps 1 to 4,
# and every product launched with the runner's stream captured into a graph.)
S1_LAUNCHER = "step1_naive/step1_launchers.cu"
S4_INNER_1 = "step4 checked tiles with inner 1 and single rows and columns"
S4_SWEEP = "step4 checked tiles on every shape up to 20"
MUTATIONS += [
    # The zero fill past the edge is check 2's other half: without it the B slots past the
    # last row keep what the SM's shared memory held (A's zeros would hide a finite stale
    # value; the poison is NaN, and 0 x NaN is NaN) in the first phase of every product
    # whose inner size is under one tile.
    Mutation("step4 checked: B tile's zero fill past the last row missing (stale shared "
             "memory)", S4, S4_CHECKED,
             "    b_tile[tile_row][tile_col] = (b_row < inner && col < cols) ? b[b_row * cols + "
             "col] : 0.0f;",
             "    if (b_row < inner && col < cols) {  // (mutation: no zero fill past the edge)\n"
             "      b_tile[tile_row][tile_col] = b[b_row * cols + col];\n    }",
             (Check(S4_INNER_1), Check(S4_SWEEP))),
    Mutation("step4 checked: A tile's zero fill past the last column missing (stale shared "
             "memory)", S4, S4_CHECKED,
             "    a_tile[tile_row][tile_col] = (row < rows && a_col < inner) ? a[row * inner + "
             "a_col] : 0.0f;",
             "    if (row < rows && a_col < inner) {  // (mutation: no zero fill past the edge)\n"
             "      a_tile[tile_row][tile_col] = a[row * inner + a_col];\n    }",
             (Check(S4_INNER_1), Check(S4_SWEEP))),
    Mutation("step4 rect tiles: B tile's zero fill past the last row missing (stale shared "
             "memory)", S4, S4_RECT,
             "      b_tile[tile_depth][tile_col] =\n"
             "          (b_row < inner && b_col < cols) ? b[b_row * cols + b_col] : 0.0f;",
             "      if (b_row < inner && b_col < cols) {  // (mutation: no zero fill past the "
             "edge)\n        b_tile[tile_depth][tile_col] = b[b_row * cols + b_col];\n      }",
             (Check("step4 rectangular tiles with inner 1 and single rows and columns"),)),
    # A launcher that ignores its stream (an honest student's bug: the old runner only ever
    # passed the default stream): the launch goes to the legacy default stream, which the
    # runner's capture refuses.
    Mutation("step1 launcher: the stream argument ignored (launches on the default stream)", S1,
             S1_LAUNCHER,
             "  naive_single_block_kernel<<<grid, block, 0, stream>>>(a, b, c, sizes.inner, "
             "sizes.cols);",
             "  (void)stream;  // (mutation: the stream it is given is ignored)\n"
             "  naive_single_block_kernel<<<grid, block>>>(a, b, c, sizes.inner, sizes.cols);",
             (Check(S1_TESTS),)),
]

if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by grading/mutation_check.py, "
              "which is the program to run (python3 grading/mutation_check.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by grading/mutation_check.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
