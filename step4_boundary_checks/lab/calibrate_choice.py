#!/usr/bin/env python3
"""Calibrates the constants of the fast kernel's choice (going_further/calibrated_constants.hpp,
used by going_further/fast_gemm_cost_model.cpp) on a shape sweep.

Reads the per-configuration log of `step4_shape_bench --shapes shapes/public_shapes.txt
--all-fast-variants` (before the step was split into rooms: `step4_boundary_checks --bench
--shapes ... --all-fast-variants`; its stderr: one `measured SHAPE | CONFIG | MS ms` line per
tile and candidate split) and the sweep's Markdown table (cuBLAS's time per shape),
and grid-searches the model's constants for the values whose choice, on the shapes where cuBLAS
takes at least 20 us and neither side of C is thin, serves the shapes best against cuBLAS (the
issue's targets): first the smallest fraction of cuBLAS (cuBLAS time / chosen configuration's
time), then the geometric mean of the fractions; of the values that tie, those that change
fewest of the previous constants. The model here is a copy of
estimate_fast_seconds; the tile efficiencies are the measured ones (4096^3 for float4 loads,
4093x4091x4099 for scalar loads), the resident blocks per SM those the occupancy query gives on
an H100 (from the registers ptxas reports).

Usage: calibrate_choice.py LOG MARKDOWN   (lab/results/shapes_sweep_h100_cursor_log.txt and
lab/results/shapes_sweep_h100_cursor.md). The GPU's figures below (SMs, peak, bandwidth, blocks
per SM) are the H100's of the calibration, 2026-11-24: set them to another GPU's to calibrate
there (lab/README.md).
"""
import collections
import itertools
import math
import re
import sys

MULTIPROCESSORS = 132
PEAK_FLOPS = 66.9e12  # fp32 FMA peak of the H100 as the benchmark reports it
BANDWIDTH = 3.35e12
# The constants of the model before this calibration: full_warps, exponent, fill,
# bandwidth, launch, lone, walk (the reduction's seconds per split).
PREVIOUS = (8, 0.75, 0.5e-6, 0.5, 3e-6, 0.75, 25e-9)
# tile name: (BM, BN, BK, threads, resident blocks per SM)
TILES = {
    "128x128x8": (128, 128, 8, 256, 2),
    "64x128x8": (64, 128, 8, 128, 3),
    "128x64x8": (128, 64, 8, 128, 3),
    "128x128x16": (128, 128, 16, 256, 2),
    "64x64x8": (64, 64, 8, 64, 6),
    "32x128x8": (32, 128, 8, 64, 4),
    "128x128x16 async": (128, 128, 16, 256, 2),
    "64x128x16 async": (64, 128, 16, 128, 3),
}


def ceil_div(extent, tile):
    return (extent + tile - 1) // tile


def read_sweep(log_path, markdown_path):
    """Times per shape and configuration, and cuBLAS's time per shape (ms)."""
    times = collections.defaultdict(dict)
    for line in open(log_path):
        match = re.match(r"\s+measured (\S+) \| ([^,|]+?)(?:, split (\d+))? \| (\S+) ms", line)
        if match:
            shape = tuple(map(int, match.group(1).split("x")))
            times[shape][(match.group(2), int(match.group(3) or 1))] = float(match.group(4))
    cublas = {}
    for line in open(markdown_path):
        match = re.match(r"\| (\d+x\d+x\d+) \| ([\d.]+) \|", line)
        if match:
            cublas[tuple(map(int, match.group(1).split("x")))] = float(match.group(2))
    return times, cublas


