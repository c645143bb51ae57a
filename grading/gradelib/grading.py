"""Grades a built submission with the judge: every case of the plan runs in the sandbox
(plain, then under each compute-sanitizer tool of the plan), every evidence case once, as
the evidence run, and the judge checks every run's outputs. Runs go side by side in a
pool; a case's sanitizer runs start as soon as its plain run has passed.

The verdict is the judge's: a run counts only through the outputs it wrote, read by the
grader without following links and checked by course_judge (a program that links no
student code) against its own inputs. The runner's exit status and printout decide nothing;
the sanitizer's findings come from its own output, which the runner cannot write to (the
runner's output goes to a file of the scratch folder).

With stop_at_first_loss (the mutation check: it only has to show that a mutant loses
points), a step's remaining runs are stopped as soon as one graded case has lost its points;
they are marked "stopped" and the row says how many points they could still have given."""
import argparse
import concurrent.futures
import heapq
import itertools
import pathlib
import sys
import threading

from gradelib import budget as budget_module, gpu_share, kernels, plan, runner, scoring
from gradelib.case_runs import (RESOURCE, after_run, judge_outputs,  # noqa: F401
                                list_cases, generate_inputs, new_scratch, out_of_time_message,
                                resource_failure, run_evidence, run_sanitizer, runner_command,
                                sandboxed)

# At most this many evidence runs side by side in a turn: in the H200 class runs of 2026-11-28
# afternoon three to five of the eight evidence runs that began each turn together ran out
# of their 30 s limit, each writing a thousand host backtraces (19 s a run alone). They print
# none since (evidence.BACKTRACES; 1.9 s alone) and no run timed out in the class run of
# 18:56 UTC; the cap stays as a guard against a student whose kernels make their evidence
# runs slow. The other runs of the turn fill the other slots meanwhile.
EVIDENCE_SIDE_BY_SIDE = 2
# After this many plain runs of a step have timed out (its kernels hang), the step's cases
# that have not started yet get at most HANG_TIMEOUT seconds, so that a hanging submission
# costs minutes, not an hour.
HANGS_BEFORE_SHORT_LIMIT = 2
HANG_TIMEOUT = 60.0


class StepCases:
    """The cases of one step of one submission, filled in as their runs finish."""

    def __init__(self, step, context, names, inspection):
        self.step = step
        self.context = context  # grading-wide: sandbox, folders, judge, options
        # The inspection of the build (inspection.Inspection, or a concurrent.futures.Future
        # of one: the plain runs need nothing of it and start at once; None: the course's own
        # code, every kernel checked and charged, no findings).
        self._inspection = inspection
        # Set to stop the step's runs (the mutation check's stop at the first loss); set by
        # itself once the student's time budget is spent.
        self.cancel = budget_module.Stop(context.budget)
        self.timed_out = 0
        self.lock = threading.Lock()
        graded = plan.graded_tests(step.label)
        self.stale = [name for name in list(graded) + list(plan.EVIDENCE.get(step.label, ()))
                      if name not in names]
        self.cases = []
        for index, name in enumerate(plan.EVIDENCE.get(step.label, ()) + tuple(graded)):
            if name not in names:
                continue
            entry = graded.get(name)
            self.cases.append({
                "name": name, "index": index, "weight": entry.weight if entry else 0,
                "tools": list(entry.tools) if entry else [], "gate": entry.gate if entry else "",
                "files": list(entry.files if entry else plan.evidence_files(step.label, name)),
                "evidence": entry is None, "outcome": "not run", "message": "",
                "seconds": 0.0, "sanitizers": [], "evidence_run": None})

    def _found(self):
        found = self._inspection
        return found.result() if isinstance(found, concurrent.futures.Future) else found

    @property
    def student_kernels(self):
        """The kernels the sanitizer runs check and charge: the student's ([] when none was
        found), or None: every kernel (the course's own code, or --all-kernels)."""
        found = self._found()
        if found is None or getattr(found, "charge_all", False):
            return None
        return found.student_kernels.get(self.step.label, [])

    @property
    def evidence_kernels(self):
        """The kernels of the student's files, which the evidence run looks for."""
        found = self._found()
        return [] if found is None else found.student_kernels.get(self.step.label, []) or []

    @property
    def findings(self):
        """The inspection's findings of this step."""
        found = self._found()
        return [] if found is None else found.findings.get(self.step.label, [])

    def folder(self, *parts):
        return self.context.out_dir / f"{self.step.label}-runs" / pathlib.Path(*parts)

    def sanitizer_arguments(self, tool):
        if self.student_kernels is None:
            return []
        return kernels.sanitizer_arguments(tool, self.student_kernels)


