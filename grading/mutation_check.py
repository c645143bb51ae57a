#!/usr/bin/env python3
"""Proves that the grade bites: plants known bugs in the reference kernels, one at a time,
grades the mutated step exactly as grade.py does (the graded tests, plain and under the
compute-sanitizer tools of the grading plan) and checks that every mutant loses points.

The mutations are data (MUTATIONS below): a file, the exact original text (which must
occur exactly once), its replacement, and the checks expected to catch it (documentation:
shown by --list and next to what actually caught it). The source tree is copied to a work
directory (the real tree is never touched); each step gets its own copy and its own build
directory, configured with -DCOURSE_STEPS=<step> (and the steps it links) and rebuilt
incrementally. Before any mutation the unmutated step is graded and must earn full points
(otherwise a lost point would prove nothing). A mutation is caught when its step earns
fewer points; the report names the graded tests that lost them and how (a failed plain
run, or the sanitizer tool and the kernel it named).

Writes a Markdown table (mutation, family, step, points, lost on, result) to --report and
exits non-zero if any mutation survives, if its original text is not found (so the list
cannot silently rot), if a mutant does not compile, or if the baseline is not full marks.

    grading/mutation_check.py --report mutation_report.md \\
        --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 --jobs 3
    grading/mutation_check.py --dry-run     # no GPU: apply/revert all, build one mutant
"""
import argparse
import concurrent.futures
import os
import pathlib
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import grading, kernels, plan, scoring  # noqa: E402
from gradelib.arguments import (add_cmake_arg, add_sanitizer, add_seed,  # noqa: E402
                                 add_test_jobs, add_time_limits, positive)
from mutations import MUTATIONS, PENDING_MUTATIONS  # noqa: E402

TEST_PROGRAMS = {step.folder: step.program for step in plan.STEPS}

# Top-level entries of the repository that the copy leaves out (builds, data, results).
IGNORED_TOP = re.compile(r"^(build.*|\.git|\.deps|data|out|\.gl|grade-report.*)$")


PROGRESS_LOCK = threading.Lock()
PROGRESS_ROWS = []
BASELINES = {}  # step folder: its baseline row, or why it is below full marks


def progress(entry, report):
    """Records a finished row and rewrites the report, so a run cut short still leaves one."""
    with PROGRESS_LOCK:
        PROGRESS_ROWS.append(entry)
        pathlib.Path(report).write_text(markdown(
            PROGRESS_ROWS, "Mutation check (in progress: cut short)",
            "Rows finished before the run ended; mutations not listed did not run."))


def log(message):
    print(time.strftime("%H:%M:%S"), message, file=sys.stderr, flush=True)


def copy_tree(source, destination):
    """Copies the course sources to @p destination, keeping timestamps (so an existing
    build there stays incremental) and skipping builds, .git and data."""
    destination.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if IGNORED_TOP.match(entry.name):
            continue
        target = destination / entry.name
        if entry.is_dir():
            shutil.copytree(entry, target, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "results", "*.swp"))
        else:
            shutil.copy2(entry, target)


def find_problems(source, mutations):
    """Returns {mutation name: problem} for edits whose original text is not found exactly
    once (applied in order, as mutate() applies them)."""
    problems = {}
    for mutation in mutations:
        texts = {}
        for file, original, replacement in mutation.edits():
            path = source / file
            if not path.exists():
                problems[mutation.name] = f"file {file} not found"
                break
            text = texts.get(file, path.read_text())
            count = text.count(original)
            if count != 1:
                problems[mutation.name] = (f"original text found {count} times in {file} "
                                           f"(expected exactly once: {original[:50]!r}): "
                                           "update the mutation list")
                break
            if original == replacement:
                problems[mutation.name] = "replacement equals the original"
                break
            texts[file] = text.replace(original, replacement, 1)
    return problems


