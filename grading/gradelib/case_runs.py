"""The runs of one case, each in the sandbox, and the judge's verdict on what they wrote.

A run gets a scratch folder of its own holding a copy of the case's inputs; the runner's
output goes to a file there (never to the stream the grader reads: a sanitizer's report must
not be forgeable by what the runner prints). Inside the sandbox the scratch folder is a small
tmpfs in which only three files are the host's (RUN_FILES: the inputs, read-only; the
outputs; the runner's printout), each at most sandbox.RUN_FILE_LIMIT bytes; once the run has
ended the printout is cut to a head and a tail (output_limits.py). The grader reads the
outputs without following links, only as a plain file of a bounded size, and course_judge (a
program that links no student code) checks them against its own copy of the inputs.

A run that failed for a reason of the machine rather than of the student's code (the GPU's
memory was full: "out of memory" in what the runner or the sanitizer printed) says so in its
message (RESOURCE): grading.py runs it again alone before it costs anything."""
import dataclasses
import math
import os
import shutil
import stat

from gradelib import budget as budget_module, evidence, output_limits, runner
from gradelib import sandbox as sandbox_module, sanitizer

JUDGE_TIMEOUT = 300.0
SANITIZER_PRINT_LIMIT = "10"
# The host files of a run's scratch folder, and whether the run may write them.
RUN_FILES = (("in.bin", False), ("out.bin", True), ("runner.log", True))
# The start of the message of a run that failed because the GPU's memory was full.
RESOURCE = "failed for a resource reason (the GPU's memory was full)"
RESOURCE_SIGNS = ("out of memory", "cudaerrormemoryallocation", "cuda_error_out_of_memory",
                  "all cuda-capable devices are busy", "cudaerrordevicesunavailable")


def stem(name):
    """The judge's file name of a case (case_file_stem in cases.cpp)."""
    return "".join(character.lower() if character.isascii() and character.isalnum() else "-"
                   for character in name)


def list_cases(judge, timeout=60):
    """{case name: step label} from the judge's listing; raises RuntimeError when it fails."""
    result = runner.run_limited([str(judge), "--list-cases"], timeout)
    if result.status != 0:
        raise RuntimeError(f"{judge} --list-cases failed (exit {result.status}): "
                           + runner.first_lines(result.output, 4))
    return dict(line.split("\t", 1) for line in result.output.splitlines() if "\t" in line)


def generate_inputs(judge, seed, folder, names):
    """Writes the inputs of @p names into @p folder (the judge's own folder)."""
    command = [str(judge), "--generate", "--seed", str(seed), "--out", str(folder)]
    for name in names:
        command += ["--case", name]
    result = runner.run_limited(command, JUDGE_TIMEOUT)
    if result.status != 0:
        raise RuntimeError("the judge could not write the inputs: "
                           + runner.first_lines(result.output, 4))


def _read_no_links(scratch, name, limit):
    """The bytes of @p name in the folder @p scratch (which the grader made), opened without
    following a link, only if it is a regular file of at most @p limit bytes."""
    directory = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=directory)
    except OSError:
        return None
    finally:
        os.close(directory)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(handle, "rb") as stream:
            handle = None
            return stream.read(limit + 1)
    finally:
        if handle is not None:
            os.close(handle)


def judge_outputs(context, case, scratch, label):
    """Checks the outputs a run left in @p scratch with the judge; returns (passed, message)."""
    inputs = context.inputs_dir / f"{stem(case['name'])}.in"
    limit = 4 * inputs.stat().st_size + (16 << 20)  # the judge checks the exact size
    data = _read_no_links(scratch, "out.bin", limit)
    for name in ("in.bin", "out.bin"):  # copies: the judge keeps its own
        try:
            os.unlink(os.path.join(scratch, name))
        except OSError:
            pass
    folder = context.out_dir / "judge" / label
    folder.mkdir(parents=True, exist_ok=True)
    output = folder / f"{stem(case['name'])}.out"
    if output.exists():
        output.unlink()
    if data is None:
        return False, "the runner wrote no outputs (out.bin missing, not a plain file, or " \
                      "too large)" + _runner_tail(scratch)
    output.write_bytes(data)
    report = folder / f"{stem(case['name'])}.xml"
    result = runner.run_limited([str(context.judge), case["name"], "--inputs",
                                 str(context.inputs_dir), "--outputs", str(folder), "-r",
                                 "junit", "-o", str(report)], JUDGE_TIMEOUT)
    output.unlink()
    parsed = runner.parse_junit(report)
    if parsed is None:
        return False, f"the judge failed (exit {result.status}): " + runner.first_lines(
            result.output, 4)
    failed, message = parsed
    if failed or result.status != 0:
        return False, (message or runner.first_lines(result.output)) + _runner_tail(scratch)
    return True, ""


