#!/usr/bin/env python3
"""Draws step 4's split-K pictures (going_further/README.md shows them).

Usage: python3 step4_boundary_checks/figures/draw_split_k.py

Writes, next to this script:

* split_k.svg: how split-K divides the inner dimension of one tile of C among four blocks,
  each writing a partial product into a workspace, and how split_k_reduce.cuh adds them;
* split_k_measured.svg: the fast kernel on the long-inner shapes of the committed H100 run
  (lab/results/shapes_h100_rooms.csv), with one block per tile of C ("before split-K") and
  with the split its choice took, as fractions of cuBLAS's speed.

Needs matplotlib. The output is deterministic (no date, fixed ids), so rerunning the script
on unchanged data leaves the files unchanged.
"""
import csv
import pathlib
import sys

try:  # --help and a bad argument need no matplotlib; drawing does (main() says so)
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
    from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: E402

    plt.rcParams["svg.hashsalt"] = "step4-split-k"
    plt.rcParams["font.size"] = 11
    MISSING = None
except ImportError as error:
    MISSING = error

HERE = pathlib.Path(__file__).resolve().parent
RESULTS = HERE.parent / "lab" / "results" / "shapes_h100_rooms.csv"
SPLIT_COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52"]
SVG_OPTIONS = {"format": "svg", "metadata": {"Date": None}, "bbox_inches": "tight"}


def box(axis, x, y, width, height, colour, text=None, text_colour="white", size=10):
    axis.add_patch(Rectangle((x, y), width, height, facecolor=colour, edgecolor="#222222",
                             linewidth=1.0))
    if text:
        axis.text(x + width / 2, y + height / 2, text, ha="center", va="center",
                  color=text_colour, fontsize=size)


def arrow(axis, start, end):
    axis.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=16,
                                   linewidth=1.4, color="#333333"))


def draw_scheme(path):
    """A (one band of rows) times B, four splits, four partial products, one C tile."""
    figure, axis = plt.subplots(figsize=(12.5, 5.2))
    axis.set_xlim(0, 126)
    axis.set_ylim(-7, 45)
    axis.set_aspect("equal")
    axis.axis("off")
    axis.set_title("Split-K: four blocks share the inner dimension of one tile of C",
                   fontsize=14, fontweight="bold", loc="left")

    # A: the tile's rows, the whole inner dimension, cut into four splits.
    band = 7.0
    for split in range(4):
        box(axis, 2 + split * band, 16, band, 8, SPLIT_COLOURS[split], "z=%d" % split)
    axis.text(2, 25.5, "A: the tile's rows\n(rows of the tile × inner)", fontsize=10,
              va="bottom")
    axis.text(34, 20, "×", fontsize=16, ha="center", va="center")

    # B: the whole inner dimension, the tile's columns, cut the same way.
    for split in range(4):
        box(axis, 38, 30 - (split + 1) * band, 8, band, SPLIT_COLOURS[split], "z=%d" % split)
    axis.text(36, 31.5, "B: the tile's columns\n(inner × cols of the tile)", fontsize=10,
              va="bottom")

    # The four partial products: block z multiplies only band z of A by band z of B.
    for split in range(4):
        y = 28 - split * 9
        box(axis, 62, y, 8, 8, SPLIT_COLOURS[split])
        axis.text(71.5, y + 4, "block z=%d:\nA band %d · B band %d" % (split, split, split),
                  fontsize=9, va="center")
    axis.text(61, 37.5, "workspace: one partial\nproduct per split", fontsize=10,
              va="bottom")
    arrow(axis, (48, 20), (60, 20))

    # The reduction and C.
    arrow(axis, (92, 20), (110, 20))
    axis.text(101, 18, "split_k_reduce:\nslice 0 + 1 + 2 + 3,\nalways in this order",
              fontsize=9, ha="center", va="top")
    box(axis, 112, 16, 8, 8, "#f2f2f2", "C", text_colour="#111111", size=12)
    axis.text(116, 25.5, "the tile of C", fontsize=10, ha="center", va="bottom")

    axis.text(2, -5.5,
              "Without split-K, one block walks the whole inner dimension while the other SMs "
              "wait.\nWith 4 splits, 4 blocks work at once on the same tile, and a second kernel "
              "adds their partial products.",
              fontsize=10, va="bottom", color="#333333")
    figure.savefig(path, **SVG_OPTIONS)
    plt.close(figure)


def long_inner_rows():
    """The shapes of the committed run where the choice split the inner dimension among tiles
    and one block per tile ran at under half of cuBLAS's speed (cuBLAS at least 20 us)."""
    with RESULTS.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    chosen = []
    for row in rows:
        configuration = row["configuration"]
        if ("split" not in configuration or "thin" in configuration or
                float(row["cuBLAS ms"]) < 0.020 or float(row["before fraction"]) >= 0.5):
            continue
        chosen.append(row)
    chosen.sort(key=lambda row: float(row["before fraction"]))
    return chosen


def draw_measured(path):
    rows = long_inner_rows()
    shapes = [row["shape rows x inner x cols"].replace("x", "×") for row in rows]
    before = [float(row["before fraction"]) for row in rows]
    after = [float(row["fraction"]) for row in rows]
    splits = [row["configuration"].split("split")[-1].strip() for row in rows]

    figure, axis = plt.subplots(figsize=(10.5, 0.62 * len(rows) + 1.9))
    positions = range(len(rows))
    height = 0.38
    axis.barh([p + height / 2 for p in positions], before, height, color="#bbbbbb",
              label="one block per tile of C (no split)")
    axis.barh([p - height / 2 for p in positions], after, height, color=SPLIT_COLOURS[0],
              label="the split the choice took")
    for position, value, split in zip(positions, after, splits):
        # Right of the cuBLAS line, so that no label crosses it.
        axis.text(max(value, 1.0) * 1.12, position - height / 2, "%s splits" % split,
                  va="center", fontsize=9)
    axis.axvline(1.0, color="#333333", linewidth=1.0, linestyle="--",
                 label="as fast as cuBLAS (1.0)")
    axis.set_xscale("log")
    axis.set_xlim(0.002, 4)
    ticks = [0.003, 0.01, 0.03, 0.1, 0.3, 1, 3]
    axis.set_xticks(ticks)
    axis.set_xticklabels(["%g" % tick for tick in ticks])
    axis.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    axis.set_ylim(-0.7, len(rows) - 0.3)
    axis.set_yticks(list(positions))
    axis.set_yticklabels(shapes)
    axis.invert_yaxis()
    axis.set_xlabel("fraction of cuBLAS's speed (cuBLAS time / ours; log scale)")
    axis.set_ylabel("rows × inner × cols")
    axis.set_title("Split-K on long inner dimensions: the fast kernel against cuBLAS SGEMM "
                   "(fp32)\nNVIDIA H100 80GB HBM3, 2026-11-25, median of 10 runs "
                   "(lab/results/shapes_h100_rooms.csv)", fontsize=11, loc="left")
    axis.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=3, fontsize=9,
                frameon=False)
    axis.grid(axis="x", which="major", color="#dddddd")
    figure.savefig(path, **SVG_OPTIONS)
    plt.close(figure)


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if arguments or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes no arguments, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    if MISSING is not None:
        print(f"{sys.argv[0]}: needs matplotlib ({MISSING}): pip install matplotlib, or "
              "apt-get install python3-matplotlib", file=sys.stderr)
        return 1
    draw_scheme(HERE / "split_k.svg")
    draw_measured(HERE / "split_k_measured.svg")
    print("wrote %s and %s" % (HERE / "split_k.svg", HERE / "split_k_measured.svg"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