def run(command, log_file, timeout=None, cwd=None):
    """Runs @p command, appending its output to @p log_file; returns (exit status, output).
    The status is None on a timeout."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                cwd=cwd, check=False)
        status, output = result.returncode, result.stdout + result.stderr
    except subprocess.TimeoutExpired as expired:
        status = None
        output = (expired.stdout or b"").decode(errors="replace") if isinstance(
            expired.stdout, bytes) else (expired.stdout or "")
        output += f"\n(timed out after {timeout} s)"
    with open(log_file, "a", encoding="utf-8") as stream:
        stream.write("$ " + " ".join(command) + f"\n{output}\n(exit {status})\n")
    return status, output


class StepRunner:
    """A step's own source copy and build directory, and the checks run against them."""

    def __init__(self, step, args, work, slot=1):
        self.step = step
        self.slot = slot
        self.args = args
        self.source = work / f"src-{step}-{slot}"
        self.build = work / f"build-{step}-{slot}"
        self.log_file = work / f"{step}-{slot}.log"
        self.program = self.build / step / TEST_PROGRAMS[step]

    def prepare(self):
        copy_tree(REPO_ROOT, self.source)
        command = ["cmake", "-S", str(self.source), "-B", str(self.build),
                   f"-DCOURSE_STEPS={self.step}", "-DCOURSE_KERNELS=reference"]
        if shutil.which("ninja") and not (self.build / "CMakeCache.txt").exists():
            command += ["-G", "Ninja"]
        status, output = run(command + self.args.cmake_arg, self.log_file)
        if status != 0:
            return f"configure failed: {output.strip().splitlines()[-1:]}"
        return self.compile()

    def compile(self):
        """Builds the step's test program; returns None or the error's first lines."""
        command = ["cmake", "--build", str(self.build), "--target", TEST_PROGRAMS[self.step],
                   "-j", str(self.args.build_jobs)]
        status, output = run(command, self.log_file)
        if status == 0:
            return None
        errors = [line for line in output.splitlines() if "error" in line.lower()]
        return "build failed: " + " / ".join(errors[:2])[:300]

    def grade(self, label, mutation=None):
        """Grades the step as grade.py does; returns its score row. A mutant of a file a
        student writes is sanitized as a student's is (the sanitizers charge only the
        kernels of the student's files); the baseline and mutants of the course's own files
        check and charge every kernel."""
        step = plan.STEP_BY_LABEL[label]
        out_dir = self.log_file.parent / f"grade-{self.step}-{self.slot}"
        options = argparse.Namespace(**vars(self.args))
        options.student_kernels = {}
        options.stop_at_first_loss = mutation is not None and self.args.stop_at_first_loss
        options.graded_only = False
        if mutation is not None and students_file(mutation):
            # Only the points matter: the course tests (no points) need not run.
            options.graded_only = self.args.stop_at_first_loss
            by_folder = {each.folder: each for each in plan.STEPS}
            options.student_kernels = {label: kernels.step_kernels(
                lambda folder: self.source / folder, step, by_folder)}
        return grading.rows_for([step], {label: self.program}, {}, options, out_dir,
                                self.args.seed)[0]


def students_file(mutation):
    """Whether @p mutation edits a file a student writes (its main edit)."""
    return pathlib.PurePath(mutation.file).name in plan.STEP_BY_LABEL[next(
        step.label for step in plan.STEPS if step.folder == mutation.step)].student_files


def lost_on(row):
    """Which graded tests lost points and how: "test: failed" or "test: tool (kernel)"
    (runs stopped after the first loss are not reasons)."""
    reasons = []
    for test in row["tests"]:
        if test["weight"] == 0 or scoring.earns(test):
            continue
        if test["outcome"] not in ("passed", "stopped"):
            reasons.append(f"`{test['name']}`: {test['outcome']}")
        for run in scoring.sanitizer_failures(test):
            kernels = ", ".join(run["kernels"][:1]) or "no kernel named"
            reasons.append(f"`{test['name']}`: {run['tool']} {run['outcome']} "
                           f"({run['errors']}, {kernels})")
    return reasons


def mutate(source, mutation):
    """Applies every edit of @p mutation under @p source; returns {path: original text}."""
    originals = {}
    for file, original, replacement in mutation.edits():
        path = source / file
        text = path.read_text()
        originals.setdefault(path, text)
        path.write_text(text.replace(original, replacement, 1))
    return originals


