"""The slots of the mutation check (mutation_check.py): each a copy of the course, of the
reference's student files and of the pristine build, into which mutants and cheats are
planted one at a time, rebuilt incrementally in the sandbox and graded as grade.py grades a
student; and the report's rows and Markdown."""
import argparse
import contextlib
import pathlib
import re
import shutil
import sys
import threading
import time

from gradelib import build, gpu_share, grading, inspection, integrity, plan
from gradelib import sandbox, scoring

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

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



JUDGED_COURSE_FILES = {"step2_three_approaches/step2_launchers.cu",
                       "step4_boundary_checks/step4_launchers.cu",
                       "step5_tensor_core_sddmm/fragment_map.cuh",
                       "step5_tensor_core_sddmm/tile_grouping.cu"}


OUT_OF_TIME = "not run (time budget)"


class Shared:
    """What every slot shares: the pristine tree (built once) and the judge's options."""

    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.deadline = None  # time.monotonic() past which no further mutant starts
        self.pristine = None
        self.course_kernels = []
        # The class run's records when one shares the GPU (gpu_evidence.sh), else its own.
        self.gpu = gpu_share.GpuRecords.from_environment() or gpu_share.GpuRecords(
            work / "gpu-runs")
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
        # A grader of its own on the shared GPU: its second runs hold the gate against the
        # other slots too, and a hang in another slot's mutant disturbs its runs.
        self.gpu = shared.gpu.grader(f"{step}-{slot}")

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
        # A mutant of the course's own files (a launcher) changes the host code the
        # comparison with the pristine tree expects: that comparison is for students' files.
        # Without the sandbox the slot's course is a copy at another path than the pristine
        # tree's (its __FILE__ strings differ): no comparison either.
        course_edit = mutation is not None and not all(
            students_file_path(file) for file, _, _ in mutation.edits())
        found = inspection.inspect_build(self.box, self.build, self.shared.pristine,
                                         self.submission, [step], self.shared.course_kernels,
                                         jobs=self.args.test_jobs,
                                         compare_host=self.box.enabled and not course_edit)
        found.charge_problems()
        options = argparse.Namespace(**vars(self.args))
        stop = mutation is not None and self.args.stop_at_first_loss
        context = grading.Context(self.box, self.shared.pristine / build.JUDGE, self.build,
                                  self.submission, self.out / "judge" / "inputs", self.out,
                                  options, self.gpu)
        if not self.shared.has_gpu:
            return grading.not_run_rows([step], {self.label: None}, {}, context, found)[0]
        # A cheat or a hostile submission has the GPU to itself, as a class run's student
        # does (gpu_share.turn): a memory hog among the cheats cannot make another slot's
        # mutant fail, which would count as caught.
        with self.gpu.turn() if mutation is not None and untrusted(mutation) \
                else contextlib.nullcontext():
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
    reasons = [f"inspection: {', '.join(f['files'])}: {f['text'][:200]}"
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


def out_of_time(shared, mutation):
    """Whether @p mutation may no longer start (a cheat always does)."""
    return (not untrusted(mutation) and shared.deadline is not None
            and time.monotonic() > shared.deadline)


def run_step(step, mutations, shared, dry_run, slot=1):
    """The baseline (in slot 1) and mutations of one step in one slot; returns report rows."""
    if slot != 1 and mutations and all(out_of_time(shared, each) for each in mutations):
        return [row(mutation, OUT_OF_TIME) for mutation in mutations]
    slot_runner = StepRunner(step, shared, slot)
    log(f"{step} (slot {slot}): preparing {slot_runner.build}")
    problem = slot_runner.prepare()
    if problem:
        return [row(mutation, f"**ERROR** unmutated {problem}") for mutation in mutations]
    if slot == 1:  # without a GPU, the inspection of the unmutated step alone
        baseline = slot_runner.grade()
        log(f"{step}: baseline {baseline['points']}/{baseline['max_points']}, "
            f"{len(baseline['findings'])} finding(s) of the inspection")
        BASELINES[step] = baseline
        if baseline["findings"] or (baseline["points"] < baseline["max_points"]
                                    and shared.has_gpu):
            detail = "; ".join(lost_on(baseline)) or baseline["note"]
            BASELINES[step] = detail
            return [row(mutation, f"**ERROR** baseline below full marks ({detail})")
                    for mutation in mutations]
    rows = []
    for index, mutation in enumerate(mutations):
        if out_of_time(shared, mutation):
            rows.append(row(mutation, OUT_OF_TIME))
            continue
        if isinstance(BASELINES.get(step), str):
            rows.append(row(mutation, f"**ERROR** baseline below full marks "
                                      f"({BASELINES[step]})"))
            continue
        if untrusted(mutation):
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
    if dry_run and index > 0 and not slot_runner.args.build_all and not untrusted(mutation):
        return row(mutation, "applies and reverts")
    started = time.monotonic()
    watched = [REPO_ROOT, slot_runner.shared.pristine, slot_runner.shared.sentinel]
    excluded = [slot_runner.shared.work] + integrity.build_folders(REPO_ROOT)
    before = integrity.snapshot(watched, excluded) if untrusted(mutation) else None
    problem = slot_runner.compile()
    if problem and (not untrusted(mutation) or mutation.expect in ("reference", "full")):
        return row(mutation, f"**ERROR** mutant {problem}")
    graded = slot_runner.grade(mutation) if not problem else None
    seconds = round(time.monotonic() - started)
    if graded is None:  # a cheat that does not build scores 0 (as a student's would)
        graded = scoring.make_row(slot_runner.label, [], "does not build")
    reasons = lost_on(graded)
    not_run = not slot_runner.shared.has_gpu
    if untrusted(mutation):
        changes = integrity.compare(before, integrity.snapshot(watched, excluded))
        result = cheat_result(mutation, graded, changes, not_run, folder_bytes(slot_runner.out))
        reasons += [f"changed outside its folders: {change}" for change in changes[:5]]
    else:
        caught = graded["points"] < graded["max_points"] and (
            graded["points_at_most"] < graded["max_points"])
        result = "not run (no GPU)" if not_run else ("caught" if caught else "**SURVIVED**")
        if dry_run:
            result = "applies, builds and reverts"
    points = graded["points"] if not graded["stopped"] else f"≤ {graded['points_at_most']}"
    log(f"{slot_runner.step}: {mutation.name}: {result}, {points} points ({'; '.join(reasons)})")
    return row(mutation, result, points, reasons, seconds)


def untrusted(mutation):
    """Whether @p mutation is a cheat or a hostile submission (cheats.py): graded in a fresh
    build folder, with the GPU to itself, and checked for what it changed outside."""
    return mutation.family in ("cheat", "hostile")


# A hostile submission's report folder (its logs, the runner's printout cut to a head and a
# tail) stays under this size.
REPORT_LIMIT = 64 << 20


def folder_bytes(folder):
    """The bytes of the plain files under @p folder (links not followed)."""
    total = 0
    for path in pathlib.Path(folder).rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            pass
    return total


# The verdicts of the cheat set (cheats.py) that are what it expects.
CHEAT_GOOD = {"zero", "caught", "reference score", "full, no finding"}
CHEAT_GOOD_WITHOUT_GPU = {"zero (inspection)", "no finding", "not run (no GPU)"}


def cheat_result(mutation, graded, changes, not_run, report_bytes=0):
    """The verdict on an entry of the cheat set: nothing outside its folders may change, and
    its step must score 0 ("zero"), lose points ("loses"), or earn full marks with no finding
    ("reference": host code that is never compiled; "full": an honest launcher); a hostile
    submission must be "contained": nothing outside its folders changed and its report folder
    bounded (REPORT_LIMIT), whatever its points."""
    if changes:
        return "**DISTURBED** files outside its folders"
    if mutation.expect == "contained":
        if not_run:
            return "not run (no GPU)"
        return "contained" if report_bytes <= REPORT_LIMIT else (
            f"**NOT CONTAINED** (its report folder holds {report_bytes >> 20} MiB)")
    full_marks = mutation.expect in ("reference", "full")
    if not_run:  # without a GPU only the inspection can speak
        if full_marks:
            return "**FLAGGED** (a finding)" if graded["findings"] else "no finding"
        if graded["findings"]:
            return "zero (inspection)"
        return "**NOT ZERO** (no finding)" if mutation.expect == "zero" else "not run (no GPU)"
    if full_marks:
        whole = graded["points"] == graded["max_points"] and not graded["findings"]
        if whole:
            return "reference score" if mutation.expect == "reference" else "full, no finding"
        return "**NOT FULL**"
    if mutation.expect == "zero":
        return "zero" if graded["points"] == 0 else "**NOT ZERO**"
    return "caught" if graded["points"] < graded["max_points"] else "**SURVIVED**"


def row(mutation, result, points=None, reasons=(), seconds=None):
    return {"mutation": mutation.name, "family": mutation.family, "step": mutation.step,
            "file": ", ".join(dict.fromkeys(file for file, _, _ in mutation.edits())),
            "points": points, "result": result, "seconds": seconds,
            "expected": ", ".join(check.label() for check in mutation.checks),
            "expect": mutation.expect, "lost_on": list(reasons)}


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
    mutants = [entry for entry in rows if entry["family"] not in ("cheat", "course", "hostile")]
    caught = sum(1 for entry in mutants if entry["result"].startswith("caught"))
    memory = [entry for entry in rows if entry["family"] == "memory"]
    memory_caught = sum(1 for entry in memory if entry["result"].startswith("caught"))
    everything = [entry for entry in rows if entry["family"] == "cheat"]
    cheats = [entry for entry in everything if entry.get("expect") in ("zero", "loses")]
    stopped = sum(1 for entry in cheats
                  if entry["result"] in ("zero", "caught", "zero (inspection)"))
    hostile = [entry for entry in rows if entry["family"] == "hostile"]
    contained = sum(1 for entry in hostile if entry["result"] == "contained")
    never_run = [entry for entry in everything if entry.get("expect") == "reference"]
    honest = [entry for entry in everything if entry.get("expect") == "full"]
    whole = {"reference score", "full, no finding", "no finding"}
    course = [entry for entry in rows if entry["family"] == "course"]
    late = [entry for entry in mutants if entry["result"] == OUT_OF_TIME]
    ran = [entry for entry in mutants if entry["result"] != OUT_OF_TIME]
    lines += ["", f"{caught} of {len(ran)} mutations caught ({memory_caught} of "
              f"{sum(1 for entry in memory if entry['result'] != OUT_OF_TIME)} of the "
              "memory-safety family).", ""]
    if late:
        lines += [f"{len(late)} of {len(mutants)} mutations did not start within the time "
                  f"budget (--deadline): the run is a shard of the list, every step's "
                  "mutants dealt to its slots in turn; the cheats and the baselines all ran.",
                  ""]
    if cheats:
        lines += [f"{stopped} of {len(cheats)} cheats stopped (their step scored 0, or lost "
                  "the points of their hidden bug, and nothing outside their folders "
                  "changed).", ""]
    if hostile:
        lines += [f"{contained} of {len(hostile)} hostile submissions contained (nothing "
                  "outside their folders changed, their report folder bounded).", ""]
    if never_run:
        lines += [f"{sum(1 for e in never_run if e['result'] in whole)} of {len(never_run)} "
                  "cheats with host code in the kernel files of steps 2 to 5 scored the "
                  "reference's full marks with no finding (that code is compiled for the GPU "
                  "only: it never runs; each would have scored 0 had it run).", ""]
    if honest:
        lines += [f"{sum(1 for e in honest if e['result'] in whole)} of {len(honest)} honest "
                  "variants of step 1's launcher scored full marks with no finding.", ""]
    if course:
        lines += [f"{len(course)} mutations of the course's own code that no case of the "
                  "judge runs (the fast kernel, the padding) were not graded: the course's "
                  "tests (ctest) check them.", ""]
    lines += ["## Every graded case that lost points", ""]
    for entry in rows:
        lines.append(f"- {entry['mutation']} (`{entry['file']}`; expected: {entry['expected']}):")
        lines += [f"  - {reason}" for reason in entry["lost_on"]] or [f"  - {entry['result']}"]
    return "\n".join(lines) + "\n"
