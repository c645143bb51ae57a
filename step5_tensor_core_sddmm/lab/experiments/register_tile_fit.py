#!/usr/bin/env python3
"""The rate of register_tile_kernel's copies of Bᵀ, fitted to a headline run's committed files,
no GPU (kRegisterStepOverGather in going_further/panel_cost_choice.cpp).

    python3 register_tile_fit.py --plans PLANS.txt --sms N --clock-ghz F --out OUT.md \
        REPORT.csv [REPORT.csv ...]

REPORT.csv: sddmm_bench's CSV files of one run (`--csv`), each beside its Markdown report (same
name, .md), whose first lines give the GPU and the run's DRAM copy rate; PLANS.txt: the plan
lines the benchmark printed for the same run. The cases: every pattern (not `_vrand`) case
whose plan put every entry on masked tiles run by the register kernel ("registers, a warp an
item"). From each case's median time the model's floor (a launch of 4 µs and the masked
kernel's 9 µs) and the stores (4 bytes an entry at the run's DRAM copy rate) are taken out;
the rest is fitted by least squares to the tiles' copies of Bᵀ (16 rows of 2·inner bytes a
tile), with and without a cost per tile. The gather rate is the model's (described_rates:
31.5 bytes per SM and clock). Used for lab/results/register_tile_fit_h200.md (issue 41).
"""
import argparse
import csv
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from report_files import existing_file, fail  # noqa: E402

PLAN = re.compile(r"^(\S+) inner=(\d+) approach 4 \(pattern\): plan: 0 entries on full tiles, "
                  r"0 on dense panels, \d+ on masked tiles \((\d+) tiles, \d+ tile columns, "
                  r"\d+ items: registers, a warp an item\), 0 on lane groups, 0 on the dense path")
RATE = re.compile(r"DRAM copy ([0-9.]+) GB/s")
HEADER = re.compile(r"^GPU: (.*), date: (\S+)")
FLOOR_SECONDS = 13e-6  # kLaunchSeconds + kMaskedExtraSeconds
GATHER_BYTES_PER_SM_CLOCK = 31.5  # kL2GatherBytesPerSmClock


def read_plans(path):
    """{(case, inner): tiles} of the register kernel's whole-mask pattern plans."""
    plans = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PLAN.match(line)
        if match:
            plans[(match.group(1), int(match.group(2)))] = int(match.group(3))
    return plans


def read_run(csv_path):
    """(GPU line, DRAM bytes per second, {(case, inner): (nnz, median ms)}) of one report."""
    report = csv_path.with_suffix(".md")
    if not report.is_file():
        fail("%s: no report beside it (%s)" % (csv_path, report.name))
    text = report.read_text(encoding="utf-8")
    header = next((line for line in text.splitlines() if HEADER.match(line)), None)
    rate = RATE.search(text)
    if header is None or rate is None:
        fail("%s: no GPU line or DRAM copy rate" % report)
    times = {}
    with csv_path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row.get("approach") == "4 hybrid":
                times[(row["matrix"], int(row["inner"]))] = (int(row["nnz"]), float(row["sddmm"]))
    return header, float(rate.group(1)) * 1e9, times


def least_squares(columns, targets):
    """Coefficients of targets ≈ Σ coefficient · column (one or two columns), no intercept."""
    if len(columns) == 1:
        (x,) = columns
        return [sum(a * b for a, b in zip(x, targets)) / sum(a * a for a in x)]
    x, z = columns
    sxx = sum(a * a for a in x)
    szz = sum(a * a for a in z)
    sxz = sum(a * b for a, b in zip(x, z))
    sxy = sum(a * b for a, b in zip(x, targets))
    szy = sum(a * b for a, b in zip(z, targets))
    det = sxx * szz - sxz * sxz
    return [(sxy * szz - szy * sxz) / det, (szy * sxx - sxy * sxz) / det]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plans", type=existing_file, required=True)
    parser.add_argument("--sms", type=int, required=True)
    parser.add_argument("--clock-ghz", type=float, required=True)
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("reports", type=existing_file, nargs="+")
    args = parser.parse_args()
    if args.sms < 1 or args.clock_ghz <= 0:
        parser.error("--sms must be at least 1 and --clock-ghz above 0 (got %d and %g)"
                     % (args.sms, args.clock_ghz))
    plans = read_plans(args.plans)
    cases = []
    header = None
    for path in args.reports:
        header, dram, times = read_run(path)
        for key in sorted(times):
            if key in plans:
                nnz, ms = times[key]
                work = ms * 1e-3 - FLOOR_SECONDS - 4.0 * nnz / dram
                cases.append((key, plans[key], nnz, ms, 16.0 * 2 * key[1] * plans[key], work))
    if not cases:
        fail("no pattern case ran every entry on the register kernel")
    gather = GATHER_BYTES_PER_SM_CLOCK * args.sms * args.clock_ghz * 1e9
    works = [case[5] for case in cases]
    (per_byte,) = least_squares([[case[4] for case in cases]], works)
    per_tile, per_byte2 = least_squares([[case[1] for case in cases], [case[4] for case in cases]],
                                        works)
    lines = ["# The register kernel's copies of Bᵀ, fitted to one run's sets", "", header, "",
             "The register kernel's copies of Bᵀ (16 rows of 2·inner bytes a tile), fitted to "
             "%d pattern cases whose plan put every entry on it (`register_tile_fit.py`, no GPU; "
             "times are the runs' medians of 10 launches, less a floor of %.0f µs and the stores "
             "at the run's DRAM copy rate)." % (len(cases), FLOOR_SECONDS * 1e6), "",
             "- bytes alone: **%.2f TB/s, %.3f of the gather rate** (%.2f TB/s: %.1f bytes per SM "
             "and clock, %d SMs at %.2f GHz)" % (1e-12 / per_byte, 1 / per_byte / gather,
                                               gather * 1e-12, GATHER_BYTES_PER_SM_CLOCK,
                                               args.sms, args.clock_ghz),
             "- with a term per tile: %.3f ns a tile and %.2f TB/s" % (per_tile * 1e9,
                                                                   1e-12 / per_byte2), "",
             "| case | inner | tiles | nnz | measured ms | bytes alone ms | model / measured |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for (name, inner), tiles, nnz, ms, copied, work in cases:
        model_ms = (copied * per_byte + (ms * 1e-3 - work)) * 1e3
        lines.append("| %s | %d | %d | %d | %.4f | %.4f | %.2f |" % (name, inner, tiles, nnz, ms,
                                                                    model_ms, model_ms / ms))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("%d cases; bytes alone %.3f of the gather rate" % (len(cases), 1 / per_byte / gather))


if __name__ == "__main__":
    main()
