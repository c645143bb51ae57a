#!/usr/bin/env python3
"""Proves that the grade bites and cannot be cheated: plants known bugs (mutations.py) and
cheats (cheats.py) in copies of the reference, one at a time, grades the changed step
exactly as grade.py grades a student (built in the sandbox, inspected, run, judged) and
checks that every mutant loses points and every cheat scores 0 on its step (or loses the
points of the bug it hides) without changing anything outside its folders.

The mutations are data: a file, the exact original text (which must occur exactly once, so
the list cannot rot silently), its replacement, and the checks expected to catch it
(documentation). The course is built once (the pristine tree); each step gets slots, each
a copy of the course, of the reference's student files and of the pristine build, into
which mutants are planted and rebuilt incrementally. Before any mutation the unmutated step
is graded and must earn full points. Mutations of course files that no case of the judge
runs (the fast kernel, the padding) are listed as not graded: the course's tests check them.

Writes a Markdown table to --report and exits non-zero if a mutation survives, a cheat does
not score 0, is stale, does not compile, a baseline is not full marks, or a process of the
sandbox user is left.

    grading/mutation_check.py --report mutation_report.md --jobs 4 \\
        --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90
    grading/mutation_check.py --dry-run     # no GPU: apply/revert all, build, inspect
"""
import argparse
import concurrent.futures
import dataclasses
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
from gradelib import build, gpu_share, grading, inspection, integrity, plan  # noqa: E402
from gradelib import sandbox, scoring  # noqa: E402
import grade as grade_module  # noqa: E402
from gradelib.arguments import (add_cmake_arg, add_sanitizer, add_seed,  # noqa: E402
                                 add_test_jobs, add_time_limits, positive)
from cheats import CHEATS  # noqa: E402
from mutations import MUTATIONS, PENDING_MUTATIONS  # noqa: E402


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


# Course files that a case of the judge runs: mutants of other course files (the fast
# kernel, the padding) are the course tests' business (ctest), not the grader's.
JUDGED_COURSE_FILES = {"step2_three_approaches/step2_launchers.cu",
                       "step4_boundary_checks/step4_launchers.cu",
                       "step5_tensor_core_sddmm/fragment_map.cuh",
                       "step5_tensor_core_sddmm/tile_grouping.cu"}


class Shared:
    """What every slot shares: the pristine tree (built once) and the judge's options."""

    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.pristine = None
        self.course_kernels = []
        self.gpu = gpu_share.GpuRecords(work / "gpu-runs")
        self.has_gpu = None
        self.lock = threading.Lock()


