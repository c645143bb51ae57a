"""Runs commands with a time limit (the whole process group is killed when it passes), reads
JUnit reports and judges a compute-sanitizer run from its output."""
import contextlib
import dataclasses
import os
import pathlib
import signal
import subprocess
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree

from gradelib import gpu_share, kernels, output_limits, sanitizer

SKIP_RETURN_CODE = 77  # the course test main: every selected test needs a GPU, none found


@dataclasses.dataclass
class Completed:
    """How a command ended: its exit status (None when it ran out of time) and output."""
    status: object
    output: str
    seconds: float
    disturbed: bool = False  # it ran out of time beside another grader's long run (gpu_share)
    # What its processes were doing when it ran out of time (processes_at_limit), else "".
    at_limit: str = ""

    @property
    def timed_out(self):
        return self.status is None


# The process groups of the commands running now (run_limited), for stop_children_on_term.
_RUNNING = set()
_RUNNING_LOCK = threading.Lock()


def running_pids():
    """The processes run_limited is waiting for now (integrity.reap_orphans must leave
    them to their subprocess.Popen)."""
    with _RUNNING_LOCK:
        return set(_RUNNING)


def stop_children_on_term(on_stop=None):
    """Makes SIGTERM (e.g. from `timeout`) stop the commands this process runs too: each
    runs in a process group of its own, which the signal would not reach. Sends them SIGTERM
    (a grader among them stops its own commands the same way), calls @p on_stop() (e.g. to
    write what is done so far) and exits with status 143."""
    def stop(number, _frame):
        with _RUNNING_LOCK:
            groups = list(_RUNNING)
        for group in groups:
            try:
                os.killpg(group, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        if on_stop is not None:
            on_stop()
        os._exit(128 + number)
    signal.signal(signal.SIGTERM, stop)


class Cancelled(Exception):
    """A run stopped because its grading no longer needs it (see grading.grade_programs's
    stop_at_first_loss)."""


def run_limited(command, timeout, cwd=None, env=None, log_path=None, cancel=None, gpu=None):
    """Runs @p command for at most @p timeout seconds (its process group is killed then);
    stdout and stderr together. Appends the command and its output to @p log_path as the
    output comes (a run stopped from outside still leaves what it printed). When the
    threading.Event @p cancel is set, the process group is killed and Cancelled raised.
    @p gpu: the class run's gpu_share.GpuRecords, for a run on the GPU (or None). No Python
    code runs in the child between fork and exec (no preexec_fn: the grader starts runs from
    several threads; sandbox.Sandbox.limited sets a run's limits with a program instead)."""
    if cancel is not None and cancel.is_set():
        raise Cancelled()
    # In a class run the GPU is shared through gpu_share's gate: the clock starts once this
    # run holds its share (a second run of another grader may hold the whole GPU meanwhile).
    with gpu.sharing() if gpu is not None else contextlib.nullcontext():
        return _run_counted(command, timeout, cwd, env, log_path, cancel, gpu)


def _run_counted(command, timeout, cwd, env, log_path, cancel, gpu):
    """run_limited's run, from the moment it may use the GPU."""
    started = time.monotonic()
    watch = _LongRunWatch(gpu, timeout)
    if log_path is not None:
        with open(log_path, "a", encoding="utf-8") as log:
            log.write("$ " + " ".join(str(part) for part in command) + "\n")
        sink = open(log_path, "a+b")
    else:
        sink = tempfile.TemporaryFile()
    with sink:
        first_byte = sink.seek(0, os.SEEK_END)
        with subprocess.Popen(command, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, start_new_session=True) as process:
            with _RUNNING_LOCK:
                _RUNNING.add(process.pid)
            try:
                status, at_limit = _wait_limited(process, started, timeout, cancel, watch)
            finally:
                with _RUNNING_LOCK:
                    _RUNNING.discard(process.pid)
                watch.finish()
        raw = output_limits.read_bounded(sink, first_byte)
    output = raw.decode("utf-8", errors="replace")
    if log_path is not None:
        output_limits.cap_file(log_path)
        with open(log_path, "a", encoding="utf-8") as log:
            if output and not output.endswith("\n"):
                log.write("\n")
            log.write(f"(exit {status if status is not None else f'timeout {timeout} s'})\n")
            if at_limit:
                log.write(f"(at the time limit: {at_limit})\n")
    return Completed(status, output, time.monotonic() - started,
                     status is None and watch.disturbed(), at_limit)


class _LongRunWatch:
    """Records a GPU run in the class run's shared records once it has lasted
    gpu_share.SUSPECT_SECONDS, or half its time limit when that is shorter (so that a run
    under a short limit that hangs is still seen by the others), and says afterwards whether
    another grader's long run overlapped it. Does nothing without records."""

    def __init__(self, records, timeout=None):
        self.records = records
        self.started_at = time.time()
        self.record = None
        self.suspect = gpu_share.SUSPECT_SECONDS if timeout is None else min(
            gpu_share.SUSPECT_SECONDS, timeout / 2)

    def look(self, elapsed):
        if self.records is not None and self.record is None and elapsed >= self.suspect:
            self.record = self.records.start_long_run(self.started_at)

    def finish(self):
        self.ended_at = time.time()
        if self.record is not None:
            self.records.end_long_run(self.record, self.ended_at)

    def disturbed(self):
        return self.records is not None and self.records.disturbed(
            self.started_at, self.ended_at, self.record)


def _wait_limited(process, started, timeout, cancel, watch=None):
    """Waits for @p process until @p timeout seconds after @p started; kills its group then
    (returns None and processes_at_limit) or when @p cancel is set (raises Cancelled).
    Returns (its exit status, "")."""
    # In slices, to look at the cancel flag and to record a long GPU run.
    sliced = cancel is not None or (watch is not None and watch.records is not None)
    while True:
        left = timeout - (time.monotonic() - started)
        try:
            return process.wait(timeout=max(0.01, min(left, 0.5) if sliced else left)), ""
        except subprocess.TimeoutExpired:
            if watch is not None:
                watch.look(time.monotonic() - started)
            stop = cancel is not None and cancel.is_set()
            if left <= 0.5 or stop or not sliced:
                at_limit = "" if stop else processes_at_limit(process.pid)
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                if stop:
                    raise Cancelled() from None
                return None, at_limit


def _stat(pid):
    """(name, state, parent) of process @p pid from /proc, or None once it has gone."""
    try:
        text = pathlib.Path(f"/proc/{pid}/stat").read_text(errors="replace")
    except OSError:
        return None
    name, _, rest = text.partition("(")[2].rpartition(")")
    fields = rest.split()
    return name, fields[0], int(fields[1])


def _waiting_in(pid):
    """The kernel function process @p pid sleeps in (/proc/PID/wchan), or ""."""
    try:
        where = pathlib.Path(f"/proc/{pid}/wchan").read_text(errors="replace").strip()
    except OSError:
        return ""
    return "" if where in ("", "0") else where


def processes_at_limit(root, most=8):
    """What process @p root and its descendants are doing: "name (state, in function)" for
    each, its children in brackets after it (at most @p most processes). Said when a run
    runs out of time, so that a report tells a kernel that spins (R) from a process that
    waits (S, and where) or one that never started its program (still named like the
    grader)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                children.setdefault(stat[2], []).append(int(entry))
    budget = [most]

    def describe(pid):
        stat = _stat(pid)
        if stat is None or budget[0] <= 0:
            return ""
        budget[0] -= 1
        where = _waiting_in(pid)
        text = f"{stat[0]} ({stat[1]}{', in ' + where if where else ''})"
        below = [part for part in map(describe, sorted(children.get(pid, []))) if part]
        return text + (" [" + ", ".join(below) + "]" if below else "")
    return describe(root)


def at_limit_note(result):
    """A line saying what the processes of @p result (a Completed) were doing when it ran
    out of time, or ""."""
    return f"\nat the time limit: {result.at_limit}" if result.at_limit else ""


def timeout_message(result, timeout):
    """Why a run that ran out of time after @p timeout seconds failed."""
    return (f"timed out after {timeout} s (a kernel that never finishes?)"
            + at_limit_note(result))


def first_lines(text, count=14, width=160):
    """The first @p count non-empty lines of @p text, each cut to @p width characters."""
    lines = [line.rstrip()[:width] for line in (text or "").strip().splitlines() if line.strip()]
    if len(lines) > count:
        lines = lines[:count] + [f"... ({len(lines) - count} more lines)"]
    return "\n".join(lines)


def last_lines(text, count=3, width=160):
    """The last @p count non-empty lines of @p text, each cut to @p width characters."""
    lines = [line.rstrip()[:width] for line in (text or "").strip().splitlines() if line.strip()]
    return "\n".join(lines[-count:])


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


# The start of the message of a run that ran out of time beside another grader's long GPU run
# (gpu_share): grading.py runs it again alone on the GPU.
DISTURBED = "timed out beside another long GPU run"


def judge_sanitizer_run(tool, result, timeout, charged=None):
    """The outcome of one sanitizer run from its Completed result. Findings that name a
    kernel outside @p charged (the course's kernels) are not the submission's: a run whose
    findings are all of that kind is "course errors" (reported, no points lost)."""
    report = sanitizer.parse(result.output, tool)
    theirs = [f for f in report.findings if kernels.is_students(f.kernel, charged)]
    ours = [f for f in report.findings if not kernels.is_students(f.kernel, charged)]
    shown = theirs or ours
    entry = {"tool": tool, "errors": report.errors,
             "kernels": sorted({f.kernel for f in shown if f.kernel}),
             "first_lines": "\n".join(f.text() for f in shown[:2]),
             "seconds": round(result.seconds, 1)}
    if result.timed_out:
        entry.update(outcome="timed out", first_lines=f"timed out after {timeout} s under "
                     f"{tool}{at_limit_note(result)}\n" + entry["first_lines"])
    elif not report.summary_seen and "no CUDA" in result.output:
        entry.update(outcome="not run", first_lines="no CUDA device")
    elif not report.summary_seen:
        # compute-sanitizer always ends with its summary: a run without one was cut short
        # (the process it watched ended it, or it could not start), which proves nothing.
        entry.update(outcome="errors", errors=1, first_lines="compute-sanitizer wrote no "
                     "summary (the run was cut short)\n" + first_lines(result.output, 6))
    elif ours and not theirs and result.status in (0, sanitizer.SANITIZER_ERROR_CODE):
        # Every finding is in a kernel the submission does not define.
        entry.update(outcome="course errors", errors=len(ours))
    elif report.errors > 0 or result.status == sanitizer.SANITIZER_ERROR_CODE:
        entry.update(outcome="errors", errors=max(len(theirs) if ours else report.errors, 1))
        if not entry["first_lines"]:
            entry["first_lines"] = first_lines(result.output, 8)
    elif result.status != 0:
        entry.update(outcome="errors", errors=max(report.errors, 1),
                     first_lines=f"the test failed under {tool} (exit {result.status})\n"
                     + first_lines(result.output, 8))
    else:
        entry["outcome"] = "clean"
    return entry