def revert(originals):
    for path, text in originals.items():
        path.write_text(text)
        if path.read_text() != text:
            raise RuntimeError(f"could not revert {path}")


def run_step(step, mutations, args, work, dry_run, slot=1):
    """The baseline (in slot 1) and mutations of one step in one slot (a source copy and
    build directory of its own); returns a list of report rows."""
    runner = StepRunner(step, args, work, slot)
    label = next(entry.label for entry in plan.STEPS if entry.folder == step)
    log(f"{step} (slot {slot}): preparing {runner.source} and {runner.build}")
    problem = runner.prepare()
    if problem:
        return [row(mutation, f"**ERROR** unmutated {problem}") for mutation in mutations]
    if not dry_run and slot == 1:
        baseline = runner.grade(label)
        log(f"{step}: baseline {baseline['points']}/{baseline['max_points']}")
        BASELINES[step] = baseline
        if baseline["points"] < baseline["max_points"]:
            detail = "; ".join(lost_on(baseline)) or baseline["note"]
            BASELINES[step] = detail
            return [row(mutation, f"**ERROR** baseline below full marks ({detail})")
                    for mutation in mutations]
    rows = []
    for index, mutation in enumerate(mutations):
        if isinstance(BASELINES.get(step), str):  # slot 1 found the baseline below full marks
            rows.append(row(mutation, f"**ERROR** baseline below full marks "
                                      f"({BASELINES[step]})"))
            continue
        originals = mutate(runner.source, mutation)
        try:
            rows.append(try_mutant(runner, label, mutation, index, dry_run, originals))
            if not dry_run:
                progress(rows[-1], args.report)
        finally:
            revert(originals)
    if dry_run:
        # The tree is reverted: rebuild so the build directory matches it again.
        problem = runner.compile()
        log(f"{step}: rebuilt after revert: {problem or 'ok'}")
    return rows


def try_mutant(runner, label, mutation, index, dry_run, originals):
    """Builds and grades one applied mutant; returns its report row."""
    if all(path.read_text() == text for path, text in originals.items()):
        return row(mutation, "**ERROR** replacement changes nothing")
    if dry_run and index > 0 and not runner.args.build_all:
        return row(mutation, "applies and reverts")
    problem = runner.compile()
    if problem:
        return row(mutation, f"**ERROR** mutant {problem}")
    if dry_run:
        return row(mutation, "applies, builds and reverts")
    started = time.monotonic()
    graded = runner.grade(label, mutation)
    seconds = round(time.monotonic() - started)
    reasons = lost_on(graded)
    caught = graded["points"] < graded["max_points"] and (
        graded["points_at_most"] < graded["max_points"])
    not_run = any(test["outcome"] == "not run" for test in graded["tests"] if test["weight"])
    result = "caught" if caught else ("not run (no GPU)" if not_run else "**SURVIVED**")
    if not caught and not students_file(mutation) and graded["course_problems"]:
        # A bug in the course's own code (no student writes it) that a course test catches:
        # the grade reports it as a course problem, which is what it should do.
        result = "caught (course test)"
        reasons = [f"course problem: {problem}" for problem in graded["course_problems"]]
    points = graded["points"] if not graded["stopped"] else f"≤ {graded['points_at_most']}"
    log(f"{runner.step}: {mutation.name}: {result}, {points} points ({'; '.join(reasons)})")
    return row(mutation, result, points, reasons, seconds)


def row(mutation, result, points=None, reasons=(), seconds=None):
    return {"mutation": mutation.name, "family": mutation.family, "step": mutation.step,
            "file": ", ".join(dict.fromkeys(file for file, _, _ in mutation.edits())),
            "points": points, "result": result, "seconds": seconds,
            "expected": ", ".join(check.label() for check in mutation.checks),
            "lost_on": list(reasons)}


def first_catcher(entry):
    """The first sanitizer finding if any (the memory family's point), else the first
    failed test."""
    tools = [reason for reason in entry["lost_on"] if any(
        f": {tool} " in reason for tool in plan.TOOLS)]
    return (tools or entry["lost_on"] or ["-"])[0]


