"""The time budget of one student's grade: one number of seconds for everything after the
class's shared build (the build of the student's files, the inspection, every run), so that
a class of N students ends in bounded time whatever the students do.

The budget is spent like this:
- one second per second while the student builds, is inspected or runs on the CPU;
- nothing while it waits for its turn on the GPU (gpu_share.GpuRecords.turn): another
  student's time is never charged to it;
- `lanes` seconds per second while it holds its turn: a turn holds the whole GPU, which the
  other lanes would otherwise share.

Why the class ends in time: while every lane has a student, each second either some student
holds the GPU (charged `lanes`) or nobody does, and then every lane's student is charged one
(nobody waits for a free GPU). So each such second spends at least `lanes` seconds of the N
budgets, and they last at most N x budget / lanes; after that fewer than `lanes` students are
left, each second still spends at least one of their at most (lanes - 1) x budget seconds.
Hence a class ends within the build + N x budget / lanes + (lanes - 1) x budget (plus the
grader's own second or two per student to start grade.py and write its report).

When the budget is spent, the runs under way are stopped and the cases not run by then score
0 with that reason (grading.py's "out of time").
"""
import contextlib
import math
import threading
import time

OUT_OF_TIME = "out of time"


class Budget:
    """@p seconds: the budget (None: unlimited); @p lanes: the lanes of the class (a second
    holding the GPU costs that many); @p clock: time.monotonic (tests give their own)."""

    def __init__(self, seconds=None, lanes=1, clock=time.monotonic):
        self.seconds = seconds
        self.lanes = max(1, int(lanes))
        self.clock = clock
        self.started = clock()
        self.waited = 0.0  # seconds spent waiting for the GPU (not charged)
        self.held = 0.0  # seconds spent holding the GPU (charged `lanes` times)
        self._waiting_since = None
        self._holding_since = None
        self._lock = threading.Lock()

    def _now_parts(self):
        now = self.clock()
        waited = self.waited + (now - self._waiting_since if self._waiting_since else 0.0)
        held = self.held + (now - self._holding_since if self._holding_since else 0.0)
        return now - self.started, waited, held

    def spent(self):
        """Seconds of the budget spent so far."""
        with self._lock:
            elapsed, waited, held = self._now_parts()
        return elapsed - waited + (self.lanes - 1) * held

    def left(self):
        """Seconds left (math.inf without a budget)."""
        return math.inf if self.seconds is None else self.seconds - self.spent()

    def expired(self):
        """Whether the budget is spent."""
        return self.left() <= 0

    def limit(self, timeout):
        """@p timeout, or less when the budget ends sooner (at least one second: a step that
        starts must be able to say why it stopped)."""
        return max(1.0, min(timeout, self.left()))

    @contextlib.contextmanager
    def waiting(self):
        """Waiting for the GPU: not charged."""
        with self._lock:
            self._waiting_since = self.clock()
        try:
            yield
        finally:
            with self._lock:
                self.waited += self.clock() - self._waiting_since
                self._waiting_since = None

    @contextlib.contextmanager
    def holding_gpu(self):
        """Holding the GPU alone: charged `lanes` times."""
        with self._lock:
            self._holding_since = self.clock()
        try:
            yield
        finally:
            with self._lock:
                self.held += self.clock() - self._holding_since
                self._holding_since = None

    def summary(self):
        """What the report says of the budget."""
        with self._lock:
            elapsed, waited, held = self._now_parts()
        return {"budget_seconds": self.seconds, "lanes": self.lanes,
                "spent": round(elapsed - waited + (self.lanes - 1) * held, 1),
                "wall_seconds": round(elapsed, 1), "waited_for_gpu": round(waited, 1),
                "gpu_turn": round(held, 1), "expired": self.expired()}


class Stop:
    """The stop flag of a step's runs (runner.run_limited's cancel): set by the mutation
    check's stop at the first loss, or true by itself once @p budget is spent."""

    def __init__(self, budget=None):
        self.budget = budget
        self._event = threading.Event()

    def set(self):
        self._event.set()

    def is_set(self):
        return self._event.is_set() or (self.budget is not None and self.budget.expired())

    def out_of_time(self):
        """Whether the runs stop because the budget is spent."""
        return self.budget is not None and self.budget.expired()
