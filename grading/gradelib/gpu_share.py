"""The GPU that the lanes of a class run share, and what one student's hang does to another.

A test whose kernel never ends keeps running on the GPU until its time limit kills it. The GPU
time-slices between processes, so while it runs every launch of every other process waits for
its turn: a test of another student in another lane that makes many small launches (step 4's
"every shape up to 40") can run out of time too, and that student would lose points for
somebody else's hang (seen in the H100 class run of 2026-11-24: 08-does-not-compile lost 3.6
points on step 4 while 09-hangs hung in the other lane).

The same happens inside one submission: a step-1 kernel that hangs slows the same student's
step-4 test down until it times out, and step 4 would lose points it earned.

So every GPU test run (plain or under a sanitizer) that lasts longer than SUSPECT_SECONDS leaves
a record in a folder that all the graders of the class share (the environment variable
ENVIRONMENT names it; grade_class.py sets it, grade.py makes one of its own otherwise): who ran
it (the grader's process id and the step), when it started and, once it is over, when it
ended. A run that times out while another long run overlapped it (of another grader, or of
another step of its own grader: the runs of one step hang together) is "disturbed":
grading.py runs it again, alone
on the GPU, with at most RETRY_TIMEOUT seconds, and only that second run counts. A run that
times out with no other long run beside it is a hang of its own and is not run again; a
hanging kernel also times out alone.

"Alone" is a lock that every grader of the class takes around each of its runs (the gate:
shared by first runs, held whole by a second run). Waiting until no long run is going is not
enough: in the H100 class run of 2026-11-24 (second command), 07's step-4 sweep timed out
beside 09-hangs, and each of its second runs started on a quiet GPU only for 09's next hanging
test to start beside it; it lost 3.6 points of a step it had right. With the gate, a second run
waits for the runs in progress to end (a hang ends at its time limit), no new run starts until
it is over, and a grader waiting for its second runs goes before any new first run (the
turnstile: a first run passes through it before it takes its share of the gate).

A class run goes further: each student's runs happen in a turn (turn()), which holds the
whole gate for all of that student's runs, one student after another in the order they asked
(a queue of tickets in the shared folder). A student's runs then never share the GPU with
another student's: no other student's process can take its GPU memory (a kernel that reserves
nearly all of it for its local memory), its GPU time (a kernel that spins) or its launches.
Builds and inspections of the other lanes go on meanwhile; the wait for a turn is not charged
to the student's time budget (budget.py).
"""
import contextlib
import fcntl
import os
import pathlib
import time
import uuid

# The slowest graded run, step 4's tile-edge test under racecheck, takes about 30 s on the GPU
# machine and took 29.8 to 49.5 s beside the other lane in the class run of 2026-11-24
# (results/previous_grader_2026-11-24/class_reports.md): a run past this is slowed down or
# hanging. A record only matters for a run that then times out (see disturbed).
SUSPECT_SECONDS = 45.0
ENVIRONMENT = "COURSE_GRADING_GPU_RECORDS"
# The limit of a disturbed run's second run, alone on the GPU: twice the slowest graded run's
# time alone (see SUSPECT_SECONDS), so that a hanging test costs one more minute.
RETRY_TIMEOUT = 60.0
# Second runs that are disturbed again are run again, up to this many runs in all.
MOST_RUNS = 3
# How often a grader waiting for its turn looks at the queue (seconds).
TURN_POLL = 0.05


def _alive(process_id):
    """Whether the process @p process_id (a grader on this machine) still runs."""
    try:
        os.kill(int(process_id), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError):
        return True
    return True


