#!/usr/bin/env python3
"""Grades the course's Catch2 suites step by step.

Runs every test case of each step's test program in its own process (so that a crashing
or hanging kernel costs only its own test) with Catch2's JUnit reporter, prints a score
table (step, tests passed/total, GPU tests passed/total, points) and writes it as Markdown
and JSON. The exit status is 0 only when every test of every graded step passed.

Grade an existing build:
    grading/grade.py --build-dir build [--steps step1,step3] [--out-dir grade-report]
Configure, build and grade a student's kernels (a folder holding step folders, see
grading/README.md), or the exercise version of the kernels:
    grading/grade.py --kernels /home/me/solutions --build-dir build-grade
    grading/grade.py --kernels exercise --build-dir build-exercise

Without a GPU the [gpu] test cases cannot run; they are listed as "not run" and the grade
says so (grade on a machine with a GPU for a full score; --allow-not-run makes them not
count against the exit status). A step that is missing (no folder in the student's
submission, not built, or not compiling) gets 0 points and a note; the other steps are
still graded.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

# (label, folder, test program)
STEPS = [
    ("step1", "step1_naive", "test_step1"),
    ("step2", "step2_three_approaches", "test_step2"),
    ("step3", "step3_shared_tiling", "test_step3"),
    ("step4", "step4_boundary_checks", "test_step4"),
    ("step5", "step5_tensor_core_sddmm", "test_step5"),
]
# Steps whose CMakeLists build other steps' kernels too (step 3 links step 2's).
NEEDS = {"step3_shared_tiling": ["step2_three_approaches"]}
POINTS_PER_STEP = 20
SKIP_RETURN_CODE = 77  # the course test main: every selected test needs a GPU, none found
REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent


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


def first_lines(text, count=14, width=160):
    """The first @p count non-empty lines of @p text, each cut to @p width characters."""
    lines = [line.rstrip()[:width] for line in (text or "").strip().splitlines() if line.strip()]
    if len(lines) > count:
        lines = lines[:count] + [f"... ({len(lines) - count} more lines)"]
    return "\n".join(lines)


def parse_junit(report_path):
    """Returns (failed, message) from one test case's JUnit report, or None if unreadable."""
    try:
        root = ElementTree.parse(report_path).getroot()
    except (ElementTree.ParseError, OSError):
        return None
    cases = list(root.iter("testcase"))
    if not cases:
        return None
    for case in cases:
        # Catch2 v2 names a test case "<name>" and its sections "<name>/<section>"; the
        # test case failed if any of its entries has a failure or an error.
        for problem in list(case.iter("failure")) + list(case.iter("error")):
            text = (problem.get("message", "") + "\n" + (problem.text or "")).strip()
            return True, first_lines(text)
    return False, ""


def run_test(program, name, report_path, timeout):
    """Runs one test case; returns (outcome, message), outcome passed|failed|not run."""
    command = [str(program), name, "--warn", "NoTests", "-r", "junit", "-o", str(report_path)]
    if report_path.exists():
        report_path.unlink()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                check=False, cwd=program.parent)
    except subprocess.TimeoutExpired:
        return "failed", f"timed out after {timeout} s (a kernel that never finishes?)"
    if result.returncode == SKIP_RETURN_CODE:
        return "not run", "no CUDA device: needs a GPU"
    parsed = parse_junit(report_path)
    if parsed is None:
        output = first_lines(result.stdout + "\n" + result.stderr)
        return "failed", f"crashed or wrote no report (exit {result.returncode})\n{output}"
    failed, message = parsed
    if failed or result.returncode != 0:
        return "failed", message or first_lines(result.stdout + result.stderr)
    return "passed", ""


def grade_step(label, program, out_dir, timeout):
    """Grades one step; returns its row for the score table."""
    tests = list_tests(program)
    junit_dir = out_dir / f"{label}-junit"
    junit_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for index, (name, tags) in enumerate(sorted(tests.items())):
        outcome, message = run_test(program, name, junit_dir / f"{index:02d}.xml", timeout)
        results.append({"name": name, "gpu": "gpu" in tags, "outcome": outcome,
                        "message": message})
        print(f"  {label}: {outcome:7s} {name}", file=sys.stderr)
    return make_row(label, results)