def estimate(shape, tile, splits, constants, efficiency):
    """Seconds, as estimate_fast_seconds computes them."""
    rows, inner, cols = shape
    block_rows, block_cols, depth, threads, per_sm = TILES[tile]
    inner_tiles = ceil_div(inner, depth)
    tiles_per_split = ceil_div(inner_tiles, max(1, splits))
    real_splits = ceil_div(inner_tiles, tiles_per_split)
    units = ceil_div(rows, block_rows) * ceil_div(cols, block_cols) * real_splits
    unit_flops = 2.0 * block_rows * block_cols * depth * tiles_per_split
    slots = MULTIPROCESSORS * per_sm

    def wave(resident):
        rate = PEAK_FLOPS / MULTIPROCESSORS * efficiency[tile]
        busy = min(1.0, resident * threads / 32 / constants["full_warps"]) ** constants["exponent"]
        busy *= constants["lone"] if resident == 1 else 1.0
        return constants["fill"] + unit_flops * resident / (rate * busy)

    seconds = (units // slots) * wave(per_sm)
    if units % slots:
        seconds += wave(ceil_div(units % slots, MULTIPROCESSORS))
    if real_splits > 1:
        output_bytes = 4.0 * rows * cols
        traffic = (2 * real_splits + 1) * output_bytes / (constants["bandwidth"] * BANDWIDTH)
        seconds += max(traffic, real_splits * constants["walk"]) + constants["launch"]
    return seconds


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 2 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes two arguments, LOG and MARKDOWN, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    times, cublas = read_sweep(arguments[0], arguments[1])
    square, ragged = (4096, 4096, 4096), (4093, 4091, 4099)

    def measured_efficiency(shape):
        flops = 2.0 * shape[0] * shape[1] * shape[2]
        return {tile: flops / (times[shape][(tile, 1)] * 1e-3) / PEAK_FLOPS for tile in TILES}

    aligned_efficiency = measured_efficiency(square)
    ragged_efficiency = measured_efficiency(ragged)
    shapes = [s for s in times if cublas.get(s, 0) >= 0.020 and s[0] > 8 and s[2] > 8]

    def chosen(shape, constants):
        aligned = shape[1] % 4 == 0 and shape[2] % 4 == 0
        efficiency = aligned_efficiency if aligned else ragged_efficiency
        return min(times[shape], key=lambda c: estimate(shape, c[0], c[1], constants, efficiency))

    def loss(constants):
        total = 0.0
        for shape in shapes:
            total += math.log(times[shape][chosen(shape, constants)] / min(times[shape].values()))
        return math.exp(total / len(shapes))

    def score(constants):
        # The targets, as a key to minimise: the smallest fraction of cuBLAS over the
        # shapes first (no shape badly served), then their geometric mean; both to 0.001, below
        # which two runs of the sweep do not agree.
        fractions = [cublas[s] / times[s][chosen(s, constants)] for s in shapes]
        mean = math.exp(sum(map(math.log, fractions)) / len(fractions))
        return (-round(min(fractions), 3), -round(mean, 3))

    names = ("full_warps", "exponent", "fill", "bandwidth", "launch", "lone", "walk")
    previous = dict(zip(names, PREVIOUS))
    grid = itertools.product([4, 8, 12, 16], [0.25, 0.5, 0.75, 1.0], [0.5e-6, 1e-6, 2e-6],
                             [0.5, 0.75, 1.0], [3e-6, 6e-6], [0.6, 0.75, 0.9, 1.0],
                             [5e-9, 10e-9, 25e-9, 50e-9])
    scored = [(score(constants), constants) for constants in (dict(zip(names, v)) for v in grid)]
    best_score = min(entry[0] for entry in scored)
    # Among the constants that tie for the best score, keep those that change fewest values.
    tied = [constants for entry_score, constants in scored if entry_score == best_score]
    best = min(tied, key=lambda c: sum(c[name] != previous[name] for name in names))
    print("efficiency (float4)", {t: round(e, 3) for t, e in aligned_efficiency.items()})
    print("efficiency (scalar)", {t: round(e, 3) for t, e in ragged_efficiency.items()})
    for label, constants in (("best", best), ("previous", previous)):
        smallest, mean = (-value for value in score(constants))
        print(label, "constants", constants, "smallest fraction of cuBLAS", smallest,
              "geometric mean", mean, "mean loss against the fastest configuration measured",
              round(loss(constants), 3))
    print(len(tied), "constants tie for the best; kept: those nearest the previous ones")


if __name__ == "__main__":
    sys.exit(main())
