#!/usr/bin/env python3
"""Grades the course's Catch2 suites step by step.

Runs each step's test program with Catch2's JUnit reporter, counts the test cases that
passed, prints a score table (step, passed/total, points) and writes it as Markdown and
JSON. The exit status is 0 only when every graded test passed.

Usage: grading/grade.py [--build-dir build] [--out-dir grade-report] [--steps step1,step3]

Without a GPU the [gpu] test cases cannot run; they are listed as "not run" and the
grade says so (grade on a machine with a GPU for a full score).
"""
import argparse
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

STEPS = [
    ("step1", "step1_naive", "test_step1"),
    ("step2", "step2_three_approaches", "test_step2"),
    ("step3", "step3_shared_tiling", "test_step3"),
    ("step4", "step4_boundary_checks", "test_step4"),
    ("step5", "step5_tensor_core_sddmm", "test_step5"),
]
POINTS_PER_STEP = 20


def list_tests(program):
    """Returns {test name: [tags]} from the course test main's listing."""
    listing = subprocess.run([str(program), "--course-list-tests"], capture_output=True,
                             text=True, check=True).stdout
    tests = {}
    for line in listing.splitlines():
        if "\t" in line:
            name, tags = line.split("\t", 1)
            tests[name] = tags.split(";") if tags else []
    return tests


def run_suite(program, report_path):
    """Runs one test program with the JUnit reporter; returns {test name: outcome}."""
    subprocess.run([str(program), "-r", "junit", "-o", str(report_path)],
                   capture_output=True, text=True, check=False)
    outcomes = {}
    if not report_path.exists():
        return outcomes
    root = ElementTree.parse(report_path).getroot()
    for case in root.iter("testcase"):
        # Catch2 v2 names a test case "<name>" and its sections "<name>/<section>";
        # a test case fails if any of its entries has a failure or an error.
        name = case.get("name", "").split("/")[0]
        failed = case.find("failure") is not None or case.find("error") is not None
        if failed or name not in outcomes:
            outcomes[name] = "failed" if failed else "passed"
    return outcomes


def grade_step(label, program, out_dir):
    """Grades one step; returns its row for the score table."""
    tests = list_tests(program)
    outcomes = run_suite(program, out_dir / f"{label}-junit.xml")
    passed = sum(1 for name in tests if outcomes.get(name) == "passed")
    not_run = [name for name in tests if name not in outcomes]
    failed = [name for name in tests if outcomes.get(name) == "failed"]
    total = len(tests)
    points = POINTS_PER_STEP * passed / total if total else 0.0
    return {"step": label, "passed": passed, "total": total, "not_run": len(not_run),
            "points": round(points, 1), "max_points": POINTS_PER_STEP,
            "failed_tests": failed, "not_run_tests": not_run}


def markdown(rows):
    lines = ["| step | tests passed | not run | points |", "|---|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['step']} | {row['passed']}/{row['total']} | {row['not_run']} | "
                     f"{row['points']}/{row['max_points']} |")
    total = sum(row["points"] for row in rows)
    maximum = sum(row["max_points"] for row in rows)
    lines.append(f"| **total** | | | **{round(total, 1)}/{maximum}** |")
    for row in rows:
        for name in row["failed_tests"]:
            lines.append(f"\n- {row['step']} failed: {name}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--out-dir", default="grade-report")
    parser.add_argument("--steps", default="", help="comma-separated labels, e.g. step1,step3")
    args = parser.parse_args()
    build = pathlib.Path(args.build_dir)
    out_dir = pathlib.Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = set(filter(None, args.steps.split(",")))
    rows = []
    for label, folder, test_program in STEPS:
        if wanted and label not in wanted:
            continue
        program = build / folder / test_program
        if not program.exists():
            print(f"{label}: {program} not built; build the course first", file=sys.stderr)
            rows.append({"step": label, "passed": 0, "total": 0, "not_run": 0, "points": 0.0,
                         "max_points": POINTS_PER_STEP, "failed_tests": ["(not built)"],
                         "not_run_tests": []})
            continue
        rows.append(grade_step(label, program, out_dir))
    table = markdown(rows)
    print(table)
    (out_dir / "grades.md").write_text(table)
    (out_dir / "grades.json").write_text(json.dumps(rows, indent=2) + "\n")
    everything_passed = all(row["total"] > 0 and row["passed"] == row["total"] for row in rows)
    return 0 if everything_passed else 1


if __name__ == "__main__":
    sys.exit(main())