def make_row(label, results, note=""):
    """A row of the score table from the outcomes of one step's test cases."""
    total = len(results)
    passed = sum(1 for result in results if result["outcome"] == "passed")
    gpu = [result for result in results if result["gpu"]]
    points = POINTS_PER_STEP * passed / total if total else 0.0
    return {"step": label, "passed": passed, "total": total,
            "gpu_passed": sum(1 for result in gpu if result["outcome"] == "passed"),
            "gpu_total": len(gpu),
            "failed": sum(1 for result in results if result["outcome"] == "failed"),
            "not_run": sum(1 for result in results if result["outcome"] == "not run"),
            "points": round(points, 1), "max_points": POINTS_PER_STEP, "note": note,
            "tests": results}


def markdown(rows, title):
    """The score table and, below it, the first lines of every failure."""
    lines = [f"# {title}", "",
             "| step | tests passed | GPU tests passed | failed | not run | points | note |",
             "|---|---:|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['step']} | {row['passed']}/{row['total']} | "
                     f"{row['gpu_passed']}/{row['gpu_total']} | {row['failed']} | "
                     f"{row['not_run']} | {row['points']}/{row['max_points']} | "
                     f"{row['note']} |")
    total = round(sum(row["points"] for row in rows), 1)
    maximum = sum(row["max_points"] for row in rows)
    lines.append(f"| **total** | | | | | **{total}/{maximum}** | |")
    failures = [(row["step"], test) for row in rows for test in row["tests"]
                if test["outcome"] == "failed"]
    if failures:
        lines += ["", "## Failed tests", ""]
        for step, test in failures:
            lines.append(f"- **{step}: {test['name']}**")
            if test["message"]:
                lines.append("")
                lines.append("  ```")
                lines += ["  " + line for line in test["message"].splitlines()]
                lines.append("  ```")
    not_run = sum(row["not_run"] for row in rows)
    if not_run:
        lines += ["", f"{not_run} test(s) were not run: no GPU on this machine."]
    return "\n".join(lines) + "\n"


def run_logged(command, log_path):
    """Runs @p command appending its output to @p log_path; returns its exit status."""
    with open(log_path, "a", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        return subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                              check=False).returncode


def tail(path, count=15):
    """The last @p count lines of a log file."""
    lines = pathlib.Path(path).read_text(errors="replace").splitlines()
    return "\n".join(lines[-count:])


