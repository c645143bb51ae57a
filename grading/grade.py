#!/usr/bin/env python3
"""Grades a submission with the judge: copies it, builds its runners in a sandbox, inspects
what was compiled, runs every graded case in the sandbox and lets the judge check the outputs.

Points come only from the judge's cases that run the files a student writes (the grading
plan, gradelib/plan.py); each case's outputs are checked by course_judge, a program that
links no student code, against its own double-precision reference; each case runs again
under compute-sanitizer (memcheck, and racecheck, initcheck, synccheck where the plan says);
an evidence run shows that the student's kernels ran on the GPU; the inspection of the
compiled files finds what a step's files may not do. The seed of the inputs is drawn after
the build (or --seed replays a run). See grading/README.md, "Threat model".

    grading/grade.py --kernels /home/me/solutions --out-dir grades-me
    grading/grade.py --kernels exercise --out-dir grades-exercise --steps step1,step3

Without a GPU the cases are "not run". A step that is missing (no folder, a file missing, not
compiling) gets 0 points and a note; the other steps are still graded.
"""
import argparse
import contextlib
import copy
import json
import os
import pathlib
import random
import shlex
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import budget as budget_module, build, grading, gpu_share  # noqa: E402
from gradelib import inspection, integrity, plan, report, runner  # noqa: E402
from gradelib import sandbox as sandbox_module, scoring  # noqa: E402
from gradelib.arguments import (add_cmake_arg, add_sanitizer, add_seed,  # noqa: E402
                                 add_test_jobs, add_time_limits, number_text, positive,
                                 seconds)

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent


def make_parser():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="See grading/README.md for the threat model, the scheme and the instructors' "
               "workflow.")
    parser.add_argument("--kernels", default="reference",
                        help="what to grade: reference, exercise or a student's folder holding "
                             "step folders (default: reference)")
    parser.add_argument("--out-dir", default="grade-report",
                        help="the submission's report folder: reports, logs, and its work "
                             "(copy, build, scratch) under work/")
    parser.add_argument("--work-dir", default="",
                        help="where the copy, the build and the scratch folders go "
                             "(default <out-dir>/work)")
    parser.add_argument("--pristine", default="",
                        help="a course tree built by an earlier run (grade_class.py builds one "
                             "per class); default: build one in <work-dir>/pristine")
    parser.add_argument("--steps", default=None,
                        help="comma-separated labels, e.g. step1,step3 (default: every step)")
    parser.add_argument("--name", default="grades",
                        help="file name (without extension) of the Markdown and JSON reports")
    parser.add_argument("--title", default="", help="heading of the report")
    add_seed(parser, "seed of the inputs (default: a fresh one, drawn after the build)")
    parser.add_argument("--source", default=str(REPO_ROOT), help="course source tree")
    add_cmake_arg(parser)
    parser.add_argument("--jobs", type=positive(int), default=os.cpu_count() or 2,
                        help="build jobs")
    add_test_jobs(parser, max(2, (os.cpu_count() or 2) // 2), "runs side by side")
    add_time_limits(parser, timeout=300, sanitizer_timeout=600)
    parser.add_argument("--configure-timeout", type=seconds, default=300,
                        help="seconds for the configure step")
    parser.add_argument("--build-timeout", type=seconds, default=1800,
                        help="seconds for the build step")
    parser.add_argument("--budget", type=non_negative_float, default=0,
                        help="seconds for this student's whole grade after the course's build "
                             "(build, inspection, runs; waiting for the GPU not counted, a "
                             "second holding it counted --budget-lanes times); the cases not "
                             "run by then score 0 (default 0: no budget)")
    parser.add_argument("--budget-lanes", type=positive(int), default=1,
                        help="the lanes of the class this grade is part of: a second holding "
                             "the GPU costs that many seconds of --budget (default 1)")
    add_sanitizer(parser)
    parser.add_argument("--no-sanitizers", action="store_true",
                        help="plain runs only, no evidence run (the grade then does not follow "
                             "the scheme)")
    parser.add_argument("--all-kernels", action="store_true",
                        help="check and charge every kernel the runs launch, the course's too")
    parser.add_argument("--allow-not-run", action="store_true",
                        help="exit 0 even if cases needing a GPU could not run")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run the build and the runs without bubblewrap (every report then "
                             "says NOT SANDBOXED; only for submissions you trust)")
    parser.add_argument("--sandbox-uid", type=non_negative, default=sandbox_module.DEFAULT_UID,
                        help="the user a root grader runs submissions as (default 65534; 0 "
                             "keeps root without capabilities: a diagnosis, not for a class)")
    parser.add_argument("--hide", action="append", default=[],
                        help="a folder the sandbox must not show (repeatable; grade_class.py "
                             "hides the class and its reports)")
    parser.add_argument("--keep-build", action="store_true",
                        help="keep the build folder and the judge's inputs (default: both "
                             "removed after grading; the seed writes the inputs again)")
    parser.add_argument("--build-only", action="store_true",
                        help="only build the pristine course tree in <work-dir>/pristine (for "
                             "grade_class.py --pristine and mutation_check.py --pristine)")
    return parser


def non_negative(text):
    """An argparse type: a whole number >= 0."""
    value = number_text(int, text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def non_negative_float(text):
    """An argparse type: a number of seconds >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def check_arguments(parser, args):
    """Refuses bad arguments with a usage error (exit 2) before anything is written."""
    if args.steps is not None and not args.steps.strip(","):
        parser.error(f"--steps needs at least one label (step1 to step5), got '{args.steps}'; "
                     "leave it out to grade every step")
    try:
        args.step_list = plan.select_steps(args.steps or "")
    except ValueError as error:
        parser.error(str(error))
    source = pathlib.Path(args.source).resolve()
    if not (source / "CMakeLists.txt").is_file():
        parser.error(f"--source {args.source}: not a course source tree (no CMakeLists.txt)")
    args.source = source
    if args.kernels not in ("reference", "exercise"):
        folder = pathlib.Path(args.kernels).expanduser()
        if not folder.is_dir():
            parser.error(f"--kernels {args.kernels}: no such folder (give reference, exercise "
                         "or a folder that holds step folders)")
        args.kernels = str(folder.resolve())
    args.out_dir = pathlib.Path(args.out_dir).resolve()
    if args.out_dir == source or source in args.out_dir.parents and \
            args.out_dir.relative_to(source).parts[0] in ("grading", "common") + tuple(
                step.folder for step in plan.STEPS):
        parser.error(f"--out-dir {args.out_dir} lies in the course's own folders: give "
                     "another folder")
    args.work_dir = pathlib.Path(args.work_dir or args.out_dir / "work").resolve()
    if args.pristine:
        args.pristine = pathlib.Path(args.pristine).resolve()
        if not (args.pristine / build.JUDGE).is_file():
            parser.error(f"--pristine {args.pristine}: no course tree built there "
                         f"({build.JUDGE} missing)")


def replay_command(args):
    parts = ["grading/grade.py", "--kernels", str(args.kernels)]
    if args.steps:
        parts += ["--steps", args.steps]
    return shlex.join(parts + ["--seed", str(args.seed)])


def say(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def prepare_pristine(box, args):
    """The pristine tree: the one given, or one built now (sandboxed, with every core)."""
    if args.pristine:
        return args.pristine
    pristine = args.work_dir / "pristine"
    if not (pristine / build.JUDGE).is_file():
        say(f"building the course with the reference in {pristine}")
        logs = args.work_dir / "pristine-logs"
        logs.mkdir(parents=True, exist_ok=True)
        ok, message = build.build_pristine(box, pristine, args.source, args, logs, args.jobs,
                                           args.step_list)
        if not ok:
            raise RuntimeError(message)
    return pristine


def gpu_usable(box, pristine, scratch):
    """Whether the pristine runner sees a GPU inside the sandbox."""
    box.prepare_writable(scratch)
    program = next((build.runner_program(step) for step in plan.STEPS
                    if (pathlib.Path(pristine) / build.runner_program(step)).is_file()), None)
    if program is None:
        return False
    def probe():
        return runner.run_limited(
            box.limited(box.command([f"{sandbox_module.BUILD}/{program}", "--probe"],
                                    build=pristine, scratch=scratch, run_files=()), run=True),
            120)
    result = probe()
    if result.status != 0 and box.enabled and os.geteuid() == 0:
        # The driver creates some device nodes (nvidia-uvm) at the first CUDA call of a
        # privileged process: let the course's own runner make that call outside, once.
        runner.run_limited([str(pathlib.Path(pristine) / program), "--probe"], 120)
        result = probe()
    say(f"GPU in the sandbox: {runner.first_lines(result.output, 2) or 'none'}")
    return result.status == 0


def grade(args, box):
    """Builds, inspects and grades within the student's time budget; returns the score
    rows."""
    steps = args.step_list
    pristine = prepare_pristine(box, args)
    budget = args.budget_state = budget_module.Budget(args.budget or None, args.budget_lanes)
    submission = args.work_dir / "submission"
    build.remove_tree(submission)
    submission.mkdir(parents=True)
    if args.kernels in ("reference", "exercise"):
        build.course_version(args.source, args.kernels, submission, [
            step for step in plan.STEPS if step in steps or any(
                step.folder in other.needs for other in steps)])
        notes = {}
    else:
        needed = [step for step in plan.STEPS if step in steps or any(
            step.folder in other.needs for other in steps)]
        notes = {label: note for label, note in build.copy_submission(
            args.kernels, submission, needed).items() if label in {s.label for s in steps}}
    present = [step for step in steps if step.label not in notes]
    build_dir = args.work_dir / "build"
    programs = {}
    if present:
        if box.enabled:
            build.fresh_copy(pristine, build_dir)
        else:
            build.remove_tree(build_dir)
        say(f"building {', '.join(step.label for step in present)}")
        limited = copy.copy(args)  # the build's limits end with the budget
        limited.configure_timeout = budget.limit(args.configure_timeout)
        limited.build_timeout = budget.limit(args.build_timeout)
        programs, build_notes = build.build_submission(box, build_dir, submission, present,
                                                       limited, args.out_dir, args.jobs)
        notes.update(build_notes)
    if args.seed is None:  # drawn now: nothing the submission compiled could know it
        args.seed = random.SystemRandom().randrange(2 ** 63)
    print(f"seed {args.seed}", file=sys.stderr)
    built = [step for step in present if step.label in programs]
    context = grading.Context(box, pristine / build.JUDGE, build_dir, submission,
                              args.out_dir / "judge" / "inputs", args.out_dir, args,
                              gpu_share.GpuRecords.from_environment()
                              or gpu_share.GpuRecords(args.work_dir / "gpu-runs"), budget)
    found = inspect_within(args, box, build_dir, pristine, submission, built, budget) \
        if built else None
    if built and found is None:
        say("the time budget was spent before the inspection ended")
        rows = grading.out_of_time_rows(steps, programs, notes, context)
    elif built:
        rows = gpu_turn(args, box, context, pristine, steps, programs, notes, found)
    else:
        rows = grading.rows_for(steps, programs, notes, context, None, args.seed)
    if not args.keep_build:
        build.remove_tree(build_dir)
        # The judge's copy of the inputs (about 21 MiB): the seed in the report writes them
        # again (course_judge --generate --seed), so a class keeps no copy per student.
        build.remove_tree(args.out_dir / "judge" / "inputs")
    return rows


def gpu_turn(args, box, context, pristine, steps, programs, notes, found):
    """Every run of the student, in its turn on the GPU (gpu_share.GpuRecords.turn: no other
    student's run beside them); the wait for the turn is not charged to the budget, the turn
    is, `--budget-lanes` times. The turn ends once the student's sandbox processes are gone
    (a GPU context that is still being torn down keeps its memory)."""
    budget = context.budget
    with contextlib.ExitStack() as turn:
        if not budget.expired():
            say("waiting for the GPU")
            with budget.waiting():
                turn.enter_context(context.gpu.turn())
            turn.enter_context(budget.holding_gpu())
            say("the GPU is this student's")
        if budget.expired():
            return grading.out_of_time_rows(steps, programs, notes, context, found)
        if not gpu_usable(box, pristine, args.work_dir / "probe"):
            return grading.not_run_rows(steps, programs, notes, context, found)
        rows = grading.rows_for(steps, programs, notes, context, found, args.seed)
        if box.enabled and box.as_root:
            left = integrity.settle(box.uid, wait=10.0, keep=runner.running_pids())
            if left:
                say("processes of the sandbox user still there at the end of the turn: "
                    + "; ".join(integrity.describe(left)[:3]))
        return rows


def inspect_within(args, box, build_dir, pristine, submission, built, budget):
    """The inspection (inspect), given at most the time left in @p budget; None when the
    budget is spent first (the inspection goes on in a thread that dies with grade.py)."""
    outcome = {}

    def work():
        try:
            outcome["found"] = inspect(args, box, build_dir, pristine, submission, built)
        except BaseException as error:  # noqa: BLE001 -- handed to the caller
            outcome["error"] = error
    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    left = budget.left()
    thread.join(None if left == float("inf") else max(0.0, left))
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("found")


def inspect(args, box, build_dir, pristine, submission, built):
    """The inspection of the student's objects; what could not be inspected costs the step."""
    say("inspecting the compiled files")
    found = inspection.inspect_build(box, build_dir, pristine, submission, built,
                                     inspection.course_kernel_names(pristine),
                                     jobs=args.test_jobs)
    found.charge_problems()
    found.charge_all = args.all_kernels
    return found


def main():
    parser = make_parser()
    args = parser.parse_args()
    check_arguments(parser, args)
    runner.stop_children_on_term()  # a grader stopped from outside leaves no run going
    integrity.become_subreaper()  # what its sandboxes leave behind is reaped here
    hide = [args.out_dir, args.work_dir] + args.hide + (
        [args.kernels] if args.kernels not in ("reference", "exercise") else [])
    try:
        box = sandbox_module.Sandbox(args.source, hide=hide, enabled=not args.no_sandbox,
                                     uid=args.sandbox_uid)
        say(box.check())
    except sandbox_module.SandboxError as error:
        print(f"grade.py: {error}", file=sys.stderr)
        return 3
    args.out_dir.mkdir(parents=True, exist_ok=True)
    args.work_dir.mkdir(parents=True, exist_ok=True)
    if args.build_only:
        try:
            pristine = prepare_pristine(box, args)
        except RuntimeError as error:
            print(f"grade.py: {error}", file=sys.stderr)
            return 1
        inspection.course_kernel_names(pristine)
        say(f"course tree built in {pristine}")
        return 0
    try:
        rows = grade(args, box)
    except RuntimeError as error:
        print(f"grade.py: {error}", file=sys.stderr)
        return 1
    what = f"COURSE_KERNELS={args.kernels}"
    title = args.title or f"Grades ({what})"
    text = report.student_report(rows, title, args.seed, replay_command(args), box.describe(),
                                 args.budget_state.summary()
                                 if getattr(args, "budget_state", None) else None)
    print(text)
    (args.out_dir / f"{args.name}.md").write_text(text, encoding="utf-8")
    time_used = args.budget_state.summary() if getattr(args, "budget_state", None) else None
    (args.out_dir / f"{args.name}.json").write_text(json.dumps(
        {"title": title, "seed": args.seed, "kernels": str(args.kernels),
         "sandbox": box.describe(), "total_points": scoring.total_points(rows),
         "max_points": scoring.max_points(rows), "time": time_used, "steps": rows}, indent=2,
        ensure_ascii=False, default=str) + "\n", encoding="utf-8")
    full = all(not row["course_problems"] and not row["note"] and (
        row["points"] == row["max_points"] or (args.allow_not_run and all(
            not case.get("lost") or case["outcome"] == "not run"
            for case in row["tests"] if case["weight"] > 0))) for row in rows)
    return 0 if full else 1


if __name__ == "__main__":
    sys.exit(main())