class GpuRecords:
    """The shared folder of long-run records; @p owner is this grader's process (its id);
    @p tag names whose runs these are (default: the owner).

    Runs of the same tag never disturb each other: the runs of one step of one grader share
    its kernels, so when one hangs the others hang with it, and they are not run again
    (the first class run of 2026-11-25 ran a hanging step's three runs again, alone, one
    after another: 135 s of the whole GPU). grading.py tags each step's runs
    (step(label)); the mutation check gives each slot a grader of its own (grader(name)),
    whose second runs then hold the gate against the other slots too."""

    def __init__(self, folder, owner=None, tag=None, _state=None):
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.owner = str(owner if owner is not None else os.getpid())
        self.tag = tag or self.owner
        # "alone": inside alone(), this grader's (second) runs hold the whole gate. Shared by
        # the views of one grader (step()), not by other graders (grader()).
        self._state = _state if _state is not None else {"alone": False}

    def grader(self, name):
        """Another grader of this process (a slot of the mutation check): its own tag and
        its own alone()."""
        return GpuRecords(self.folder, self.owner, f"{self.tag}.{name}")

    def step(self, label):
        """This grader's runs of one step: their own tag, this grader's alone()."""
        return GpuRecords(self.folder, self.owner, f"{self.tag}.{label}", self._state)

    @classmethod
    def from_environment(cls):
        """The records named by ENVIRONMENT, or None when no class run shares the GPU."""
        folder = os.environ.get(ENVIRONMENT)
        return cls(folder) if folder else None

    def start_long_run(self, started_at):
        """Records a run of this grader that began at @p started_at (time.time()) and is still
        going; returns the record's path for end_long_run."""
        path = self.folder / f"{self.owner}-{uuid.uuid4().hex}.run"
        temporary = path.with_suffix(".tmp")
        temporary.write_text(f"{self.owner} {started_at:.3f}\n{self.tag}\n", encoding="utf-8")
        temporary.rename(path)  # whole records only: readers never see half a line
        return path

    @staticmethod
    def end_long_run(path, ended_at=None):
        """Marks the run recorded at @p path as ended (at @p ended_at, default now)."""
        lines = path.read_text(encoding="utf-8").splitlines()
        owner, started = lines[0].split()[:2]
        ended = time.time() if ended_at is None else ended_at
        temporary = path.with_suffix(".tmp")
        temporary.write_text(f"{owner} {started} {ended:.3f}\n" + "".join(
            line + "\n" for line in lines[1:2]), encoding="utf-8")
        temporary.rename(path)

    def _runs(self, leave_out=None):
        """(start, end or None, tag) of every long run recorded so far but @p leave_out (a
        path)."""
        runs = []
        for path in self.folder.glob("*.run"):
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError:
                continue
            fields = lines[0].split() if lines else []
            if len(fields) < 2 or path == leave_out:
                continue
            end = float(fields[2]) if len(fields) > 2 else None
            if end is None and not _alive(fields[0]):
                end = path.stat().st_mtime  # its grader was killed before it could say so
            runs.append((float(fields[1]), end, lines[1] if len(lines) > 1 else fields[0]))
        return runs

    def disturbed(self, started_at, ended_at, own_record=None):
        """Whether a long run other than @p own_record (this run's record, if it has one) and
        of another tag than this one overlapped [@p started_at, @p ended_at]."""
        return any(start <= ended_at and (end is None or end >= started_at) and tag != self.tag
                   for start, end, tag in self._runs(leave_out=own_record))

    def running(self):
        """Whether a long run is going now."""
        return any(end is None for _, end, _ in self._runs())

    def _lock_files(self):
        """The turnstile and the gate, opened for flock (one open file each: flock locks
        belong to the open file, so every run of every grader gets its own)."""
        return (open(self.folder / "turnstile.lock", "a", encoding="utf-8"),
                open(self.folder / "gate.lock", "a", encoding="utf-8"))

    @contextlib.contextmanager
    def sharing(self):
        """Held around every run on the GPU: a share of the gate, taken through the turnstile
        (so no new run starts while a grader waits for alone()). Inside alone() the runs
        already hold the whole gate."""
        if self._state["alone"]:
            yield
            return
        turnstile, gate = self._lock_files()
        with turnstile, gate:
            fcntl.flock(turnstile, fcntl.LOCK_EX)
            fcntl.flock(gate, fcntl.LOCK_SH)
            fcntl.flock(turnstile, fcntl.LOCK_UN)
            yield  # the share of the gate goes when the file is closed

    @contextlib.contextmanager
    def alone(self):
        """The whole GPU for this grader's second runs: closes the turnstile (no new run of any
        grader starts), waits until the runs in progress have ended, and holds the gate
        until the second runs are over. Inside a turn (or alone() itself) it holds already."""
        if self._state["alone"]:
            yield
            return
        turnstile, gate = self._lock_files()
        with turnstile, gate:
            fcntl.flock(turnstile, fcntl.LOCK_EX)
            fcntl.flock(gate, fcntl.LOCK_EX)
            self._state["alone"] = True
            try:
                yield
            finally:
                self._state["alone"] = False

    @contextlib.contextmanager
    def turn(self):
        """The whole GPU for all of this grader's runs, in the order the graders asked: takes
        a ticket in the shared queue, waits until it is the oldest ticket of a grader still
        alive (a grader killed while it waited or held its turn leaves a ticket that the next
        one removes), then holds the gate as alone() does until the turn ends."""
        if self._state["alone"]:
            yield
            return
        queue = self.folder / "queue"
        queue.mkdir(parents=True, exist_ok=True)
        ticket = queue / f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex}.ticket"
        ticket.write_text(f"{self.tag}\n", encoding="utf-8")
        try:
            while _queue_head(queue) != ticket.name:
                time.sleep(TURN_POLL)
            with self.alone():
                yield
        finally:
            try:
                ticket.unlink()
            except FileNotFoundError:
                pass


def _queue_head(queue):
    """The name of the oldest ticket in @p queue whose grader is alive; tickets of graders
    that died are removed."""
    for path in sorted(queue.glob("*.ticket")):
        owner = path.name.split("-")[1] if path.name.count("-") >= 2 else ""
        if owner.isdigit() and _alive(owner):
            return path.name
        try:
            path.unlink()
        except FileNotFoundError:
            pass
    return None
