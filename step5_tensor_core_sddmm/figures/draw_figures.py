#!/usr/bin/env python3
"""Draws step 5's pictures (PNG, beside this script), from rules the code follows.

    python3 step5_tensor_core_sddmm/figures/draw_figures.py [--out DIR]

Every picture is computed, not drawn by hand:

* step5_mask_tiles.png: a small mask S cut into 16x16 tiles, each tile's count of entries
  (approach 3 computes only the non-empty tiles);
* step5_xor_shuffle.png: which lanes `__shfl_xor_sync(mask, v, offset)` pairs, offset by
  offset, and the sums each lane holds after each step of the butterfly (approach 1);
* step5_fragment_layout.png: the lane and register holding each element of the 16x16
  float accumulator, from the same formula as fragment_map.cuh, checked here against the
  rows of note 002's table that the lesson quotes;
* step5_panels_lane_groups.png: approach 4's plan on a small mask: 64x64 tiles wholly in S,
  a dense 64-row panel, masked 16x16 tiles and the entries left to the lane groups, chosen
  by the plan's rules (with an illustrative tile threshold: the real one comes from the cost
  model and the GPU);
* step5_full_tile_search.png: the search for tiles wholly in S, drawn with 8x8 tiles (the
  code uses 64x64): the candidate test on the tile's first row, then one test per other row;
* step5_masked_tile.png: one masked 16x16 tile (a causal diagonal tile) described by its 16
  row starts and 16 column masks, and the position of one entry computed from them.

Needs Python 3 with matplotlib and numpy. The pictures depend on nothing measured, so they
change only when this script does.
"""
import argparse
import pathlib

try:  # --help and a bad argument need neither; drawing does (main() says so)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.patches as patches  # noqa: E402
    import matplotlib.pyplot as plt  # noqa: E402
    import numpy as np  # noqa: E402
    MISSING = None
except ImportError as error:
    MISSING = error

REPO = pathlib.Path(__file__).resolve().parents[2]
TILE = 16

# One palette for every picture: the same colour means the same path in each.
TENSOR = "#2b83ba"      # Tensor Core work (WMMA tiles)
FULL = "#1a4f7a"        # 64x64 tiles wholly in S
PANEL = "#7fb8da"       # dense 64-row panels
MASKED = "#fdae61"      # masked 16x16 tiles
LANES = "#d7191c"       # entries left to the lane groups (CUDA cores)
ENTRY = "#333333"       # an entry of S
GRID = "#999999"


def save(fig, out, name):
    path = out / name
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    print(path.relative_to(REPO) if REPO in path.parents else path)


# ---------------------------------------------------------------- the mask and its tiles
def example_mask(rows=64, cols=96, seed=5):
    """A small mask with three kinds of structure: scattered entries, a dense block and a
    band along the diagonal."""
    rng = np.random.default_rng(seed)
    mask = rng.random((rows, cols)) < 0.004
    mask[16:32, 48:64] |= rng.random((16, 16)) < 0.7  # a dense block
    for row in range(rows):  # a band of width 3 along the diagonal
        for col in range(max(0, row - 1), min(cols, row + 2)):
            mask[row, col] = True
    return mask


