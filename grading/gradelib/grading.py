"""Grades built test programs: every test case in its own process (plain), and every graded
test that passed again under each compute-sanitizer tool of the plan. Runs side by side in a
pool; a test's sanitizer runs start as soon as its plain run has passed.

With stop_at_first_loss (the mutation check: it only has to show that a mutant loses
points), a step's remaining runs are stopped as soon as one graded test has lost its
points; they are marked "stopped" and the row says how many points they could still have
given (points_at_most)."""
import argparse
import concurrent.futures
import heapq
import itertools
import pathlib
import sys
import threading

from gradelib import gpu_share, kernels, plan, runner, scoring

# After this many plain runs of a step have timed out (its kernels hang), the step's tests
# that have not started yet get at most HANG_TIMEOUT seconds, so that a hanging submission
# costs minutes, not an hour.
HANGS_BEFORE_SHORT_LIMIT = 2
HANG_TIMEOUT = 60.0


def list_tests(program, timeout=60):
    """Returns {test name: [tags]} from the course test main's listing, or raises
    RuntimeError when the program cannot list its tests."""
    result = runner.run_limited([str(program), "--course-list-tests"], timeout)
    if result.status != 0:
        raise RuntimeError(f"{program} --course-list-tests failed (exit {result.status}): "
                           + runner.first_lines(result.output, 4))
    tests = {}
    for line in result.output.splitlines():
        if "\t" in line:
            name, tags = line.split("\t", 1)
            tests[name] = tags.split(";") if tags else []
    return tests


class StepTests:
    """The tests of one step, filled in as their runs finish."""

    def __init__(self, step, program, tests, student_kernels=None, gpu=None):
        self.step = step
        self.gpu = gpu  # the class run's shared records of long GPU runs (gpu_share), or None
        self.program = pathlib.Path(program)
        # None: check and charge every kernel; else the kernels of the student's files.
        self.student_kernels = student_kernels
        self.cancel = threading.Event()  # set when the step stops at its first loss
        self.timed_out = 0
        graded = plan.graded_tests(step.label)
        self.stale = [name for name in graded if name not in tests]
        self.tests = []
        for index, (name, tags) in enumerate(sorted(tests.items())):
            entry = graded.get(name)
            self.tests.append({"name": name, "gpu": "gpu" in tags,
                               "weight": entry.weight if entry else 0,
                               "tools": list(entry.tools) if entry else [], "index": index,
                               "outcome": "not run", "message": "", "seconds": 0.0,
                               "sanitizers": []})


    def sanitizer_arguments(self, tool):
        """Arguments of one tool's runs (kernels.sanitizer_arguments)."""
        if self.student_kernels is None:
            return []
        return kernels.sanitizer_arguments(tool, self.student_kernels)


def run_plain(step_tests, test, folder, timeout, seed):
    """One plain run, with a short limit once the step's kernels have hung twice."""
    if step_tests.timed_out >= HANGS_BEFORE_SHORT_LIMIT:
        timeout = min(timeout, HANG_TIMEOUT)
    try:
        result = runner.run_test(step_tests.program, test["name"],
                                 folder / f"{test['index']:02d}.xml", timeout, seed,
                                 step_tests.cancel, step_tests.gpu)
    except runner.Cancelled:
        return "stopped", "stopped: an earlier graded test of the step lost its points", 0.0
    if result[1].startswith("timed out") and not result[1].startswith(runner.DISTURBED):
        step_tests.timed_out += 1
    return result


def run_sanitizer(step_tests, test, tool, options, seed, log):
    """One sanitizer run of a passed test (runner.sanitize_test), or a "stopped" entry."""
    try:
        return runner.sanitize_test(step_tests.program, test["name"], tool,
                                    options.sanitizer_timeout, seed, log, options.sanitizer,
                                    step_tests.sanitizer_arguments(tool),
                                    step_tests.student_kernels, step_tests.cancel,
                                    step_tests.gpu)
    except runner.Cancelled:
        return {"tool": tool, "outcome": "stopped", "errors": 0, "kernels": [],
                "first_lines": "", "seconds": 0.0}


def lost_points(test):
    """Whether a finished graded test (or one of its sanitizer runs) lost its points."""
    return test["weight"] > 0 and (test["outcome"] == "failed"
                                   or bool(scoring.sanitizer_failures(test)))


def plain_priority(test, label, stop_mode):
    """The order plain runs start in (smaller first). Grading a submission: the slow graded
    tests first (the longest chains), then graded tests with sanitizer runs, then the other
    graded tests, the course tests last. Stopping at the first loss (a mutant): the slow
    graded tests last, since a quicker test usually catches the mutant first."""
    if test["weight"] == 0:
        return (4,)
    slow = plan.graded_tests(label)[test["name"]].slow
    if slow:
        return (3 if stop_mode else 1, -test["weight"])
    return (2, not test["tools"], -test["weight"])