def _runner_tail(scratch):
    data = _read_no_links(scratch, "runner.log", output_limits.RUNNER_LOG_LIMIT + 4096)
    text = (data or b"").decode("utf-8", errors="replace").strip()
    return ("\nthe runner printed:\n" + runner.first_lines(text, 6)) if text else ""


def new_scratch(context, step_cases, case, label):
    """A fresh scratch folder for one run, holding a copy of the case's inputs and the empty
    files the run writes (RUN_FILES)."""
    scratch = step_cases.folder(stem(case["name"]), label)
    remove(scratch)
    scratch.mkdir(parents=True)
    shutil.copyfile(context.inputs_dir / f"{stem(case['name'])}.in", scratch / "in.bin")
    for name, writable in RUN_FILES:
        if writable:
            (scratch / name).write_bytes(b"")
    context.box.prepare_writable(scratch)
    return scratch


def after_run(scratch):
    """Cuts the runner's printout to a head and a tail; returns a note when the runner was
    stopped at the sandbox's file limit (it printed or wrote too much), else ""."""
    size = output_limits.cap_file(scratch / "runner.log", output_limits.RUNNER_LOG_LIMIT)
    if size >= sandbox_module.RUN_FILE_LIMIT:
        return (f"\nthe runner printed {size >> 20} MiB or more and was stopped at the limit "
                f"of {sandbox_module.RUN_FILE_LIMIT >> 20} MiB per file of a run")
    return ""


def resource_failure(scratch, output=""):
    """Whether the runner's printout or @p output (a sanitizer's) says the GPU's memory was
    full."""
    data = _read_no_links(scratch, "runner.log", output_limits.RUNNER_LOG_LIMIT + 4096) or b""
    text = (data.decode("utf-8", errors="replace") + "\n" + (output or "")).lower()
    return any(sign in text for sign in RESOURCE_SIGNS)


def out_of_time_message(context):
    """Why a run did not happen once the student's time budget is spent."""
    return (f"{budget_module.OUT_OF_TIME}: not run, the student's time budget of "
            f"{context.budget.seconds:g} s was spent")


def remove(path):
    if os.path.lexists(path):
        shutil.rmtree(path, ignore_errors=True)


def runner_command(step):
    """The runner, its output sent to a file of the scratch folder (never to the stream the
    grader reads: a sanitizer's report must not be forgeable by what the runner prints)."""
    program = f"{sandbox_module.BUILD}/grading/{step.program}"
    return ["/bin/sh", "-c", f'exec "$0" "$@" > {sandbox_module.SCRATCH}/runner.log 2>&1',
            program, "--inputs", f"{sandbox_module.SCRATCH}/in.bin", "--outputs",
            f"{sandbox_module.SCRATCH}/out.bin"]


def sandboxed(context, argv, scratch, timeout, step_cases, log_path=None):
    """One run of @p argv in the sandbox. A run that ran out of time while the student's
    other runs ran beside it (--test-jobs above 1 in its turn on the GPU) may only have been
    slowed by them: it comes back "disturbed", so that grading.run_again_alone runs it again
    alone before it costs anything (the H200 run of 2026-11-28 lost honest students whole
    steps to evidence runs under initcheck that ran out of time eight at a time)."""
    box = context.box
    result = runner.run_limited(
        box.limited(box.command(argv, submission=context.submission, build=context.build_dir,
                                scratch=scratch, run_files=RUN_FILES), run=True),
        timeout, log_path=log_path, cancel=step_cases.cancel,
        gpu=context.gpu.step(step_cases.step.label) if context.gpu else None)
    return crowded(result, context.options)


def crowded(result, options):
    """@p result marked disturbed when it ran out of time beside other runs of its own
    (options.test_jobs above 1); unchanged otherwise."""
    if result.timed_out and not result.disturbed and getattr(options, "test_jobs", 1) > 1:
        return dataclasses.replace(result, disturbed=True)
    return result


def attach_limit(seconds):
    """compute-sanitizer's --launch-timeout for a run limited to @p seconds: how long it
    waits for the runner to connect to it. Its defaults (10 s tracking one process, 60 s
    tracking a tree) are not the run's limit: it never gives up on a runner slow to start
    (several sanitizer runs start at once in a turn) before the grader does."""
    return ["--launch-timeout", str(max(1, math.ceil(seconds)))]