def markdown(rows, title, header_note):
    lines = [f"# {title}", "", header_note, "",
             "| mutation | family | step | points (of 20) | caught by | result | s |",
             "|---|---|---|---:|---|---|---:|"]
    for entry in rows:
        points = "-" if entry["points"] is None else entry["points"]
        seconds = "-" if entry.get("seconds") is None else entry["seconds"]
        lines.append(f"| {entry['mutation']} | {entry['family']} | {entry['step']} | "
                     f"{points} | {first_catcher(entry)} | {entry['result']} | {seconds} |")
    caught = sum(1 for entry in rows if entry["result"].startswith("caught"))
    memory = [entry for entry in rows if entry["family"] == "memory"]
    memory_caught = sum(1 for entry in memory if entry["result"].startswith("caught"))
    lines += ["", f"{caught} of {len(rows)} mutations caught ({memory_caught} of "
              f"{len(memory)} of the memory-safety family).", "",
              "## Every graded test that lost points", ""]
    for entry in rows:
        lines.append(f"- {entry['mutation']} (`{entry['file']}`; expected: {entry['expected']}):")
        lines += [f"  - {reason}" for reason in entry["lost_on"]] or [f"  - {entry['result']}"]
    return "\n".join(lines) + "\n"


def shard(text):
    """Parses K/N (1 <= K <= N)."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K/N, e.g. 2/3, got '{text}'") from None
    if not 1 <= index <= count:
        raise argparse.ArgumentTypeError(f"K/N needs 1 <= K <= N, got '{text}'")
    return index, count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", default="mutation_report.md", help="Markdown report")
    parser.add_argument("--work-dir", default="",
                        help="where the source copies and builds go (default: a new "
                             "temporary folder; reuse one to rebuild incrementally)")
    parser.add_argument("--steps", default="", help="comma-separated step folders to check")
    parser.add_argument("--family", choices=("results", "memory"), default="",
                        help="only the mutations of one family")
    parser.add_argument("--shard", type=shard, default=None,
                        help="K/N: only the K-th of every N mutations of each step")
    parser.add_argument("--match", default="",
                        help="only the mutations whose name contains this text (several "
                             "texts: separate them with '|')")
    parser.add_argument("--mutants-per-slot", type=positive(int), default=4,
                        help="with --slots: a step gets one slot per this many mutants")
    parser.add_argument("--slots", type=positive(int), default=1,
                        help="source copies and build directories per step, so that a step's "
                             "mutants are graded side by side (the baseline in the first)")
    parser.add_argument("--stop-at-first-loss", action="store_true",
                        help="stop grading a mutant once one graded test has lost its points "
                             "(the report then shows the points as an upper bound, e.g. "
                             "'≤ 13.3')")
    parser.add_argument("--include-pending", action="store_true",
                        help="also run the PENDING (step 4 and 5) mutations")
    parser.add_argument("--only-pending", action="store_true",
                        help="run only the PENDING (step 4 and 5) mutations")
    add_cmake_arg(parser)
    parser.add_argument("--jobs", type=positive(int), default=1, help="steps checked in parallel")
    parser.add_argument("--build-jobs", type=positive(int), default=os.cpu_count() or 2)
    add_time_limits(parser, timeout=180, sanitizer_timeout=300)
    add_test_jobs(parser, 4, "test processes of one step run side by side")
    add_seed(parser)
    add_sanitizer(parser)
    parser.add_argument("--dry-run", action="store_true",
                        help="no tests: check every original text, apply and revert each "
                             "mutation, and build the first mutant of each step")
    parser.add_argument("--build-all", action="store_true",
                        help="with --dry-run: build every mutant, not only the first of a step")
    parser.add_argument("--list", action="store_true",
                        help="print the mutations, say which are stale, and exit")
    args = parser.parse_args()
    args.no_sanitizers = False
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2 ** 63)

    mutations = PENDING_MUTATIONS if args.only_pending else (
        MUTATIONS + (PENDING_MUTATIONS if args.include_pending else []))
    if args.steps:
        wanted = set(args.steps.split(","))
        mutations = [mutation for mutation in mutations if mutation.step in wanted]
    if args.family:
        mutations = [mutation for mutation in mutations if mutation.family == args.family]
    if args.match:
        texts = [text for text in args.match.split("|") if text]
        mutations = [mutation for mutation in mutations
                     if any(text in mutation.name for text in texts)]
        if not mutations:
            parser.error(f"--match {args.match!r}: no mutation's name contains it")
    if args.shard:
        # Every n-th mutation of each step, so that n runs (e.g. n commands on a machine
        # that limits a command's time) share the work; each needs its own --work-dir.
        index, count = args.shard
        position = {}
        kept = []
        for mutation in mutations:
            position[mutation.step] = position.get(mutation.step, -1) + 1
            if position[mutation.step] % count == index - 1:
                kept.append(mutation)
        mutations = kept
    problems = find_problems(REPO_ROOT, mutations)
    if args.list:
        for mutation in mutations:
            checks = ", then ".join(check.label() for check in mutation.checks)
            stale = f"  STALE: {problems[mutation.name]}" if mutation.name in problems else ""
            print(f"{mutation.step}: {mutation.name} [{checks}]{stale}")
        return 1 if problems else 0
    rows = [row(mutation, f"**STALE** {problems[mutation.name]}")
            for mutation in mutations if mutation.name in problems]
    for name, problem in problems.items():
        log(f"STALE: {name}: {problem}")
    runnable = [mutation for mutation in mutations if mutation.name not in problems]
    steps = list(dict.fromkeys(mutation.step for mutation in runnable))

    work = pathlib.Path(args.work_dir or tempfile.mkdtemp(prefix="course-mutants-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    log(f"work directory {work}; {len(runnable)} mutation(s) over {', '.join(steps)}")
    started = time.time()
    # Each step's mutants are dealt to its slots in turn; every slot is a job of the pool,
    # the slots that build and grade the baselines first.
    # A slot costs a build of its step: a step gets one slot per --mutants-per-slot mutants.
    # With several slots, slot 1 grades only the baseline (step 4's takes minutes with every
    # kernel sanitized) and the mutants go to slots 2, 3, ...
    units = []
    for slot in range(1, args.slots + 2):
        for step in steps:
            ours = [m for m in runnable if m.step == step]
            count = min(args.slots, max(1, -(-len(ours) // args.mutants_per_slot)))
            if count == 1:
                mine = ours if slot == 1 else []
            else:
                mine = ours[slot - 2::count] if 2 <= slot <= count + 1 else []
            if mine or slot == 1:
                units.append((step, slot, mine))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_step, step, mine, args, work, args.dry_run, slot)
                   for step, slot, mine in units]
        for future in futures:
            rows += future.result()
    order = {mutation.name: index for index, mutation in enumerate(mutations)}
    rows.sort(key=lambda entry: order[entry["mutation"]])

    gpu = "dry run (no baseline, tests of the first mutant only)" if args.dry_run else (
        "GPU: " + gpu_name())
    note = (f"{gpu}; {time.strftime('%Y-%m-%d')}; {round(time.time() - started)} s. Each "
            f"mutation is applied alone to a copy of the reference tree and its step graded as "
            f"grade.py grades it (seed {args.seed}); 'caught by' names the first sanitizer "
            "finding or else the first graded test that failed."
            + ("" if args.dry_run else " Each step earned full points unmutated first.")
            + (" Grading a mutant stopped at its first lost test (--stop-at-first-loss): "
               "'≤ X' is what the tests not run could still have given, so every mutant "
               "with X below 20 lost points." if args.stop_at_first_loss else ""))
    title = "Mutation check" + (" (pending step 4 and 5 list)" if args.only_pending else "")
    report = markdown(rows, title, note)
    pathlib.Path(args.report).write_text(report)
    print(report)
    good = {"caught", "caught (course test)"}
    if args.dry_run:
        good |= {"applies and reverts", "applies, builds and reverts", "not run (no GPU)"}
    return 0 if rows and all(entry["result"] in good for entry in rows) else 1


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "none found"


if __name__ == "__main__":
    sys.exit(main())