def grade_programs(programs, options, out_dir, seed):
    """Grades {Step: program}; returns {label: (tests, stale)}. @p options: timeout,
    sanitizer_timeout, test_jobs, sanitizer (executable), no_sanitizers, and optionally
    student_kernels ({label: kernel names of the student's files}; a step not in it checks
    and charges every kernel), stop_at_first_loss and graded_only (course tests are not run:
    the mutation check of a student's file needs only the points). In a class run (the
    environment names gpu_share's records), runs that ran out of time beside another
    submission's hang are run again once the GPU is quiet (gpu_share explains why)."""
    gpu = gpu_share.GpuRecords.from_environment() or gpu_share.GpuRecords(out_dir / "gpu-runs")
    steps = []
    names = getattr(options, "student_kernels", None) or {}
    for step, program in programs.items():
        try:
            steps.append(StepTests(step, program, list_tests(program),
                                   names.get(step.label), gpu))
        except RuntimeError as error:
            print(f"{step.label}: {error}", file=sys.stderr)
            steps.append(None)
    stop_mode = getattr(options, "stop_at_first_loss", False)
    graded_only = getattr(options, "graded_only", False)
    queue, sequence = [], itertools.count()
    for step_tests in filter(None, steps):
        folder = out_dir / f"{step_tests.step.label}-runs"
        folder.mkdir(parents=True, exist_ok=True)
        for test in step_tests.tests:
            if graded_only and test["weight"] == 0:
                test["outcome"] = "skipped"
                test["message"] = "course test not run: only the graded tests were run"
                continue
            heapq.heappush(queue, (plain_priority(test, step_tests.step.label, stop_mode),
                                   next(sequence), step_tests, test, folder, None))
    run_queue(queue, sequence, options, seed, stop_mode)
    run_again_alone(gpu, [each for each in steps if each], out_dir, sequence, options, seed,
                    stop_mode)
    graded = {}
    for step, step_tests in zip(programs, steps):
        if step_tests is None:
            graded[step.label] = None
            continue
        for test in step_tests.tests:
            test["sanitizers"].sort(key=lambda run: plan.TOOLS.index(run["tool"]))
            for run in test["sanitizers"]:
                run.pop("disturbed", None)
            del test["index"]
        graded[step.label] = (step_tests.tests, step_tests.stale)
    return graded


def run_again_alone(gpu, steps, out_dir, sequence, options, seed, stop_mode):
    """Runs the disturbed runs again, one at a time, inside gpu_share's lock for second runs,
    until none is disturbed (at most gpu_share.MOST_RUNS runs of each in all)."""
    alone = argparse.Namespace(**vars(options))
    alone.test_jobs = 1
    alone.timeout = min(options.timeout, gpu_share.RETRY_TIMEOUT)
    alone.sanitizer_timeout = min(options.sanitizer_timeout, gpu_share.RETRY_TIMEOUT)
    for _ in range(gpu_share.MOST_RUNS - 1):
        queue = disturbed_runs(steps, out_dir, sequence)
        if not queue:
            return
        print(f"  {len(queue)} run(s) timed out beside another long GPU run: waiting for "
              "the whole GPU to run them again, one at a time", file=sys.stderr)
        with gpu.alone():
            run_queue(queue, sequence, alone, seed, stop_mode)


def disturbed_runs(steps, out_dir, sequence):
    """A queue of the runs (plain or sanitizer) that ran out of time beside another long GPU
    run, their results cleared so that the second run is the one that counts."""
    queue = []
    for step_tests in steps:
        folder = out_dir / f"{step_tests.step.label}-runs"
        for test in step_tests.tests:
            if test["message"].startswith(runner.DISTURBED):
                test.update(outcome="not run", message="", seconds=0.0)
                heapq.heappush(queue, ((0,), next(sequence), step_tests, test, folder, None))
                continue
            for run in [run for run in test["sanitizers"] if run.get("disturbed")]:
                test["sanitizers"].remove(run)
                heapq.heappush(queue, ((0,), next(sequence), step_tests, test, folder,
                                       run["tool"]))
    return queue


def run_queue(queue, sequence, options, seed, stop_mode):
    """Runs the queued runs, test_jobs side by side, the most urgent first; a plain run that
    passes queues its sanitizer runs."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.test_jobs)) as pool:
        pending = {}

        def start_more():
            # Keep test_jobs runs going, the most urgent first (sanitizer runs, then the
            # plain runs in plain_priority's order), so that no run waits behind a queue.
            while queue and len(pending) < max(1, options.test_jobs):
                _, _, step_tests, test, folder, tool = heapq.heappop(queue)
                if tool is None:
                    future = pool.submit(run_plain, step_tests, test, folder, options.timeout,
                                         seed)
                else:
                    log = folder / f"{test['index']:02d}-{tool}.log"
                    future = pool.submit(run_sanitizer, step_tests, test, tool, options, seed,
                                         log)
                pending[future] = (step_tests, test, folder, tool)

        start_more()
        while pending:
            done, _ = concurrent.futures.wait(pending,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                step_tests, test, folder, tool = pending.pop(future)
                if tool is None:
                    test["outcome"], test["message"], seconds = future.result()
                    test["seconds"] = round(seconds, 1)
                    print(f"  {step_tests.step.label}: {test['outcome']:7s} {test['name']}",
                          file=sys.stderr)
                    if test["outcome"] == "passed" and test["gpu"] and not options.no_sanitizers:
                        for each in test["tools"]:
                            heapq.heappush(queue, ((0,), next(sequence), step_tests, test,
                                                   folder, each))
                else:
                    result = future.result()
                    test["sanitizers"].append(result)
                    print(f"  {step_tests.step.label}: {tool:9s} {result['outcome']:9s} "
                          f"{test['name']}", file=sys.stderr)
                if stop_mode and lost_points(test):
                    step_tests.cancel.set()
            start_more()


def rows_for(steps, programs, notes, options, out_dir, seed):
    """Score rows of @p steps: graded programs, and notes for the steps without one."""
    by_label = {step.label: step for step in steps}
    to_grade = {by_label[label]: program for label, program in programs.items()}
    graded = grade_programs(to_grade, options, out_dir, seed) if to_grade else {}
    rows = []
    for step in steps:
        result = graded.get(step.label)
        if result is None:
            note = notes.get(step.label) or "test program does not list its tests"
            rows.append(scoring.make_row(step.label, [], note))
        else:
            rows.append(scoring.make_row(step.label, result[0], stale=result[1]))
    return rows
