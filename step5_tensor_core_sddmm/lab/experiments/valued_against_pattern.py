#!/usr/bin/env python3
"""What a valued S costs against the same structure as a pattern, case by case, and which of
approach 4's kernels carries the case: read from a headline run's committed files, no GPU.

    python3 valued_against_pattern.py --plans PLANS.txt --out OUT.md REPORT.md [REPORT.md ...]

REPORT.md: sddmm_bench's Markdown reports of one run (`--markdown`), whose sets hold each mask
as a pattern and with values (`values=ones,random`); PLANS.txt: the plan lines the benchmark
printed on its standard error for the same run ("NAME inner=N approach 4 (values): plan: ...").
For every valued case of the reports' "Valued S against the same structure as a pattern"
table it writes one row: the kernel that carries most of the case's entries (from its plan
line) and its share, the two times, their ratio, the extra time against the time the values'
own bytes take at the run's DRAM copy rate (4 bytes an entry, read once), and how much the
values raise the LIMIT (the benchmark's "Case by case" table: the least time the plan's data
movement allows, which for a valued S counts the values' bytes). Then each set's and each
kernel's count of cases and of cases above --target (the issue's 1.15). Used for
lab/results/valued_vs_pattern_h200.md (issue 41).
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from report_files import cells, existing_file, fail  # noqa: E402,F401

PLAN = re.compile(r"^(\S+) inner=(\d+) approach 4 \((pattern|values)\): plan: (.*)$")
PLAN_PART = re.compile(r"(\d+) (?:entries )?on (full tiles|dense panels|masked tiles|lane groups|"
                       r"the dense path)")
RATE = re.compile(r"DRAM copy ([0-9.]+) GB/s")
HEADER = re.compile(r"^GPU: (.*), date: (\S+)")




def read_report(path):
    """(GPU line, DRAM copy rate in GB/s, {(case, inner): nnz}, {"case inner=N": (LIMIT ms,
    x LIMIT)}, [(set, case, inner, pattern ms, valued ms, valued / pattern)]) of one report."""
    text = path.read_text(encoding="utf-8")
    header = next((line for line in text.splitlines() if HEADER.match(line)), None)
    rate = RATE.search(text)
    if header is None or rate is None:
        fail("%s: no 'GPU: ..., date: ...' line or no DRAM copy rate: not a report of "
                 "sddmm_bench --markdown" % path)
    nnz, limits, pairs, section = {}, {}, [], None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if not line.startswith("| 4 hybrid") and not (section is None and "| 4 hybrid |" in line):
            continue
        row = cells(line)
        if section is None and len(row) > 5 and row[5] == "4 hybrid":
            nnz[(row[0], row[3])] = int(row[4])
        elif section == "Case by case" and len(row) >= 9:
            limits[row[2]] = (float(row[7]), float(row[8]))
        elif section and section.startswith("Valued S against") and len(row) >= 6:
            case, inner = row[2].split(" inner=")
            pairs.append((row[1], case, inner, float(row[3]), float(row[4]), float(row[5])))
    return header, float(rate.group(1)), nnz, limits, pairs


def read_plans(path):
    """{(case, inner, "pattern" | "values"): {path: entries}}."""
    plans = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PLAN.match(line)
        if match:
            parts = {name: int(count) for count, name in PLAN_PART.findall(match.group(4))}
            plans[(match.group(1), match.group(2), match.group(3))] = parts
    return plans


def pattern_twin(case):
    """The pattern case a valued case was made from (values=random: _vrand; values=V: _vV)."""
    return re.sub(r"_v(rand|[0-9.]+)$", "", case)






def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("reports", nargs="+", type=existing_file, help="sddmm_bench --markdown files")
    parser.add_argument("--plans", required=True, type=existing_file,
                        help="the run's plan lines (approach 4 (values): plan: ...)")
    parser.add_argument("--out", required=True, type=pathlib.Path, help="the Markdown to write")
    parser.add_argument("--target", type=float, default=1.15,
                        help="valued / pattern above which a case misses (default 1.15)")
    args = parser.parse_args()
    plans = read_plans(args.plans)
    rows, header = [], None
    for report in args.reports:
        header, rate, nnz, limits, pairs = read_report(report)
        for set_name, case, inner, pattern_ms, valued_ms, ratio in pairs:
            plan = plans.get((case, inner, "values"))
            twin = "%s inner=%s" % (pattern_twin(case), inner)
            mine = "%s inner=%s" % (case, inner)
            if plan is None or (case, inner) not in nnz or twin not in limits or mine not in limits:
                fail("%s: %s has no plan line, entry count or LIMIT row for itself or its "
                         "pattern twin %s" % (report, mine, twin))
            kernel, entries = max(plan.items(), key=lambda item: item[1])
            count = nnz[(case, inner)]
            extra_us = 1000.0 * (valued_ms - pattern_ms)
            bytes_us = count * 4 / (rate * 1e9) * 1e6
            rows.append((ratio, mine, kernel, 100.0 * entries / count, count, pattern_ms,
                         valued_ms, extra_us, bytes_us, limits[mine][0] / limits[twin][0],
                         set_name))
    rows.sort(key=lambda row: (-row[0], row[1]))
    out = [header, "",
           "Each valued case of the run (`_vrand`: random values) against its pattern twin (same "
           "structure, A and B, same run), from %s and the plan lines in %s (made by "
           "`lab/experiments/valued_against_pattern.py`, no GPU). kernel: the one that carries "
           "most of the case's entries in approach 4's plan, and its share; extra us: valued ms - pattern ms; "
           "values at copy rate us: the values' bytes (4 an entry, read once) over the run's "
           "DRAM copy rate; LIMIT valued / pattern: how much the values raise the least time "
           "the plan's data movement allows." % (
               ", ".join("`%s`" % r.name for r in args.reports), "`%s`" % args.plans.name), "",
           "## Case by case", "",
           "| case, inner | kernel (its share of the entries) | pattern ms | valued ms "
           "| valued / pattern | extra us | values at copy rate us | LIMIT valued / pattern |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        out.append("| %s | %s (%.0f %%) | %.4f | %.4f | %.2f | %.1f | %.1f | %.2f |"
                   % (row[1], row[2], row[3], row[5], row[6], row[0], row[7], row[8], row[9]))
    out += ["", "## By set", "",
            "Above target: valued / pattern above %.2f." % args.target, "",
            "| set | valued cases | above target | largest valued / pattern | its case |",
            "|---|---:|---:|---:|---|"]
    for set_name in sorted({row[10] for row in rows}, reverse=True):
        mine = [row for row in rows if row[10] == set_name]
        worst = max(mine, key=lambda row: row[0])
        out.append("| %s | %d | %d | %.2f | %s |" % (
            set_name, len(mine), sum(row[0] > args.target for row in mine), worst[0], worst[1]))
    out += ["", "## By kernel", "",
            "Cases by the kernel that carries most of their entries; above target: valued / "
            "pattern above %.2f." % args.target, "",
            "| kernel | cases | above target | largest valued / pattern | its case |",
            "|---|---:|---:|---:|---|"]
    for kernel in sorted({row[2] for row in rows}):
        mine = [row for row in rows if row[2] == kernel]
        worst = max(mine, key=lambda row: row[0])
        out.append("| %s | %d | %d | %.2f | %s |" % (
            kernel, len(mine), sum(row[0] > args.target for row in mine), worst[0], worst[1]))
    out.append("| all | %d | %d | %.2f | %s |" % (
        len(rows), sum(row[0] > args.target for row in rows), rows[0][0], rows[0][1]))
    args.out.write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
