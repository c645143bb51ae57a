#!/usr/bin/env python3
"""Grades a student's kernels with the course's Catch2 suites, step by step.

Points come only from the tests that run the files a student writes (the grading plan,
gradelib/plan.py); each graded GPU test that passes runs again under compute-sanitizer
(memcheck, and racecheck, initcheck, synccheck where the plan says), and an error costs that
test's points. Tests of the course's own code run too and are reported, without points.
Every test process gets the run's seed (COURSE_SEED), printed in the report; --seed replays.

Configure, build and grade a submission (a folder holding step folders, see
grading/README.md), the exercise or the reference:
    grading/grade.py --kernels /home/me/solutions --out-dir grades-me
    grading/grade.py --kernels exercise --out-dir grades-exercise
Grade an existing build (nothing is configured or built):
    grading/grade.py --build-dir build --steps step1,step3

Without a GPU the [gpu] tests are "not run". A step that is missing (no folder, a file
missing, not compiling) gets 0 points and a note; the other steps are still graded.
"""
import argparse
import json
import os
import pathlib
import random
import shlex
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import build, grading, kernels, plan, report, runner, scoring  # noqa: E402
from gradelib.arguments import (add_cmake_arg, add_sanitizer, add_seed,  # noqa: E402
                                 add_test_jobs, add_time_limits, positive)

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent


def make_parser():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="See grading/README.md for the scheme and the instructors' workflow.")
    parser.add_argument("--kernels", default="",
                        help="configure and build first with COURSE_KERNELS set to this: "
                             "reference, exercise or a student's folder holding step folders")
    parser.add_argument("--build-dir", default="",
                        help="build directory (with --kernels: reused and reconfigured, "
                             "default <out-dir>/build; without: the build to grade, default "
                             "build)")
    parser.add_argument("--out-dir", default="grade-report",
                        help="where the report, the test and sanitizer logs go")
    parser.add_argument("--steps", default="", help="comma-separated labels, e.g. step1,step3")
    parser.add_argument("--name", default="grades",
                        help="file name (without extension) of the Markdown and JSON reports")
    parser.add_argument("--title", default="", help="heading of the report")
    add_seed(parser)
    parser.add_argument("--source", default=str(REPO_ROOT), help="course source tree")
    parser.add_argument("--generator", default="", help="CMake generator (e.g. Ninja)")
    add_cmake_arg(parser)
    parser.add_argument("--jobs", type=positive(int), default=os.cpu_count() or 2,
                        help="build jobs")
    add_test_jobs(parser, max(2, (os.cpu_count() or 2) // 2), "test processes run side by side")
    add_time_limits(parser, timeout=300, sanitizer_timeout=600)
    parser.add_argument("--configure-timeout", type=positive(float), default=300,
                        help="seconds for the configure step")
    parser.add_argument("--build-timeout", type=positive(float), default=1800,
                        help="seconds for the build step")
    add_sanitizer(parser)
    parser.add_argument("--no-sanitizers", action="store_true",
                        help="plain runs only (the grade then does not follow the scheme)")
    parser.add_argument("--all-kernels", action="store_true",
                        help="check and charge every kernel the tests launch, the course's "
                             "too (default: only the kernels of the student's files)")
    parser.add_argument("--graded-only", action="store_true",
                        help="run only the graded tests, not the course tests (which carry no "
                             "points and do not run the student's files; a class run runs "
                             "them once)")
    parser.add_argument("--allow-not-run", action="store_true",
                        help="exit 0 even if tests needing a GPU could not run")
    return parser


def check_arguments(parser, args):
    """Refuses bad arguments with a usage error (exit 2) before anything is written."""
    try:
        args.step_list = plan.select_steps(args.steps)
    except ValueError as error:
        parser.error(str(error))
    source = pathlib.Path(args.source).resolve()
    if not (source / "CMakeLists.txt").is_file():
        parser.error(f"--source {args.source}: not a course source tree (no CMakeLists.txt)")
    args.source = source
    out_dir = pathlib.Path(args.out_dir).resolve()
    if args.kernels and args.kernels not in ("reference", "exercise"):
        folder = pathlib.Path(args.kernels).expanduser()
        if not folder.is_dir():
            parser.error(f"--kernels {args.kernels}: no such folder (give reference, exercise "
                         "or a folder that holds step folders)")
        folder = folder.resolve()
        if any(character in str(folder) for character in ';"\\\n'):
            parser.error(f"--kernels {args.kernels}: the path holds a ';', a quote, a "
                         "backslash or a line break, which CMake cannot take; move it")
        args.kernels = str(folder)
    if args.kernels:
        build_dir = pathlib.Path(args.build_dir or out_dir / "build").resolve()
        if build_dir == source / "build" or build_dir == source:
            parser.error(f"--build-dir {build_dir} is the course's own build; grading "
                         "reconfigures its build directory: give another --build-dir")
    else:
        build_dir = pathlib.Path(args.build_dir or "build").resolve()
        if not build_dir.is_dir():
            parser.error(f"--build-dir {build_dir}: no such build directory (or give "
                         "--kernels to configure and build one)")
    args.build_dir = build_dir
    args.out_dir = out_dir
    args.seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2 ** 63)


def student_kernels(args, steps):
    """{label: kernel names of the student's files} (read from the files graded): the
    sanitizer runs charge only those (and memcheck, racecheck and synccheck instrument only
    those, see gradelib/kernels.py). Grading an existing build, or --all-kernels, checks
    and charges every kernel."""
    if not args.kernels or args.all_kernels:
        return {}
    folder_of = kernels.submission_folder(args.source, args.kernels)
    by_folder = {step.folder: step for step in plan.STEPS}
    return {step.label: kernels.step_kernels(folder_of, step, by_folder) for step in steps}


def replay_command(args):
    parts = ["grading/grade.py"]
    if args.kernels:
        parts += ["--kernels", args.kernels]
    else:
        parts += ["--build-dir", str(args.build_dir)]
    if args.steps:
        parts += ["--steps", args.steps]
    return shlex.join(parts + ["--seed", str(args.seed)])


def main():
    parser = make_parser()
    args = parser.parse_args()
    check_arguments(parser, args)
    runner.stop_children_on_term()  # a grader stopped from outside leaves no test running
    args.out_dir.mkdir(parents=True, exist_ok=True)
    print(f"seed {args.seed}", file=sys.stderr)
    steps = args.step_list
    if args.kernels:
        programs, notes = build.configure_and_build(args.source, args.build_dir, args.kernels,
                                                    steps, plan.STEPS, args, args.out_dir)
        if "_configure" in notes:
            print(notes.pop("_configure"), file=sys.stderr)
    else:
        programs, notes = {}, {}
        for step in steps:
            program = args.build_dir / step.folder / step.program
            if program.exists():
                programs[step.label] = program
            else:
                notes[step.label] = f"not built: no {program}"
    args.student_kernels = student_kernels(args, steps)
    rows = grading.rows_for(steps, programs, notes, args, args.out_dir, args.seed)
    what = f"COURSE_KERNELS={args.kernels}" if args.kernels else f"build {args.build_dir}"
    title = args.title or f"Grades ({what})"
    text = report.student_report(rows, title, args.seed, replay_command(args))
    print(text)
    (args.out_dir / f"{args.name}.md").write_text(text, encoding="utf-8")
    (args.out_dir / f"{args.name}.json").write_text(json.dumps(
        {"title": title, "seed": args.seed, "kernels": args.kernels,
         "total_points": scoring.total_points(rows), "max_points": scoring.max_points(rows),
         "steps": rows}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    full = all(not row["course_problems"] and not row["note"] and (
        row["points"] == row["max_points"] or (args.allow_not_run and all(
            scoring.earns(test) or test["outcome"] == "not run"
            for test in row["tests"] if test["weight"] > 0))) for row in rows)
    return 0 if full else 1


if __name__ == "__main__":
    sys.exit(main())
