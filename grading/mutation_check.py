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
    grading/mutation_check.py --deadline 300 ...   # no mutant starts after 300 s
"""
import argparse
import concurrent.futures
import dataclasses
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import time

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import build, inspection, integrity, mutant_slots, plan, sandbox  # noqa: E402
from gradelib.mutant_slots import (Shared, judged, log, markdown, row,  # noqa: E402
                                   run_step)
from gradelib.mutant_slots import mutate, revert  # noqa: E402,F401 -- the tests use them
import grade as grade_module  # noqa: E402
from gradelib.arguments import (add_cmake_arg, add_sanitizer, add_seed,  # noqa: E402
                                 add_test_jobs, add_time_limits, positive, seconds)
from cheats import CHEATS, HOSTILE  # noqa: E402
from mutations import MUTATIONS, PENDING_MUTATIONS  # noqa: E402


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
    parser.add_argument("--steps", default=None,
                        help="comma-separated step folders to check (default: every step)")
    parser.add_argument("--family", choices=("results", "memory", "cheat", "hostile"),
                        default="",
                        help="only the mutations of one family (hostile: the hostile "
                             "submissions of cheats.py, which run only when asked for)")
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
    parser.add_argument("--deadline", type=seconds, default=None,
                        help="seconds after the start past which no further mutant starts "
                             "(the cheats and the baselines always run): the mutants left are "
                             "reported 'not run (time budget)' and the report says how many "
                             "ran, so a run with a time budget still finishes with a table")
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
    if args.family == "hostile":
        mutations += HOSTILE
    if args.steps is not None and not args.steps.strip(","):
        parser.error(f"--steps needs at least one step folder, got '{args.steps}'; leave it out "
                     "to check every step")
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
    integrity.become_subreaper()
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
        ours = [m for m in runnable if m.step == step and not mutant_slots.untrusted(m)]
        cheats = [m for m in runnable if m.step == step and mutant_slots.untrusted(m)]
        count = min(args.slots, max(1, -(-len(ours) // args.mutants_per_slot)))
        if count == 1:
            units.append((step, 1, ours))
        else:
            units.append((step, 1, []))
            units += [(step, slot, ours[slot - 2::count]) for slot in range(2, count + 2)]
        if cheats:
            units.append((step, len(units) + 100, cheats))
    # Baselines first, then the cheats, then each step's second slot before any third, so
    # that a deadline leaves every step some of its mutants (dealt to its slots in turn).
    units.sort(key=lambda unit: (unit[1] != 1, unit[1] < 100, unit[1]))
    if args.deadline:
        shared.deadline = time.monotonic() + args.deadline - (time.time() - started)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_step, step, mine, shared, args.dry_run, slot)
                   for step, slot, mine in units if mine or slot == 1]
        for future in futures:
            rows += future.result()
    # What the sandboxes left, zombies included, once they had a moment to end (reaped here:
    # this process adopts its children's orphans).
    left = integrity.settle(args.sandbox_uid, 15.0) \
        if os.geteuid() == 0 and not args.no_sandbox else []
    order = {mutation.name: index for index, mutation in enumerate(mutations)}
    rows.sort(key=lambda entry: order[entry["mutation"]])
    gpu = ("dry run (each unmutated step inspected, which must find nothing; the first "
           "mutant of each step and the cheats built)") \
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
            + f" Processes of the sandbox user left at the end: {len(left)}"
            + (f" ({'; '.join(integrity.describe(left)[:3])})" if left else "") + ".")
    title = "Mutation check" + (" (pending list)" if args.only_pending else "")
    report_text = markdown(rows, title, note)
    pathlib.Path(args.report).write_text(report_text)
    print(report_text)
    good = {"caught", "zero", "contained", "not graded (course code)", mutant_slots.OUT_OF_TIME}
    good |= mutant_slots.CHEAT_GOOD
    if args.dry_run:
        good |= {"applies and reverts", "applies, builds and reverts"}
        good |= mutant_slots.CHEAT_GOOD_WITHOUT_GPU
    return 0 if rows and not left and all(entry["result"] in good for entry in rows) else 1


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "none found"


if __name__ == "__main__":
    sys.exit(main())