class StepRunner:
    """A slot: its own course copy, submission copy (the reference's student files) and
    build folder (a copy of the pristine tree), into which mutants are planted one at a
    time, rebuilt incrementally in the sandbox and graded as grade.py grades a student."""

    def __init__(self, step, shared, slot=1):
        self.step = step
        self.slot = slot
        self.shared = shared
        self.args = shared.args
        work = shared.work
        self.source = work / f"src-{step}-{slot}"
        self.submission = work / f"submission-{step}-{slot}"
        self.build = work / f"build-{step}-{slot}"
        self.out = work / f"grade-{step}-{slot}"
        self.log_file = work / f"{step}-{slot}.log"
        self.label = next(entry.label for entry in plan.STEPS if entry.folder == step)
        self.box = None

    def prepare(self):
        copy_tree(REPO_ROOT, self.source)
        build.remove_tree(self.submission)
        build.course_version(REPO_ROOT, "reference", self.submission, plan.STEPS)
        self.box = sandbox.Sandbox(self.source, hide=[self.shared.work],
                                   enabled=not self.args.no_sandbox, uid=self.args.sandbox_uid)
        self.fresh()
        return self.compile()

    def fresh(self):
        """A new build folder, copied from the pristine tree."""
        if self.box.enabled:
            build.fresh_copy(self.shared.pristine, self.build)
        else:
            build.remove_tree(self.build)

    def steps(self):
        step = plan.STEP_BY_LABEL[self.label]
        return [step]

    def compile(self):
        """Builds the step's runner; returns None or the error's first lines."""
        self.out.mkdir(parents=True, exist_ok=True)
        programs, notes = build.build_submission(self.box, self.build, self.submission,
                                                 self.steps(), self.args, self.out,
                                                 self.args.build_jobs)
        if self.label in programs:
            return None
        return "build failed: " + notes.get(self.label, "")[:300]

    def grade(self, mutation=None):
        """Inspects and grades the step as grade.py does; returns its score row."""
        step = plan.STEP_BY_LABEL[self.label]
        found = inspection.inspect_build(self.box, self.build, self.shared.pristine,
                                         self.submission, [step], self.shared.course_kernels,
                                         jobs=self.args.test_jobs,
                                         source=mutation is None or mutation.family == "cheat")
        for problem in found.problems:
            found.findings[self.label].append(inspection.Finding(
                (), "inspection", "could not be inspected: " + problem))
        options = argparse.Namespace(**vars(self.args))
        stop = mutation is not None and self.args.stop_at_first_loss
        context = grading.Context(self.box, self.shared.pristine / build.JUDGE, self.build,
                                  self.submission, self.out / "judge" / "inputs", self.out,
                                  options, self.shared.gpu)
        if not self.shared.has_gpu:
            return grade_module.not_run_rows([step], {self.label: None}, {}, context, found)[0]
        return grading.rows_for([step], {self.label: self.build / build.runner_program(step)},
                                {}, context, found, self.args.seed, stop_mode=stop)[0]

    def target(self, file):
        """Where a mutation's file lies in this slot: the submission's copy of a student
        file, else the slot's course copy."""
        path = pathlib.PurePath(file)
        step = next(each for each in plan.STEPS if each.folder == path.parts[0])
        if path.name in step.student_files:
            return self.submission / file
        return self.source / file


def students_file(mutation):
    """Whether @p mutation edits a file a student writes (its main edit)."""
    return pathlib.PurePath(mutation.file).name in plan.STEP_BY_LABEL[next(
        step.label for step in plan.STEPS if step.folder == mutation.step)].student_files


def judged(mutation):
    """Whether a case of the judge runs every file the mutation edits."""
    return all(students_file_path(file) or file in JUDGED_COURSE_FILES
               for file, _, _ in mutation.edits())


def students_file_path(file):
    path = pathlib.PurePath(file)
    step = next((each for each in plan.STEPS if each.folder == path.parts[0]), None)
    return step is not None and path.name in step.student_files


def lost_on(row):
    """Which graded cases lost points and how (runs stopped after the first loss are not
    reasons), and the findings of the inspection."""
    reasons = [f"inspection: {', '.join(f['files'])}: {f['text'][:120]}"
               for f in row.get("findings", [])]
    for case in row["tests"]:
        if case["weight"] == 0 or not case.get("lost"):
            continue
        if case["outcome"] not in ("passed", "stopped"):
            reasons.append(f"`{case['name']}`: {case['outcome']}")
        for run in scoring.sanitizer_failures(case):
            kernels = ", ".join(run["kernels"][:1]) or "no kernel named"
            reasons.append(f"`{case['name']}`: {run['tool']} {run['outcome']} "
                           f"({run['errors']}, {kernels})")
        reasons += [f"`{case['name']}`: {reason}" for reason in case["lost"]
                    if reason.startswith("no student kernel") or "evidence" in reason]
    return list(dict.fromkeys(reasons))


def mutate(runner_slot, mutation):
    """Applies every edit of @p mutation in the slot; returns {path: original text}."""
    originals = {}
    for file, original, replacement in mutation.edits():
        path = runner_slot.target(file)
        text = path.read_text()
        originals.setdefault(path, text)
        path.write_text(text.replace(original, replacement, 1))
    return originals