def draw_mask_tiles(out):
    mask = example_mask()
    rows, cols = mask.shape
    fig, ax = plt.subplots(figsize=(10.5, 7.6))
    for tile_row in range(rows // TILE):
        for tile_col in range(cols // TILE):
            block = mask[tile_row * TILE:(tile_row + 1) * TILE, tile_col * TILE:(tile_col + 1) * TILE]
            count = int(block.sum())
            x, y = tile_col * TILE, tile_row * TILE
            if count:
                ax.add_patch(patches.Rectangle((x, y), TILE, TILE, color=TENSOR, alpha=0.18, lw=0))
            ax.text(x + TILE - 0.8, y + 1.8, f"{count}", ha="right", va="center", fontsize=10,
                    color=TENSOR if count else GRID, fontweight="bold", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none"))
    entry_rows, entry_cols = np.nonzero(mask)
    ax.scatter(entry_cols + 0.5, entry_rows + 0.5, s=9, color=ENTRY, marker="s", lw=0)
    for x in range(0, cols + 1, TILE):
        ax.axvline(x, color=TENSOR, lw=1.2)
    for y in range(0, rows + 1, TILE):
        ax.axhline(y, color=TENSOR, lw=1.2)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, cols + 1, TILE))
    ax.set_yticks(range(0, rows + 1, TILE))
    ax.set_xlabel("column of S (and row of Bᵀ)")
    ax.set_ylabel("row of S (and row of A)")
    ax.set_title(f"A {rows}×{cols} mask S cut into 16×16 tiles: {int(mask.sum())} entries.\n"
                 "Each tile's count of entries at its top right. Approach 3 runs one warp (one WMMA\n"
                 "tile product) per shaded, non-empty tile, even for a tile holding a single entry",
                 fontsize=11)
    save(fig, out, "step5_mask_tiles.png")


# ---------------------------------------------------------------- the xor butterfly
def draw_xor_shuffle(out):
    lanes = 8
    offsets = [4, 2, 1]
    values = [[lane + 1 for lane in range(lanes)]]
    for offset in offsets:
        values.append([values[-1][lane] + values[-1][lane ^ offset] for lane in range(lanes)])
    fig, ax = plt.subplots(figsize=(9.6, 5.4))
    level_y = [0, 1.6, 3.2, 4.8]
    colours = ["#1b9e77", "#d95f02", "#7570b3"]
    for step, offset in enumerate(offsets):
        top, bottom = level_y[step], level_y[step + 1]
        for lane in range(lanes):
            partner = lane ^ offset
            ax.annotate("", xy=(lane, bottom - 0.28), xytext=(lane, top + 0.28),
                        arrowprops=dict(arrowstyle="->", color="#bbbbbb", lw=1.0,
                                        shrinkA=0, shrinkB=0))  # the lane's own value
            ax.annotate("", xy=(lane, bottom - 0.28), xytext=(partner, top + 0.28),
                        arrowprops=dict(arrowstyle="->", color=colours[step], lw=1.3,
                                        shrinkA=0, shrinkB=0))
        ax.text(lanes - 0.35, (top + bottom) / 2,
                f"v += __shfl_xor_sync(mask, v, {offset})\nlane l reads lane l ^ {offset}",
                fontsize=9.5, va="center", ha="left", color=colours[step], family="monospace")
    for level, row in zip(level_y, values):
        for lane, value in enumerate(row):
            ax.add_patch(patches.FancyBboxPatch((lane - 0.32, level - 0.26), 0.64, 0.52,
                                                boxstyle="round,pad=0.02", fc="white",
                                                ec=ENTRY, lw=1))
            ax.text(lane, level, str(value), ha="center", va="center", fontsize=10)
    for lane in range(lanes):
        ax.text(lane, -0.62, f"lane {lane}", ha="center", va="center", fontsize=9.5)
    ax.text(-0.55, level_y[0], "v = lane + 1", ha="right", va="center", fontsize=9.5)
    ax.text(-0.55, level_y[-1], "every lane\nholds 36", ha="right", va="center", fontsize=9.5)
    ax.set_xlim(-1.9, lanes + 3.4)
    ax.set_ylim(level_y[-1] + 0.6, -0.95)
    ax.axis("off")
    ax.set_title("The xor butterfly on 8 lanes (a warp does the same with offsets 16, 8, 4, 2, 1):\n"
                 "offset 1 exchanges lanes 0↔1, 2↔3, 4↔5, 6↔7; each lane adds its partner's value "
                 "(coloured)\nto its own (grey)", fontsize=11)
    save(fig, out, "step5_xor_shuffle.png")


# ---------------------------------------------------------------- the fragment layout
def accumulator_element_16x16(lane, index):
    """fragment_map.cuh's accumulator_element_16x16, in Python."""
    return (lane >> 2) + 8 * ((index >> 1) & 1), 2 * (lane & 3) + (index & 1) + 8 * (index >> 2)


# Rows of note 002's measured table that the lesson quotes (lane: its 8 elements in order).
NOTE_ROWS = {
    0: [(0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9), (8, 8), (8, 9)],
    1: [(0, 2), (0, 3), (8, 2), (8, 3), (0, 10), (0, 11), (8, 10), (8, 11)],
    4: [(1, 0), (1, 1), (9, 0), (9, 1), (1, 8), (1, 9), (9, 8), (9, 9)],
}


def draw_fragment_layout(out):
    for lane, elements in NOTE_ROWS.items():
        assert [accumulator_element_16x16(lane, index) for index in range(8)] == elements, lane
    holder = {}
    for lane in range(32):
        for index in range(8):
            holder[accumulator_element_16x16(lane, index)] = (lane, index)
    cmap = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(11, 11))
    for (row, col), (lane, index) in holder.items():
        group = lane // 4
        ax.add_patch(patches.Rectangle((col, row), 1, 1, fc=cmap(group % 10), alpha=0.30 + 0.12 * (lane % 4),
                                       ec="white", lw=1))
        ax.text(col + 0.5, row + 0.36, f"T{lane}", ha="center", va="center", fontsize=8.5,
                fontweight="bold")
        ax.text(col + 0.5, row + 0.72, f"x[{index}]", ha="center", va="center", fontsize=7.5)
    for (row, col), (lane, _) in holder.items():
        if lane == 0:
            ax.add_patch(patches.Rectangle((col, row), 1, 1, fill=False, ec="black", lw=2.6))
    ax.axhline(8, color="black", lw=1.5, ls="--")
    ax.axvline(8, color="black", lw=1.5, ls="--")
    ax.set_xlim(0, 16)
    ax.set_ylim(16, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(16)], [str(c) for c in range(16)])
    ax.set_yticks([r + 0.5 for r in range(16)], [str(r) for r in range(16)])
    ax.tick_params(length=0)
    ax.xaxis.tick_top()
    ax.set_xlabel("column of the 16×16 tile of C", labelpad=8)
    ax.xaxis.set_label_position("top")
    ax.set_ylabel("row of the 16×16 tile of C")
    ax.set_title("Who holds each element of the 16×16 float accumulator (sm_80 and newer):\n"
                 "lane Tl, register x[i]; lane group l / 4 (one colour) owns rows l / 4 and "
                 "l / 4 + 8;\nT0's eight elements are outlined: [0,0] [0,1] [8,0] [8,1] [0,8] "
                 "[0,9] [8,8] [8,9]", fontsize=11, y=-0.09)
    save(fig, out, "step5_fragment_layout.png")