class Context:
    """What every run of one submission shares (@p budget: its time budget, budget.Budget;
    default unlimited)."""

    def __init__(self, box, judge, build_dir, submission, inputs_dir, out_dir, options, gpu,
                 budget=None):
        self.budget = budget or budget_module.Budget()
        self.box = box
        self.judge = pathlib.Path(judge)
        self.build_dir = pathlib.Path(build_dir)
        self.submission = pathlib.Path(submission)
        self.inputs_dir = pathlib.Path(inputs_dir)
        self.out_dir = pathlib.Path(out_dir)
        self.options = options
        self.gpu = gpu


def run_plain(step_cases, case, timeout):
    """One plain run and its judgement: (outcome, message, seconds)."""
    context = step_cases.context
    if step_cases.cancel.out_of_time():
        return budget_module.OUT_OF_TIME, out_of_time_message(context), 0.0
    if step_cases.timed_out >= HANGS_BEFORE_SHORT_LIMIT:
        timeout = min(timeout, HANG_TIMEOUT)
    scratch = new_scratch(context, step_cases, case, "plain")
    try:
        result = sandboxed(context, runner_command(step_cases.step), scratch, timeout,
                           step_cases)
    except runner.Cancelled:
        after_run(scratch)
        if step_cases.cancel.out_of_time():
            return budget_module.OUT_OF_TIME, out_of_time_message(context), 0.0
        return "stopped", "stopped: an earlier graded case of the step lost its points", 0.0
    stopped_by_limit = after_run(scratch)
    if result.disturbed:
        return "failed", f"{runner.DISTURBED} (after {timeout} s)", result.seconds
    if result.timed_out:
        with step_cases.lock:
            step_cases.timed_out += 1
        return "failed", runner.timeout_message(result, timeout), result.seconds
    passed, message = judge_outputs(context, case, scratch, "plain")
    if not passed and resource_failure(scratch):
        return "failed", f"{RESOURCE}\n{message}", result.seconds
    return ("passed" if passed else "failed"), message + (
        "" if passed else stopped_by_limit), result.seconds


def lost_points(step_cases, case):
    """Whether a finished graded case (or one of its runs) lost its points, or an evidence
    case failed (every case it gates then loses its points). A run that ran out of time
    beside others, or found the GPU's memory full, has lost nothing yet: it is run again
    alone (run_again_alone), and stopping the step now would stop that second run too."""
    if to_run_again(case):
        return False
    if case["evidence"]:
        return case["outcome"] == "failed" or (case.get("evidence_run") or {}).get(
            "outcome") == "not seen"
    return case["weight"] > 0 and (case["outcome"] == "failed"
                                   or bool(scoring.sanitizer_failures(case)))


def to_run_again(case):
    """Whether a run of @p case waits for its second run alone (disturbed_runs queues it)."""
    return case["message"].startswith((runner.DISTURBED, RESOURCE)) or any(
        run.get("disturbed") for run in case["sanitizers"])


def evidence_timeout(step_cases, options):
    """The limit of an evidence run: a plain run's (one small product, a few kernels
    instrumented), shortened as a plain run's once the step has hung."""
    timeout = min(options.timeout, options.sanitizer_timeout)
    if step_cases.timed_out >= HANGS_BEFORE_SHORT_LIMIT:
        timeout = min(timeout, HANG_TIMEOUT)
    return timeout


def first_run(case, options):
    """The run a case starts with: an evidence case's evidence run is its only run (its
    outputs are judged as a plain run's), unless the sanitizers are off."""
    return "evidence" if case["evidence"] and not options.no_sanitizers else None


