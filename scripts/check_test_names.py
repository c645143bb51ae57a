#!/usr/bin/env python3
"""Checks the names of every ctest test of a build: each reads "<label>: <what is tested>".

ctest registers each Catch2 test case as "<label>: <name>" (cmake/CourseListTests.cmake), the
label being its step ("step4") or "common"; the scripts' and the grader's tests are named the
same way by hand. A name must therefore:
  - begin with one of the test's own labels, then ": ";
  - say that label once: the rest neither begins with "step" nor holds a second ": " prefix;
  - be unique, ignoring case (Catch2's filters, which ctest uses to pick a test, ignore case).

Usage: scripts/check_test_names.py BUILD_DIR [--ctest CTEST]
Exit status 0 when every name passes, 1 with one line per problem, 2 when ctest lists no
tests.
"""
import argparse
import json
import subprocess
import sys


def list_tests(build_dir, ctest):
    """The (name, labels) of every test ctest knows in @p build_dir."""
    result = subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        print(f"check_test_names: ctest could not list the tests of {build_dir}:\n"
              f"{result.stderr.strip()}", file=sys.stderr)
        sys.exit(2)
    tests = []
    for test in json.loads(result.stdout).get("tests", []):
        labels = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                labels = list(prop.get("value", []))
        tests.append((test["name"], labels))
    return tests


def problems_of(tests):
    """One line per name that breaks a rule of the module's docstring."""
    problems = []
    seen = {}
    for name, labels in tests:
        label, separator, what = name.partition(": ")
        if not separator or label not in labels:
            problems.append(f"'{name}': does not begin with one of its labels "
                            f"({', '.join(labels) or 'none'}) and ': '")
            continue
        if what.lower().startswith("step"):
            problems.append(f"'{name}': says the step twice (drop the 'step' prefix of "
                            f"the test case's name)")
        if ": " in what:
            problems.append(f"'{name}': holds a second 'x: ' after its label (write it as "
                            f"plain words)")
        key = name.lower()
        if key in seen:
            problems.append(f"'{name}': same name as '{seen[key]}' (ignoring case)")
        seen.setdefault(key, name)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build_dir", help="a configured and built build folder")
    parser.add_argument("--ctest", default="ctest", help="the ctest to ask (default: ctest)")
    args = parser.parse_args()
    tests = list_tests(args.build_dir, args.ctest)
    if not tests:
        print(f"check_test_names: no tests registered in {args.build_dir} (is it built?)",
              file=sys.stderr)
        return 2
    problems = problems_of(tests)
    for problem in problems:
        print(problem)
    print(f"check_test_names: {len(tests)} test names, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