# ---------------------------------------------------------------- approach 4's plan
PANEL_ROWS = 64


def plan_mask(rows=256, cols=384, seed=11):
    """A mask with the structures approach 4 tells apart: whole 64x64 blocks, a panel dense
    over the columns it spans, 16-blocks and a narrow band, and uniform scattered entries."""
    rng = np.random.default_rng(seed)
    mask = rng.random((rows, cols)) < 0.012
    mask[0:64, 64:192] = True                              # two whole 64x64 blocks
    mask[64:128, 192:320] |= rng.random((64, 128)) < 0.6   # a panel dense over its span
    for block_row, block_col in [(8, 2), (9, 5), (10, 1), (12, 20), (13, 18), (14, 22)]:
        mask[block_row * 16:(block_row + 1) * 16, block_col * 16:(block_col + 1) * 16] = True
    for row in range(128, 256):                            # a band of width 9
        mask[row, max(0, row - 4):min(cols, row + 5)] = True
    return mask


def classify(mask, dense_density=0.15, tile_min_entries=48):
    """Each entry's path, by the combined plan's order: full 64x64 tiles, then dense panels
    (density over the columns the panel spans), then masked 16x16 tiles (an illustrative
    threshold), then the lane groups."""
    rows, cols = mask.shape
    path = np.zeros(mask.shape, dtype=int)  # 0: none, 1 full, 2 panel, 3 masked, 4 lanes
    path[mask] = 4
    for tile_row in range(rows // 64):
        for tile_col in range(cols // 64):
            block = (slice(tile_row * 64, tile_row * 64 + 64), slice(tile_col * 64, tile_col * 64 + 64))
            if mask[block].all():
                path[block] = 1
    for panel in range(rows // PANEL_ROWS):
        band = slice(panel * PANEL_ROWS, (panel + 1) * PANEL_ROWS)
        rest = mask[band] & (path[band] == 4)
        columns = np.nonzero(rest.any(axis=0))[0]
        if len(columns) == 0:
            continue
        span = columns[-1] - columns[0] + 1
        if rest.sum() / (PANEL_ROWS * span) >= dense_density:
            sub = path[band]
            sub[rest] = 2
    for tile_row in range(rows // TILE):
        for tile_col in range(cols // TILE):
            block = (slice(tile_row * TILE, tile_row * TILE + TILE), slice(tile_col * TILE, tile_col * TILE + TILE))
            if (path[block] == 4).sum() >= tile_min_entries:
                sub = path[block]
                sub[sub == 4] = 3
    return path


def draw_panels_lane_groups(out):
    mask = plan_mask()
    path = classify(mask)
    rows, cols = mask.shape
    fig, ax = plt.subplots(figsize=(11, 7.8))
    colours = {1: FULL, 2: PANEL, 3: MASKED, 4: LANES}
    names = {1: "64×64 tile wholly in S: block-tile kernel, rows stored straight into S's order",
             2: "dense 64-row panel (≥ 15 % of its column span): block-tile kernel",
             3: "masked 16×16 tile: WMMA product, stored through row starts and column masks",
             4: "any other entry: a lane group (4 lanes, CUDA cores) reads a row of A and of Bᵀ"}
    image = np.ones((rows, cols, 3))
    for key, colour in colours.items():
        image[path == key] = matplotlib.colors.to_rgb(colour)
    ax.imshow(image, interpolation="nearest", extent=(0, cols, rows, 0))
    for y in range(0, rows + 1, PANEL_ROWS):
        ax.axhline(y, color="black", lw=1.4)
    for y in range(0, rows, PANEL_ROWS):
        ax.text(cols + 4, y + PANEL_ROWS / 2, f"panel {y // PANEL_ROWS}\nrows {y}–{y + 63}",
                va="center", ha="left", fontsize=9.5)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_xticks(range(0, cols + 1, 64))
    ax.set_yticks(range(0, rows + 1, 64))
    ax.set_xlabel("column of S")
    ax.set_ylabel("row of S")
    counts = {key: int((path == key).sum()) for key in colours}
    handles = [patches.Patch(color=colours[key], label=f"{names[key]} ({counts[key]} entries)")
               for key in colours]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.09), fontsize=9.5,
              frameon=False)
    ax.set_title("Approach 4's plan on a 256×384 mask: each entry goes to the cheapest path\n"
                 "(illustrative thresholds; the real ones come from the cost model and the GPU)",
                 fontsize=11)
    save(fig, out, "step5_panels_lane_groups.png")


# ---------------------------------------------------------------- the full-tile search
def draw_full_tile_search(out):
    width = 8  # the code uses 64
    rows, cols = 16, 24
    mask = np.zeros((rows, cols), dtype=bool)
    mask[0:8, 8:16] = True                 # a whole tile: kept
    mask[8:16, 0:8] = True                 # a tile with one row short: refused
    mask[13, 5] = False
    rng = np.random.default_rng(3)
    mask |= rng.random((rows, cols)) < 0.10
    mask[13, 5] = False
    fig, (ax, strip) = plt.subplots(2, 1, figsize=(13, 9.6),
                                    gridspec_kw={"height_ratios": [16, 3.2], "hspace": 0.42})
    entry_rows, entry_cols = np.nonzero(mask)
    ax.scatter(entry_cols + 0.5, entry_rows + 0.5, s=70, marker="s", color=ENTRY, lw=0)
    for x in range(0, cols + 1, width):
        ax.axvline(x, color=GRID, lw=1)
    for y in range(0, rows + 1, width):
        ax.axhline(y, color=GRID, lw=1)
    kept = patches.Rectangle((8, 0), 8, 8, fill=False, ec=FULL, lw=3)
    refused = patches.Rectangle((0, 8), 8, 8, fill=False, ec=LANES, lw=3, ls="--")
    ax.add_patch(kept)
    ax.add_patch(refused)
    ax.scatter([8.5, 0.5], [0.5, 8.5], s=260, facecolors="none", edgecolors="#f0c000", lw=2.5)
    ax.annotate("", xy=(15.5, 0.5), xytext=(8.5, 0.5),
                arrowprops=dict(arrowstyle="->", color="#f0c000", lw=2))
    notes_x = cols + 0.8  # the notes sit right of the grid, clear of the entries
    ax.text(notes_x, 0.5, "1. candidate: an entry at a tile's corner whose\n    entry 7 places "
            "later in S is in the same\n    row at column + 7: the whole row is there",
            fontsize=9.5, va="top", clip_on=False)
    ax.text(notes_x, 4.6, "2. one warp per candidate: each other row's\n    first entry at "
            "column ≥ the tile's (a binary\n    search), the same test; all 8 rows whole:\n"
            "    the tile is kept (blue)", fontsize=9.5, va="top", color=FULL, clip_on=False)
    ax.text(notes_x, 10.0, "the tile at rows 8–15: row 13 misses\ncolumn 5 (×), so the tile "
            "is refused and\nits entries stay on the other paths (red)", fontsize=9.5,
            va="top", color=LANES, clip_on=False)
    ax.plot([5.5], [13.5], marker="x", color=LANES, ms=12, mew=3)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, cols + 1, width))
    ax.set_yticks(range(0, rows + 1, width))
    ax.set_xlabel("column of S")
    ax.set_ylabel("row of S")
    ax.set_title("Finding tiles wholly in S, drawn with 8×8 tiles (the code uses 64×64):\n"
                 "a corner entry whose row is whole becomes a candidate; a warp checks "
                 "the other rows", fontsize=11)
    # The strip: row 0 of S in S's order (row-major), positions p .. p + 7.
    row0 = np.nonzero(mask[0])[0]
    first = int(np.nonzero(row0 == 8)[0][0])
    for position, col in enumerate(row0):
        inside = first <= position <= first + width - 1
        strip.add_patch(patches.Rectangle((position, 0), 0.92, 1, fc=FULL if inside else "white",
                                          ec=ENTRY, alpha=0.85 if inside else 1))
        strip.text(position + 0.46, 0.5, str(col), ha="center", va="center", fontsize=10,
                   color="white" if inside else ENTRY)
    strip.text(first + 0.46, 1.35, "p", ha="center", fontsize=10)
    strip.text(first + width - 1 + 0.46, 1.35, "p + 7", ha="center", fontsize=10)
    strip.set_xlim(-0.2, len(row0) + 0.2)
    strip.set_ylim(-0.3, 1.8)
    strip.axis("off")
    strip.set_title("the column indices of row 0's entries, in S's order: with no repeated "
                    "entry, col[p + 7] = col[p] + 7 only if all 8 columns are there",
                    fontsize=10)
    save(fig, out, "step5_full_tile_search.png")


# ---------------------------------------------------------------- one masked tile
def draw_masked_tile(out):
    tile = np.tril(np.ones((TILE, TILE), dtype=bool))  # a causal diagonal tile
    tile[5, 2] = False                                  # and one missing entry
    first_position = 1000                               # S's position of the tile's first entry
    starts, masks, position = [], [], first_position
    for row in range(TILE):
        starts.append(position)
        masks.append(sum(1 << col for col in range(TILE) if tile[row, col]))
        position += int(tile[row].sum()) + 3           # 3 entries of the row outside the tile
    fig, ax = plt.subplots(figsize=(11, 7.2))
    for row in range(TILE):
        for col in range(TILE):
            if tile[row, col]:
                ax.add_patch(patches.Rectangle((col, row), 1, 1, fc=MASKED, ec="white", lw=1))
    pick_row, pick_col = 9, 6
    ax.add_patch(patches.Rectangle((pick_col, pick_row), 1, 1, fill=False, ec="black", lw=2.5))
    for x in range(TILE + 1):
        ax.plot([x, x], [0, TILE], color="#dddddd", lw=0.6, zorder=0)
        ax.plot([0, TILE], [x, x], color="#dddddd", lw=0.6, zorder=0)
    ax.text(TILE + 0.6, -0.6, "start[r]", fontsize=9.5, fontweight="bold")
    ax.text(TILE + 4.1, -0.6, "mask[r] (bit c = column c)", fontsize=9.5, fontweight="bold")
    for row in range(TILE):
        ax.text(TILE + 0.6, row + 0.5, str(starts[row]), va="center", fontsize=9.5,
                family="monospace")
        ax.text(TILE + 4.1, row + 0.5, f"0x{masks[row]:04X}", va="center", fontsize=9.5,
                family="monospace")
    rank = bin(masks[pick_row] & ((1 << pick_col) - 1)).count("1")
    ax.text(0, TILE + 3.4,
            f"entry (r, c) = ({pick_row}, {pick_col}) sits at start[r] + popc(mask[r] & ((1 << c) - 1))"
            f" = {starts[pick_row]} + {rank} = {starts[pick_row] + rank}",
            fontsize=10, family="monospace", clip_on=False)
    ax.set_xlim(0, TILE + 13)
    ax.set_ylim(TILE + 0.1, -1.2)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(TILE)], [str(c) for c in range(TILE)], fontsize=8.5)
    ax.set_yticks([r + 0.5 for r in range(TILE)], [str(r) for r in range(TILE)], fontsize=8.5)
    ax.tick_params(length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("column c of the tile")
    ax.set_ylabel("row r of the tile")
    ax.set_title("A masked 16×16 tile (a causal diagonal tile, entry (5, 2) missing) needs no "
                 "index per entry:\n16 row starts (S's position of each row's first entry in "
                 "the tile) and 16 column masks", fontsize=11)
    save(fig, out, "step5_masked_tile.png")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parent,
                        help="folder for the PNG files (default: this script's folder)")
    args = parser.parse_args()
    if not args.out.is_dir():
        parser.error(f"--out {args.out}: not a folder")
    if MISSING is not None:
        parser.exit(1, f"{parser.prog}: needs matplotlib and numpy ({MISSING}): pip install "
                       "matplotlib numpy, or apt-get install python3-matplotlib\n")
    out = args.out.resolve()
    draw_mask_tiles(out)
    draw_xor_shuffle(out)
    draw_fragment_layout(out)
    draw_panels_lane_groups(out)
    draw_full_tile_search(out)
    draw_masked_tile(out)


if __name__ == "__main__":
    main()
