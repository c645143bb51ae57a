#!/usr/bin/env python3
"""Two builds of approach 4 timed in the same run, in interleaved rounds: a Markdown table of
each case's time under both and their ratio, read from sddmm_bench's CSV files, no GPU.

    python3 ab_rounds.py --before A1.csv,A2.csv --after B1.csv,B2.csv [--names old,new] > OUT.md

A?.csv, B?.csv: `sddmm_bench --csv` of the same masks, one file a round, the rounds run in the
order A1, B1, A2, B2 so that a drift of the GPU's clock touches both builds alike. A case's time
under a build is the smaller of its rounds' medians (each a median of the run's launches); the
table gives both builds' times, after / before, and the geometric mean of that ratio over the
patterns and over the valued cases (names with `_v`). Used for the A/B pages of issue 41 in
lab/results/.
"""
import argparse
import csv
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from report_files import existing_file, fail  # noqa: E402


def approach4_times(path):
    """{(case, inner): median ms} of approach 4 in one CSV file."""
    times = {}
    with path.open(newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("approach", "").startswith("4"):
                try:
                    times[(row["matrix"], int(row["inner"]))] = float(row["sddmm"])
                except (KeyError, ValueError):
                    fail(f"{path}: not an sddmm_bench CSV row: {row}")
    if not times:
        fail(f"{path}: no approach 4 row")
    return times


def best_of(paths):
    """{(case, inner): the smallest median over the rounds} of cases every round holds."""
    rounds = [approach4_times(path) for path in paths]
    common = set(rounds[0]).intersection(*rounds[1:])
    return {key: min(times[key] for times in rounds) for key in common}


def csv_files(text):
    """argparse type: comma-separated readable files, one a round (exit status 2 otherwise)."""
    return [existing_file(part) for part in text.split(",")]


def geometric_mean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, type=csv_files,
                        help="comma-separated CSV files, one a round")
    parser.add_argument("--after", required=True, type=csv_files,
                        help="comma-separated CSV files, one a round")
    parser.add_argument("--names", default="before,after", help="the two builds' column names")
    args = parser.parse_args()
    before = best_of(args.before)
    after = best_of(args.after)
    names = args.names.split(",")
    if len(names) != 2:
        fail("--names: two names, comma-separated")
    cases = sorted(set(before) & set(after))
    if not cases:
        fail("the two builds share no case")
    print(f"| case | inner | {names[0]} ms | {names[1]} ms | {names[1]} / {names[0]} |")
    print("|---|---:|---:|---:|---:|")
    ratios = {"patterns": [], "valued cases": []}
    for case, inner in cases:
        ratio = after[(case, inner)] / before[(case, inner)]
        ratios["valued cases" if "_v" in case else "patterns"].append(ratio)
        print(f"| {case} | {inner} | {before[(case, inner)]:.4f} | {after[(case, inner)]:.4f} "
              f"| {ratio:.3f} |")
    print()
    for kind, values in ratios.items():
        if values:
            print(f"Geometric mean of {names[1]} / {names[0]} over the {len(values)} {kind}: "
                  f"{geometric_mean(values):.3f} (smallest {min(values):.3f}, largest "
                  f"{max(values):.3f}).")
            print()


if __name__ == "__main__":
    main()