def revert(originals):
    for path, text in originals.items():
        path.write_text(text)
        if path.read_text() != text:
            raise RuntimeError(f"could not revert {path}")


def run_step(step, mutations, shared, dry_run, slot=1):
    """The baseline (in slot 1) and mutations of one step in one slot; returns report rows."""
    slot_runner = StepRunner(step, shared, slot)
    log(f"{step} (slot {slot}): preparing {slot_runner.build}")
    problem = slot_runner.prepare()
    if problem:
        return [row(mutation, f"**ERROR** unmutated {problem}") for mutation in mutations]
    if not dry_run and slot == 1:
        baseline = slot_runner.grade()
        log(f"{step}: baseline {baseline['points']}/{baseline['max_points']}")
        BASELINES[step] = baseline
        if baseline["points"] < baseline["max_points"] and shared.has_gpu:
            detail = "; ".join(lost_on(baseline)) or baseline["note"]
            BASELINES[step] = detail
            return [row(mutation, f"**ERROR** baseline below full marks ({detail})")
                    for mutation in mutations]
    rows = []
    for index, mutation in enumerate(mutations):
        if isinstance(BASELINES.get(step), str):
            rows.append(row(mutation, f"**ERROR** baseline below full marks "
                                      f"({BASELINES[step]})"))
            continue
        if mutation.family == "cheat":
            slot_runner.fresh()  # a cheat never builds where another submission built
        originals = mutate(slot_runner, mutation)
        try:
            rows.append(try_mutant(slot_runner, mutation, index, dry_run, originals))
            progress(rows[-1], shared.args.report)
        finally:
            revert(originals)
    if dry_run:
        problem = slot_runner.compile()
        log(f"{step}: rebuilt after revert: {problem or 'ok'}")
    return rows


def try_mutant(slot_runner, mutation, index, dry_run, originals):
    """Builds and grades one applied mutant; returns its report row."""
    if all(path.read_text() == text for path, text in originals.items()):
        return row(mutation, "**ERROR** replacement changes nothing")
    if dry_run and index > 0 and not slot_runner.args.build_all and mutation.family != "cheat":
        return row(mutation, "applies and reverts")
    started = time.monotonic()
    watched = [REPO_ROOT, slot_runner.shared.pristine, slot_runner.shared.sentinel]
    excluded = [slot_runner.shared.work] + integrity.build_folders(REPO_ROOT)
    before = integrity.snapshot(watched, excluded) if mutation.family == "cheat" else None
    problem = slot_runner.compile()
    if problem and mutation.family != "cheat":
        return row(mutation, f"**ERROR** mutant {problem}")
    graded = slot_runner.grade(mutation) if not problem else None
    seconds = round(time.monotonic() - started)
    if graded is None:  # a cheat that does not build scores 0 (as a student's would)
        graded = scoring.make_row(slot_runner.label, [], "does not build")
    reasons = lost_on(graded)
    not_run = not slot_runner.shared.has_gpu
    if mutation.family == "cheat":
        changes = integrity.compare(before, integrity.snapshot(watched, excluded))
        result = cheat_result(mutation, graded, changes, not_run)
        reasons += [f"changed outside its folders: {change}" for change in changes[:5]]
    else:
        caught = graded["points"] < graded["max_points"] and (
            graded["points_at_most"] < graded["max_points"])
        result = "caught" if caught else ("not run (no GPU)" if not_run else "**SURVIVED**")
        if dry_run:
            result = "applies, builds and reverts"
    points = graded["points"] if not graded["stopped"] else f"≤ {graded['points_at_most']}"
    log(f"{slot_runner.step}: {mutation.name}: {result}, {points} points ({'; '.join(reasons)})")
    return row(mutation, result, points, reasons, seconds)


