#!/usr/bin/env python3
"""How far approach 4 is from its LIMIT on each kind of attention mask: read from a run's
committed reports, no GPU.

    python3 limit_by_mask_kind.py --out OUT.md REPORT.md [REPORT.md ...]

REPORT.md: sddmm_bench's Markdown reports (`--markdown`) of the attention sets. From each
report's "Case by case" table (x LIMIT: approach 4's time over the least time its plan's data
movement, Tensor Core work or a launch allows) it counts, per set and kind of mask, the cases
within --within (issue 41's 3×) of their LIMIT and names the largest. The kind comes from the
mask's name (lab/sets/*.txt): blocks whose size is a multiple of 64 (whole 64×64 tiles),
blocks of other sizes, sliding windows without and with global tokens (`_g0` or not), BigBird.
Used for lab/results/limit_by_mask_kind_h200.md (issue 41).
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from report_files import cells, existing_file, fail  # noqa: E402,F401

KINDS = [
    ("block, size a multiple of 64", re.compile(r"^block_\S*_b(64|128)_")),
    ("block, other sizes", re.compile(r"^block_")),
    ("window without global tokens", re.compile(r"^window_\S*_g0(_|$| )")),
    ("window with global tokens", re.compile(r"^window_")),
    ("bigbird", re.compile(r"^bigbird_")),
]


def kind_of(case):
    return next((name for name, pattern in KINDS if pattern.match(case)), "other")


def read_cases(path):
    """(GPU line, [(set, case, x LIMIT)]) of one report's "Case by case" table."""
    header, rows, section = None, [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if header is None and line.startswith("GPU: "):
            header = line
        if line.startswith("## "):
            section = line[3:].strip()
        elif section == "Case by case" and line.startswith("| 4 hybrid"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows.append((cells[1], cells[2], float(cells[8])))
    if header is None or not rows:
        fail("%s: no 'GPU:' line or no 'Case by case' rows: not a report of sddmm_bench "
                 "--markdown" % path)
    return header, rows






def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=existing_file, help="sddmm_bench --markdown files")
    parser.add_argument("--out", required=True, type=pathlib.Path, help="the Markdown to write")
    parser.add_argument("--within", type=float, default=3.0,
                        help="x LIMIT at or below which a case counts as near (default 3)")
    args = parser.parse_args()
    out, header = [], None
    for report in args.reports:
        header, rows = read_cases(report)
        for set_name in sorted({row[0] for row in rows}):
            for kind, _ in KINDS:
                mine = [row for row in rows if row[0] == set_name and kind_of(row[1]) == kind]
                if not mine:
                    continue
                worst = max(mine, key=lambda row: row[2])
                out.append("| %s | %s | %d | %d | %.2f | %s |" % (
                    set_name, kind, len(mine), sum(row[2] <= args.within for row in mine),
                    worst[2], worst[1]))
    text = [header, "",
            "Approach 4's x LIMIT (its time over the least time its plan's data movement, Tensor "
            "Core work or a launch allows) per set and kind of mask, from %s (made by "
            "`lab/experiments/limit_by_mask_kind.py`, no GPU); within: the cases at or below "
            "%.1f× their LIMIT. Every mask counts as a pattern and with values, at each inner "
            "size." % (", ".join("`%s`" % r.name for r in args.reports), args.within), "",
            "## By kind of mask", "",
            "| set | kind | cases | within | largest x LIMIT | its case |",
            "|---|---|---:|---:|---:|---|"] + out
    args.out.write_text("\n".join(text) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