def run_sanitizer(step_cases, case, tool):
    """One run under a compute-sanitizer tool: its findings, and the judge's check of what
    it computed (a run that stops early proves nothing)."""
    context = step_cases.context
    options = context.options
    stopped = {"tool": tool, "outcome": "stopped", "errors": 0, "kernels": [],
               "first_lines": "", "seconds": 0.0}
    if step_cases.cancel.out_of_time():
        return dict(stopped, outcome=budget_module.OUT_OF_TIME,
                    first_lines=out_of_time_message(context))
    scratch = new_scratch(context, step_cases, case, tool)
    extra = step_cases.sanitizer_arguments(tool)
    limit = [] if "--print-limit" in extra else ["--print-limit", SANITIZER_PRINT_LIMIT]
    command = [options.sanitizer, "--tool", tool, "--error-exitcode",
               str(sanitizer.SANITIZER_ERROR_CODE), *limit,
               *attach_limit(options.sanitizer_timeout), *extra,
               *runner_command(step_cases.step)]
    log = step_cases.folder(stem(case["name"]), f"{tool}.log")
    try:
        result = sandboxed(context, command, scratch, options.sanitizer_timeout, step_cases,
                           log)
    except runner.Cancelled:
        after_run(scratch)
        if step_cases.cancel.out_of_time():
            return dict(stopped, outcome=budget_module.OUT_OF_TIME,
                        first_lines=out_of_time_message(context))
        return stopped
    stopped_by_limit = after_run(scratch)
    entry = runner.judge_sanitizer_run(tool, result, options.sanitizer_timeout,
                                       step_cases.student_kernels)
    if result.disturbed:
        entry["disturbed"] = True
    if entry["outcome"] in ("clean", "course errors"):
        passed, message = judge_outputs(context, case, scratch, tool)
        if not passed:
            entry.update(outcome="errors", errors=max(entry["errors"], 1),
                         first_lines=f"the outputs of the run under {tool} are wrong:\n"
                         + runner.first_lines(message + stopped_by_limit, 8))
    if entry["outcome"] in ("errors", "timed out") and resource_failure(scratch, result.output):
        entry.update(disturbed=True, first_lines=RESOURCE + "\n" + entry["first_lines"])
    return entry


def run_evidence(step_cases, case, timeout):
    """The one run of an evidence case (evidence.py): initcheck restricted to the student's
    kernels, whose outputs the judge checks as a plain run's. Returns (outcome, message,
    seconds, evidence verdict)."""
    context = step_cases.context
    if step_cases.cancel.out_of_time():
        return (budget_module.OUT_OF_TIME, out_of_time_message(context), 0.0,
                {"outcome": budget_module.OUT_OF_TIME, "kernels": [], "message": ""})
    scratch = new_scratch(context, step_cases, case, "evidence")
    names = step_cases.evidence_kernels
    command = [context.options.sanitizer, *evidence.arguments(names),
               *attach_limit(timeout), *runner_command(step_cases.step)]
    log = step_cases.folder(stem(case["name"]), "evidence.log")
    try:
        result = sandboxed(context, command, scratch, timeout, step_cases, log)
    except runner.Cancelled:
        after_run(scratch)
        if step_cases.cancel.out_of_time():
            return (budget_module.OUT_OF_TIME, out_of_time_message(context), 0.0,
                    {"outcome": budget_module.OUT_OF_TIME, "kernels": [], "message": ""})
        return ("stopped", "stopped: an earlier graded case of the step lost its points", 0.0,
                {"outcome": "stopped", "kernels": [], "message": ""})
    stopped_by_limit = after_run(scratch)
    verdict = evidence.judge(result, names)
    if result.disturbed:
        verdict["disturbed"] = True
        return "failed", f"{runner.DISTURBED} (after {timeout} s)", result.seconds, verdict
    if result.timed_out:
        with step_cases.lock:
            step_cases.timed_out += 1
        return "failed", runner.timeout_message(result, timeout), result.seconds, verdict
    if verdict["outcome"] == "not run":
        return "not run", verdict["message"], result.seconds, verdict
    passed, message = judge_outputs(context, case, scratch, "evidence")
    if not passed and resource_failure(scratch, result.output):
        verdict["disturbed"] = True
        return "failed", f"{RESOURCE}\n{message}", result.seconds, verdict
    if not passed:
        message += stopped_by_limit
    return ("passed" if passed else "failed"), message, result.seconds, verdict