def configure_and_build(args, steps, out_dir):
    """Configures and builds the test programs of @p steps with COURSE_KERNELS=args.kernels.

    Returns ({folder: build dir}, {label: note}) for the steps that built and the ones
    that did not. One build directory serves all steps; if it does not configure (e.g. a
    kernel file is missing from one step folder), each step is configured alone in
    <build-dir>/<folder> so that the others are still graded.
    """
    kernels = args.kernels
    if kernels not in ("reference", "exercise"):
        kernels = str(pathlib.Path(kernels).resolve())
    built, notes = {}, {}
    present = []
    for label, folder, _ in steps:
        if kernels in ("reference", "exercise") or (pathlib.Path(kernels) / folder).is_dir():
            present.append((label, folder))
        else:
            notes[label] = f"missing: no folder {folder} in {kernels}"
    if not present:
        return built, notes
    build = pathlib.Path(args.build_dir)

    def configure(build_dir, folders, log_path):
        command = ["cmake", "-S", str(args.source), "-B", str(build_dir),
                   f"-DCOURSE_KERNELS={kernels}", "-DCOURSE_STEPS=" + ";".join(folders)]
        if args.generator:
            command += ["-G", args.generator]
        return run_logged(command + args.cmake_arg, log_path) == 0

    log = out_dir / "configure.log"
    log.write_text("")
    groups = []  # (build dir, [(label, folder)])
    all_folders = [folder for _, folder in present]
    if configure(build, all_folders, log):
        groups.append((build, present))
    else:
        for label, folder in present:
            step_build = build / folder
            step_log = out_dir / f"{label}-configure.log"
            step_log.write_text("")
            if configure(step_build, [folder], step_log):
                groups.append((step_build, [(label, folder)]))
            else:
                notes[label] = f"does not configure: see {step_log.name}"
                print(f"{label}: does not configure\n{tail(step_log)}", file=sys.stderr)
    for build_dir, members in groups:
        for label, folder in members:
            step_log = out_dir / f"{label}-build.log"
            step_log.write_text("")
            target = dict((f, t) for _, f, t in STEPS)[folder]
            command = ["cmake", "--build", str(build_dir), "--target", target,
                       "-j", str(args.jobs)]
            if run_logged(command, step_log) == 0:
                built[folder] = build_dir
            else:
                notes[label] = f"does not build: see {step_log.name}"
                print(f"{label}: does not build\n{tail(step_log)}", file=sys.stderr)
    return built, notes


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="See grading/README.md for the instructors' workflow.")
    parser.add_argument("--build-dir", default="build",
                        help="build directory to grade (or to create with --kernels)")
    parser.add_argument("--out-dir", default="grade-report",
                        help="where the table, the JUnit reports and the logs go")
    parser.add_argument("--steps", default="", help="comma-separated labels, e.g. step1,step3")
    parser.add_argument("--name", default="grades",
                        help="file name (without extension) of the Markdown and JSON tables")
    parser.add_argument("--title", default="", help="heading of the Markdown table")
    parser.add_argument("--kernels", default="",
                        help="configure and build first, with COURSE_KERNELS set to this: "
                             "reference, exercise or a student's folder holding step folders")
    parser.add_argument("--source", default=str(REPO_ROOT), help="course source tree")
    parser.add_argument("--generator", default="", help="CMake generator (e.g. Ninja)")
    parser.add_argument("--cmake-arg", action="append", default=[],
                        help="extra configure argument, e.g. -DCMAKE_CUDA_ARCHITECTURES=90 "
                             "(repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="build jobs")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per test case")
    parser.add_argument("--allow-not-run", action="store_true",
                        help="exit 0 even if tests needing a GPU could not run")
    args = parser.parse_args()

    out_dir = pathlib.Path(args.out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    wanted = set(filter(None, args.steps.split(",")))
    unknown = wanted - {label for label, _, _ in STEPS}
    if unknown:
        parser.error(f"unknown step(s) {', '.join(sorted(unknown))}; the steps are "
                     + ", ".join(label for label, _, _ in STEPS))
    steps = [step for step in STEPS if not wanted or step[0] in wanted]

    build_dirs, notes = {}, {}
    if args.kernels:
        build_dirs, notes = configure_and_build(args, steps, out_dir)
    rows = []
    for label, folder, test_program in steps:
        build = build_dirs.get(folder, pathlib.Path(args.build_dir))
        program = (build / folder / test_program).resolve()
        if label in notes or not program.exists():
            note = notes.get(label, f"not built: no {program}")
            print(f"{label}: {note}", file=sys.stderr)
            rows.append(make_row(label, [], note))
            continue
        rows.append(grade_step(label, program, out_dir, args.timeout))

    title = args.title or (f"Grades ({'COURSE_KERNELS=' + args.kernels if args.kernels else 'build ' + args.build_dir})")
    table = markdown(rows, title)
    print(table)
    (out_dir / f"{args.name}.md").write_text(table)
    (out_dir / f"{args.name}.json").write_text(json.dumps(
        {"title": title, "total_points": round(sum(row["points"] for row in rows), 1),
         "max_points": sum(row["max_points"] for row in rows), "steps": rows},
        indent=2) + "\n")
    everything_passed = all(
        row["total"] > 0 and row["failed"] == 0 and not row["note"]
        and (args.allow_not_run or row["not_run"] == 0) for row in rows)
    return 0 if everything_passed else 1


if __name__ == "__main__":
    sys.exit(main())