def plain_priority(case, label, stop_mode):
    """The order plain runs start in (smaller first): the evidence cases, then the slow cases
    (the longest chains; last when stopping at a mutant's first loss), the cases with
    sanitizer runs, the others."""
    if case["evidence"]:
        return (0,)
    slow = plan.graded_tests(label)[case["name"]].slow
    if slow:
        return (3 if stop_mode else 1, -case["weight"])
    return (2, not case["tools"], -case["weight"])


def run_queue(queue, sequence, options, stop_mode):
    """Runs the queued runs, test_jobs side by side, the most urgent first; a plain run that
    passes queues its sanitizer runs (and, for an evidence case, its evidence run)."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.test_jobs)) as pool:
        pending = {}

        def start_more():
            held = []  # evidence runs past EVIDENCE_SIDE_BY_SIDE, back in the queue after
            while queue and len(pending) < max(1, options.test_jobs):
                entry = heapq.heappop(queue)
                _, _, step_cases, case, tool = entry
                if tool == "evidence" and sum(
                        run == "evidence" for _, _, run in pending.values()) >= \
                        EVIDENCE_SIDE_BY_SIDE:
                    held.append(entry)
                    continue
                if tool is None:
                    future = pool.submit(run_plain, step_cases, case, options.timeout)
                elif tool == "evidence":
                    future = pool.submit(run_evidence, step_cases, case,
                                         evidence_timeout(step_cases, options))
                else:
                    future = pool.submit(run_sanitizer, step_cases, case, tool)
                pending[future] = (step_cases, case, tool)
            for entry in held:
                heapq.heappush(queue, entry)

        start_more()
        while pending:
            done, _ = concurrent.futures.wait(pending,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                step_cases, case, tool = pending.pop(future)
                label = step_cases.step.label
                if tool is None:
                    case["outcome"], case["message"], seconds = future.result()
                    case["seconds"] = round(seconds, 1)
                    print(f"  {label}: {case['outcome']:7s} {case['name']}", file=sys.stderr)
                    if case["outcome"] == "passed" and options.no_sanitizers:
                        case["evidence_skipped"] = case["evidence"]
                    if case["outcome"] == "passed" and not options.no_sanitizers:
                        for each in case["tools"]:
                            heapq.heappush(queue, ((0,), next(sequence), step_cases, case, each))
                elif tool == "evidence":
                    case["outcome"], case["message"], seconds, case["evidence_run"] = \
                        future.result()
                    case["seconds"] = round(seconds, 1)
                    print(f"  {label}: evidence  {case['evidence_run']['outcome']:9s} "
                          f"{case['name']} (outputs {case['outcome']})", file=sys.stderr)
                else:
                    result = future.result()
                    case["sanitizers"].append(result)
                    print(f"  {label}: {tool:9s} {result['outcome']:9s} {case['name']}",
                          file=sys.stderr)
                if stop_mode and lost_points(step_cases, case):
                    step_cases.cancel.set()
            start_more()


def disturbed_runs(steps, sequence):
    """A queue of the runs that ran out of time beside another long GPU run, or failed
    because the GPU's memory was full, their results cleared so that the second run (alone)
    is the one that counts."""
    queue = []
    for step_cases in steps:
        for case in step_cases.cases:
            if case["message"].startswith((runner.DISTURBED, RESOURCE)):
                again = "evidence" if (case["evidence_run"] or {}).get("disturbed") else None
                case.update(outcome="not run", message="", seconds=0.0, evidence_run=None)
                heapq.heappush(queue, ((0,), next(sequence), step_cases, case, again))
                continue
            for run in [run for run in case["sanitizers"] if run.get("disturbed")]:
                case["sanitizers"].remove(run)
                heapq.heappush(queue, ((0,), next(sequence), step_cases, case, run["tool"]))
    return queue


def run_again_alone(gpu, steps, sequence, options, stop_mode):
    """Runs the disturbed runs (and those that failed for a resource reason) again, one at a
    time, inside gpu_share's lock for second runs, until none is disturbed (at most
    gpu_share.MOST_RUNS runs of each in all)."""
    alone = argparse.Namespace(**vars(options))
    alone.test_jobs = 1
    alone.timeout = min(options.timeout, gpu_share.RETRY_TIMEOUT)
    alone.sanitizer_timeout = min(options.sanitizer_timeout, gpu_share.RETRY_TIMEOUT)
    for _ in range(gpu_share.MOST_RUNS - 1):
        queue = disturbed_runs(steps, sequence)
        if not queue:
            return
        print(f"  {len(queue)} run(s) timed out beside another long GPU run or found the GPU's "
              "memory full: waiting for the whole GPU to run them again, one at a time",
              file=sys.stderr)
        for step_cases in steps:
            step_cases.context.options = alone
        with gpu.alone():
            run_queue(queue, sequence, alone, stop_mode)
        for step_cases in steps:
            step_cases.context.options = options


def grade_steps(context, programs, inspection, seed, stop_mode=False):
    """Grades the built runners {Step: program}; returns {label: (cases, stale, findings,
    kernels)}. @p inspection: inspection.Inspection of the build, or a Future of one (None:
    every kernel checked and charged, no static findings: the course's own code)."""
    names = list_cases(context.judge)
    wanted = [name for step in programs for name in
              list(plan.EVIDENCE.get(step.label, ())) + list(plan.graded_tests(step.label))
              if name in names]
    generate_inputs(context.judge, seed, context.inputs_dir, wanted)
    steps = [StepCases(step, context, names, inspection) for step in programs]
    queue, sequence = [], itertools.count()
    for step_cases in steps:
        if stop_mode and any(scoring.finding_costs(step_cases.findings, case)
                             for case in step_cases.cases if case["weight"]):
            for case in step_cases.cases:
                case.update(outcome="stopped", message="stopped: a finding of the inspection "
                            "already costs a graded case")
            continue
        for case in step_cases.cases:
            heapq.heappush(queue, (plain_priority(case, step_cases.step.label, stop_mode),
                                   next(sequence), step_cases, case,
                                   first_run(case, context.options)))
    run_queue(queue, sequence, context.options, stop_mode)
    run_again_alone(context.gpu, steps, sequence, context.options, stop_mode)
    graded = {}
    for step_cases in steps:
        for case in step_cases.cases:
            case["sanitizers"].sort(key=lambda run: plan.TOOLS.index(run["tool"]))
            for run in case["sanitizers"]:
                run.pop("disturbed", None)
            if case["evidence_run"]:
                case["evidence_run"].pop("disturbed", None)
            del case["index"]
        graded[step_cases.step.label] = (step_cases.cases, step_cases.stale,
                                         step_cases.findings, step_cases.evidence_kernels)
    return graded


def rows_for(steps, programs, notes, context, inspection, seed, stop_mode=False):
    """Score rows of @p steps: graded runners, and notes for the steps without one."""
    by_label = {step.label: step for step in steps}
    to_grade = {by_label[label]: program for label, program in programs.items()}
    graded = grade_steps(context, to_grade, inspection, seed, stop_mode) if to_grade else {}
    rows = []
    for step in steps:
        result = graded.get(step.label)
        if result is None:
            rows.append(scoring.make_row(step.label, [], notes.get(step.label) or "not built"))
        else:
            cases, stale, findings, names = result
            problems = [finding.text for finding in findings if finding.rule == "inspection"]
            rows.append(scoring.make_row(step.label, cases, stale=stale, findings=findings,
                                         kernels=names, problems=problems))
    return rows


def not_run_rows(steps, programs, notes, context, found, mark=None):
    """Rows for a machine without a usable GPU: the inspection's findings, no case run.
    @p mark: fields set on every case of a built step (out_of_time_rows)."""
    names = list_cases(context.judge)
    rows = []
    for step in steps:
        if step.label not in programs:
            rows.append(scoring.make_row(step.label, [], notes.get(step.label) or "not built"))
            continue
        cases = StepCases(step, context, names, found)
        for case in cases.cases:
            case.pop("index", None)
            case.update(mark or {})
        rows.append(scoring.make_row(step.label, cases.cases, stale=cases.stale,
                                     findings=cases.findings, kernels=cases.evidence_kernels))
    return rows


def out_of_time_rows(steps, programs, notes, context, found=None):
    """Rows for a student whose time budget was spent before its runs: every case of a built
    step "out of time" (0 points, with that reason)."""
    return not_run_rows(steps, programs, notes, context, found,
                        mark={"outcome": budget_module.OUT_OF_TIME,
                              "message": out_of_time_message(context)})
