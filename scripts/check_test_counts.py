#!/usr/bin/env python3
"""Checks the test counts the lessons quote ("20 of the 54 tests of step4 need one") against
the tests a build registers with ctest: M, the tests labelled with the step; N, those of them
also labelled gpu (scripts/try_exercise.sh counts the same way when it prints that line).

Usage: scripts/check_test_counts.py BUILD_DIR [--ctest CTEST] [--repo REPO]
A step the build does not hold (COURSE_STEPS) is not checked. Exit status 0 when every count
matches, 1 with one line per mismatch, 2 when ctest lists no tests.
"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_test_names import list_tests  # noqa: E402

COUNT = re.compile(r"(\d+|[A-Z]) of the (\d+|[A-Z]) tests of (step\d+)")


def pages(repo):
    """The pages that quote test counts: the lessons, their exercise pages, the book's."""
    return sorted(repo.glob("step*/README.md")) + sorted(repo.glob("step*/exercise/README.md")) \
        + sorted((repo / "docs").glob("*.md"))


def problems_of(repo, tests):
    """One line per quoted count that differs from the build's (or is not a number)."""
    counts = {}
    for _, labels in tests:
        for label in labels:
            if re.fullmatch(r"step\d+", label):
                total, gpu = counts.get(label, (0, 0))
                counts[label] = (total + 1, gpu + ("gpu" in labels))
    problems = []
    for page in pages(repo):
        for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
            for match in COUNT.finditer(line):
                gpu, total, step = match.groups()
                where = "%s:%d" % (page.relative_to(repo), number)
                if not (gpu.isdigit() and total.isdigit()):
                    problems.append("%s: '%s' gives letters, not the counts" % (
                        where, match.group(0)))
                    continue
                if step not in counts:
                    continue  # the build does not hold that step
                if (int(total), int(gpu)) != counts[step]:
                    problems.append("%s: '%s', but the build registers %d tests of %s, %d of "
                                    "them [gpu]" % (where, match.group(0), counts[step][0],
                                                    step, counts[step][1]))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("--ctest", default="ctest")
    parser.add_argument("--repo", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    tests = list_tests(args.build_dir, args.ctest)
    if not tests:
        print("check_test_counts: ctest lists no tests in %s" % args.build_dir, file=sys.stderr)
        return 2
    problems = problems_of(args.repo.resolve(), tests)
    for problem in problems:
        print(problem)
    print("check_test_counts: %d problem(s)" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