def cheat_result(mutation, graded, changes, not_run):
    """The verdict on a cheat: its step must score 0 (or lose points), and nothing outside
    its folders may change."""
    if changes:
        return "**DISTURBED** files outside its folders"
    if not_run:  # without a GPU only the inspection can speak
        if graded["findings"]:
            return "zero (inspection)"
        return "**NOT ZERO** (no finding)" if mutation.expect == "zero" else "not run (no GPU)"
    if mutation.expect == "zero":
        return "zero" if graded["points"] == 0 else "**NOT ZERO**"
    return "caught" if graded["points"] < graded["max_points"] else "**SURVIVED**"


def row(mutation, result, points=None, reasons=(), seconds=None):
    return {"mutation": mutation.name, "family": mutation.family, "step": mutation.step,
            "file": ", ".join(dict.fromkeys(file for file, _, _ in mutation.edits())),
            "points": points, "result": result, "seconds": seconds,
            "expected": ", ".join(check.label() for check in mutation.checks),
            "lost_on": list(reasons)}


def first_catcher(entry):
    """The first finding of the inspection, else the first sanitizer finding (the memory
    family's point), else the first failed case."""
    tools = [reason for reason in entry["lost_on"] if reason.startswith("inspection")] or [
        reason for reason in entry["lost_on"] if any(
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
    mutants = [entry for entry in rows if entry["family"] not in ("cheat", "course")]
    caught = sum(1 for entry in mutants if entry["result"].startswith("caught"))
    memory = [entry for entry in rows if entry["family"] == "memory"]
    memory_caught = sum(1 for entry in memory if entry["result"].startswith("caught"))
    cheats = [entry for entry in rows if entry["family"] == "cheat"]
    stopped = sum(1 for entry in cheats if entry["result"] in ("zero", "caught"))
    course = [entry for entry in rows if entry["family"] == "course"]
    lines += ["", f"{caught} of {len(mutants)} mutations caught ({memory_caught} of "
              f"{len(memory)} of the memory-safety family).", ""]
    if cheats:
        lines += [f"{stopped} of {len(cheats)} cheats stopped (their step scored 0, or lost "
                  "the points of their hidden bug, and nothing outside their folders "
                  "changed).", ""]
    if course:
        lines += [f"{len(course)} mutations of the course's own code that no case of the "
                  "judge runs (the fast kernel, the padding) were not graded: the course's "
                  "tests (ctest) check them.", ""]
    lines += ["## Every graded case that lost points", ""]
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


def make_parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", default="mutation_report.md", help="Markdown report")
    parser.add_argument("--work-dir", default="",
                        help="where the copies and builds go (default: a new temporary "
                             "folder; reuse one to rebuild incrementally)")
    parser.add_argument("--pristine", default="",
                        help="a course tree built by grade_class.py or grade.py (default: "
                             "build one in the work folder)")
    parser.add_argument("--steps", default="", help="comma-separated step folders to check")
    parser.add_argument("--family", choices=("results", "memory", "cheat"), default="",
                        help="only the mutations of one family")
    parser.add_argument("--no-cheats", action="store_true", help="leave the cheat set out")
    parser.add_argument("--shard", type=shard, default=None,
                        help="K/N: only the K-th of every N mutations of each step")
    parser.add_argument("--match", default="",
                        help="only the mutations whose name contains this text (several "
                             "texts: separate them with '|')")
    parser.add_argument("--mutants-per-slot", type=positive(int), default=4,
                        help="with --slots: a step gets one slot per this many mutants")
    parser.add_argument("--slots", type=positive(int), default=1,
                        help="copies and build folders per step, so that a step's mutants are "
                             "graded side by side (the baseline in the first)")
    parser.add_argument("--stop-at-first-loss", action="store_true",
                        help="stop grading a mutant once one graded case has lost its points "
                             "(the report then shows the points as an upper bound)")
    parser.add_argument("--include-pending", action="store_true",
                        help="also run the PENDING mutations")
    parser.add_argument("--only-pending", action="store_true",
                        help="run only the PENDING mutations")
    add_cmake_arg(parser)
    parser.add_argument("--jobs", type=positive(int), default=1, help="slots graded side by side")
    parser.add_argument("--build-jobs", type=positive(int), default=os.cpu_count() or 2)
    add_time_limits(parser, timeout=180, sanitizer_timeout=300)
    add_test_jobs(parser, 4, "runs of one slot side by side")
    add_seed(parser)
    add_sanitizer(parser)
    parser.add_argument("--no-sandbox", action="store_true",
                        help="build and run without bubblewrap (the cheat set then runs "
                             "unconfined: do not)")
    parser.add_argument("--sandbox-uid", type=positive(int), default=65533,
                        help="the user a root grader runs the mutants as (default 65533: not "
                             "a class run's 65534, so that each can count its own processes)")
    parser.add_argument("--dry-run", action="store_true",
                        help="no runs: check every original text, apply and revert each "
                             "mutation, build the first mutant of each step and every cheat "
                             "(the inspection's findings show without a GPU)")
    parser.add_argument("--build-all", action="store_true",
                        help="with --dry-run: build every mutant, not only the first of a step")
    parser.add_argument("--list", action="store_true",
                        help="print the mutations and cheats, say which are stale, and exit")
    return parser


def select(args, parser):
    """The mutations to run, in order."""
    mutations = PENDING_MUTATIONS if args.only_pending else (
        MUTATIONS + (PENDING_MUTATIONS if args.include_pending else []))
    mutations = [dataclasses.replace(mutation, family="course") if not judged(mutation)
                 else mutation for mutation in mutations]
    if not args.no_cheats and not args.only_pending:
        mutations += CHEATS
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
        # Every n-th mutation of each step, so that n runs share the work.
        index, count = args.shard
        position, kept = {}, []
        for mutation in mutations:
            position[mutation.step] = position.get(mutation.step, -1) + 1
            if position[mutation.step] % count == index - 1:
                kept.append(mutation)
        mutations = kept
    return mutations


def prepare_shared(args, work):
    """The pristine tree (built now unless given), the course's kernels and whether the
    sandbox sees a GPU."""
    shared = Shared(args, work)
    shared.sentinel = work / "classmate"  # a folder a cheat must not reach
    shared.sentinel.mkdir(parents=True, exist_ok=True)
    (shared.sentinel / "grades.md").write_text("| classmate | 100 |\n", encoding="utf-8")
    box = sandbox.Sandbox(REPO_ROOT, hide=[work], enabled=not args.no_sandbox,
                          uid=args.sandbox_uid)
    log(box.check())
    if args.pristine:
        shared.pristine = pathlib.Path(args.pristine).resolve()
    else:
        shared.pristine = work / "pristine"
        if not (shared.pristine / build.JUDGE).is_file():
            log(f"building the course with the reference in {shared.pristine}")
            logs = work / "pristine-logs"
            logs.mkdir(parents=True, exist_ok=True)
            options = argparse.Namespace(cmake_arg=args.cmake_arg, configure_timeout=600,
                                         build_timeout=3600)
            steps = [step for step in plan.STEPS
                     if not args.steps or step.folder in args.steps.split(",")]
            ok, message = build.build_pristine(box, shared.pristine, REPO_ROOT, options, logs,
                                               os.cpu_count() or 2, steps)
            if not ok:
                raise RuntimeError(message)
    shared.course_kernels = inspection.course_kernel_names(shared.pristine)
    shared.has_gpu = not args.dry_run and grade_module.gpu_usable(box, shared.pristine,
                                                                  work / "probe")
    return shared


def main():
    parser = make_parser()
    args = parser.parse_args()
    args.no_sanitizers = False
    args.configure_timeout, args.build_timeout = 300, 900
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2 ** 63)
    mutations = select(args, parser)
    problems = find_problems(REPO_ROOT, mutations)
    if args.list:
        for mutation in mutations:
            checks = ", then ".join(check.label() for check in mutation.checks)
            stale = f"  STALE: {problems[mutation.name]}" if mutation.name in problems else ""
            print(f"{mutation.step}: [{mutation.family}] {mutation.name} [{checks}]{stale}")
        return 1 if problems else 0
    rows = [row(mutation, f"**STALE** {problems[mutation.name]}")
            for mutation in mutations if mutation.name in problems]
    for name, problem in problems.items():
        log(f"STALE: {name}: {problem}")
    rows += [row(mutation, "not graded (course code)") for mutation in mutations
             if mutation.family == "course" and mutation.name not in problems]
    runnable = [mutation for mutation in mutations
                if mutation.name not in problems and mutation.family != "course"]
    steps = list(dict.fromkeys(mutation.step for mutation in runnable))
    work = pathlib.Path(args.work_dir or tempfile.mkdtemp(prefix="course-mutants-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    log(f"work directory {work}; {len(runnable)} mutation(s) over {', '.join(steps)}")
    started = time.time()
    try:
        shared = prepare_shared(args, work)
    except (RuntimeError, sandbox.SandboxError) as error:
        print(f"mutation_check.py: {error}", file=sys.stderr)
        return 1
    # Each step's mutants are dealt to its slots in turn (one slot per --mutants-per-slot
    # mutants, at most --slots); with several, slot 1 grades only the baseline. The cheats
    # of a step get a slot of their own, each cheat a fresh build folder.
    units = []
    for step in steps:
        ours = [m for m in runnable if m.step == step and m.family != "cheat"]
        cheats = [m for m in runnable if m.step == step and m.family == "cheat"]
        count = min(args.slots, max(1, -(-len(ours) // args.mutants_per_slot)))
        if count == 1:
            units.append((step, 1, ours))
        else:
            units.append((step, 1, []))
            units += [(step, slot, ours[slot - 2::count]) for slot in range(2, count + 2)]
        if cheats:
            units.append((step, len(units) + 100, cheats))
    units.sort(key=lambda unit: unit[1] != 1)  # the baselines first
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_step, step, mine, shared, args.dry_run, slot)
                   for step, slot, mine in units if mine or slot == 1]
        for future in futures:
            rows += future.result()
    left = integrity.processes_of(args.sandbox_uid) if os.geteuid() == 0 else []
    order = {mutation.name: index for index, mutation in enumerate(mutations)}
    rows.sort(key=lambda entry: order[entry["mutation"]])
    gpu = "dry run (no baseline, first mutant of each step and the cheats built)" \
        if args.dry_run else "GPU: " + gpu_name()
    note = (f"{gpu}; {time.strftime('%Y-%m-%d')}; {round(time.time() - started)} s. Each "
            "mutation or cheat is planted alone in a copy of the reference and its step "
            f"graded as grade.py grades a student (seed {args.seed}): built in the sandbox, "
            "inspected, run, judged; 'caught by' names the first finding of the inspection, "
            "else the first sanitizer finding, else the first graded case that failed."
            + ("" if args.dry_run else " Each step earned full points unmutated first.")
            + (" Grading a mutant stopped at its first lost case (--stop-at-first-loss): "
               "'≤ X' is what the cases not run could still have given." if
               args.stop_at_first_loss else "")
            + f" Processes of the sandbox user left at the end: {len(left)}.")
    title = "Mutation check" + (" (pending list)" if args.only_pending else "")
    report_text = markdown(rows, title, note)
    pathlib.Path(args.report).write_text(report_text)
    print(report_text)
    good = {"caught", "zero", "not graded (course code)"}
    if args.dry_run:
        good |= {"applies and reverts", "applies, builds and reverts", "not run (no GPU)",
                 "zero (inspection)"}
    return 0 if rows and not left and all(entry["result"] in good for entry in rows) else 1


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "none found"


if __name__ == "__main__":
    sys.exit(main())
